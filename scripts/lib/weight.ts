/**
 * What the repository tracks, by kind, in lines as `git ls-files | xargs wc -l` counts them (newline characters). The
 * goal: generated output and release files stay under 60 % of tracked lines, so that what a maintainer reads and
 * diffs is mostly what people wrote (`test/weight.test.ts` checks it, `npm run bench -- --only weight` reports it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths.ts';

/**
 * `generated`: written by `npm run build`; `release record`: the release record and the hashes at the top of
 * `releases/`, written by `npm run release`; `release copy`: a full copy of a released document under
 * `releases/<version>/`; `written`: everything else.
 */
export type Kind = 'generated' | 'release record' | 'release copy' | 'written';

export const GOAL = 0.6;

export function kindOf(path: string): Kind {
  if (path.startsWith('generated/')) return 'generated';
  if (path.startsWith('releases/')) return path.split('/').length > 2 ? 'release copy' : 'release record';
  return 'written';
}

/** Newline characters, as `wc -l` counts lines. */
export function countLines(contents: Buffer): number {
  let lines = 0;
  for (let at = contents.indexOf(10); at !== -1; at = contents.indexOf(10, at + 1)) lines += 1;
  return lines;
}

export interface Weight {
  lines: Record<Kind, number>;
  total: number;
  /** Generated output and release files (records and copies) over every tracked line. */
  share: number;
  /** The same without the full release copies, in both terms: the share once releases are records only. */
  shareWithoutCopies: number;
}

/** The tracked files of the work tree (a tracked file deleted in the work tree counts as gone). */
export function trackedWeight(root = ROOT): Weight {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter((path) => path && existsSync(join(root, path)));
  const lines: Record<Kind, number> = { generated: 0, 'release record': 0, 'release copy': 0, written: 0 };
  for (const path of files) lines[kindOf(path)] += countLines(readFileSync(join(root, path)));
  const total = lines.generated + lines['release record'] + lines['release copy'] + lines.written;
  const machine = lines.generated + lines['release record'];
  return {
    lines,
    total,
    share: (machine + lines['release copy']) / total,
    shareWithoutCopies: machine / (total - lines['release copy']),
  };
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

/** One line a reader can check: every kind's lines and both shares. */
export function describeWeight({ lines, total, share, shareWithoutCopies }: Weight): string {
  const kinds = Object.entries(lines).map(([kind, count]) => `${kind} ${count.toLocaleString('en')}`);
  return `${percent(share)} of ${total.toLocaleString('en')} tracked lines (${kinds.join(', ')}); without the full release copies ${percent(shareWithoutCopies)}`;
}
