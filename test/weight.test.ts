/**
 * What the repository tracks: generated output and release files under 60 % of tracked lines, and generated/ marked as
 * such for GitHub. Lines as `git ls-files | xargs wc -l` counts them (scripts/lib/weight.ts).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.ts';
import { countLines, describeWeight, GOAL, kindOf, trackedWeight } from '../scripts/lib/weight.ts';

describe('the weight of what is tracked', () => {
  it.each([
    ['generated/openapi/openapi.json', 'generated'],
    ['generated/types/schema.ts', 'generated'],
    ['releases/RELEASES.json', 'release record'],
    ['releases/SHA256SUMS', 'release record'],
    ['releases/0.5.0/openapi.json', 'release copy'],
    ['openapi/openapi.yaml', 'written'],
    ['packages/openapi/src/index.ts', 'written'],
    ['test/__snapshots__/mini/openapi/openapi.json', 'written'],
  ])('%s is %s', (path, kind) => {
    expect(kindOf(path)).toBe(kind);
  });

  it.each([
    ['', 0],
    ['one', 0],
    ['one\n', 1],
    ['one\ntwo', 1],
    ['\n\n\n', 3],
  ])('counts the lines of %j as wc -l does: %i', (text, lines) => {
    expect(countLines(Buffer.from(text))).toBe(lines);
  });

  // The full copies under releases/<version>/ are counted apart: a release is its record (the commit and the hashes),
  // and the copies go (issue 31 item 4); `share` counts them while they are tracked.
  it(`generated output and release files are under ${GOAL * 100} % of tracked lines`, () => {
    const weight = trackedWeight();
    expect(weight.lines.generated).toBeGreaterThan(0);
    expect(weight.lines.written).toBeGreaterThan(0);
    expect(weight.shareWithoutCopies, describeWeight(weight)).toBeLessThan(GOAL);
  });

  it('marks every tracked file of generated/ and releases/ as generated for GitHub, keeping its text diff', () => {
    const files = execFileSync('git', ['ls-files', '-z', 'generated', 'releases'], { cwd: ROOT, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean);
    expect(files.length).toBeGreaterThan(10);
    const attributes = execFileSync('git', ['check-attr', '-z', 'linguist-generated', 'diff', '--', ...files], {
      cwd: ROOT,
      encoding: 'utf8',
    }).split('\0');
    const byFile = new Map<string, Record<string, string>>();
    for (let i = 0; i + 2 < attributes.length; i += 3)
      byFile.set(attributes[i]!, { ...byFile.get(attributes[i]!), [attributes[i + 1]!]: attributes[i + 2]! });
    for (const file of files)
      expect(byFile.get(file), file).toEqual({ 'linguist-generated': 'true', diff: 'unspecified' });
  });
});
