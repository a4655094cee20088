/**
 * The release record, `releases/RELEASES.json`: version → the commit of the document's source and the sha256 of each
 * released file. Written by `npm run release` with `git rev-parse HEAD` at release time (the commit whose openapi/ and
 * generated/ are the released document); the commit that adds the record itself follows that one. The record is what
 * lasts on main: `git show <commit>:generated/openapi/openapi.json`. Git tags (`contract-v<version>`,
 * `<package>@<version>`) are made too, as a convenience: tags may not travel with a clone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RELEASES_DIR } from './releases.ts';

export const RECORD_FILE = join(RELEASES_DIR, 'RELEASES.json');

export interface ReleaseEntry {
  /** The commit whose openapi/ and generated/ are the released document. */
  commit: string;
  /** sha256 of each released file, by its name in generated/openapi/. */
  files: Record<string, string>;
}
export type ReleaseRecord = Record<string, ReleaseEntry>;

export function readRecord(file = RECORD_FILE): ReleaseRecord {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ReleaseRecord) : {};
}

/** The record with `version` added; a recorded version is never rewritten. */
export function withRelease(record: ReleaseRecord, version: string, entry: ReleaseEntry): ReleaseRecord {
  if (version in record) throw new Error(`${version} is recorded already (commit ${record[version]!.commit})`);
  if (!/^[0-9a-f]{40}$/.test(entry.commit)) throw new Error(`"${entry.commit}" is not a full commit hash`);
  return { ...record, [version]: entry };
}

export function writeRecord(record: ReleaseRecord, file = RECORD_FILE): void {
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trimEnd();
}

export function headCommit(cwd: string): string {
  return git(cwd, ['rev-parse', 'HEAD']);
}

/** Paths under `paths` with uncommitted changes: a release records HEAD, so its source must be committed. */
export function uncommitted(cwd: string, paths: string[]): string[] {
  return git(cwd, ['status', '--porcelain', '--', ...paths])
    .split('\n')
    .filter(Boolean);
}

/** The tags of a contract release and of package versions: `contract-v0.6.0`, `@service-api/types@0.6.0`. */
export function releaseTags(contractVersion: string | undefined, packages: { name: string; version: string }[]) {
  return [
    ...(contractVersion === undefined ? [] : [`contract-v${contractVersion}`]),
    ...packages.map((p) => `${p.name}@${p.version}`),
  ];
}

/** Creates each tag the repository lacks at `commit` (lightweight tags); returns the ones created. */
export function createMissingTags(cwd: string, tags: string[], commit: string): string[] {
  const existing = new Set(git(cwd, ['tag', '--list']).split('\n'));
  const missing = tags.filter((tag) => !existing.has(tag));
  for (const tag of missing) git(cwd, ['tag', tag, commit]);
  return missing;
}
