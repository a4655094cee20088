/**
 * Commit messages a maintainer can read in `git log --oneline`: a subject of at most 72 characters, and the why in a
 * body. Checked from the day the rule was written down (older history stays as it is); merges keep git's subject.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.ts';

const SINCE = '2026-11-27T05:30:00Z';
const SEPARATOR = '\u001e';

function commitsSince(since: string): { hash: string; subject: string; body: string; merge: boolean }[] {
  const log = execFileSync('git', ['log', `--since=${since}`, `--format=%h%x1f%P%x1f%s%x1f%b${SEPARATOR}`], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return log
    .split(SEPARATOR)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [hash = '', parents = '', subject = '', body = ''] = entry.split('\u001f');
      return { hash, subject, body: body.trim(), merge: parents.trim().split(' ').length > 1 };
    });
}

describe('commit messages', () => {
  const commits = commitsSince(SINCE);

  it('reads the history it checks', () => {
    expect(commits.length).toBeGreaterThan(0);
  });

  it('subjects are at most 72 characters', () => {
    expect(commits.filter((c) => c.subject.length > 72).map((c) => `${c.hash} ${c.subject}`)).toEqual([]);
  });

  it('every commit but a merge says why in a body', () => {
    expect(commits.filter((c) => !c.merge && c.body === '').map((c) => `${c.hash} ${c.subject}`)).toEqual([]);
  });
});
