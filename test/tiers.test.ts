/** The test tiers of vitest.config.ts: each file in one tier, and the unit tier free of servers, browsers and installs. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.ts';
import config, { TIERS } from '../vitest.config.ts';

/** A glob of vitest.config.ts (`*` within a folder, `**\/` any folders) as a regular expression. */
function globRegExp(glob: string): RegExp {
  const source = glob
    .split('**/')
    .map((part) =>
      part
        .split('*')
        .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('(?:.*/)?');
  return new RegExp(`^${source}$`);
}

/** The test files of the repository (`test/`) and of each package (`packages/<name>/test/`). */
const testFolders = ['test', ...readdirSync(join(ROOT, 'packages')).map((name) => `packages/${name}/test`)];
const testFiles = testFolders
  .flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' }).map((file) =>
      relative(ROOT, join(ROOT, folder, file)),
    ),
  )
  .filter(
    (file) =>
      file.endsWith('.test.ts') &&
      !file.startsWith('test/fixtures/') &&
      !file.startsWith('test/__snapshots__/') &&
      // The third-party tier's own install and what its tools write (test/thirdparty/README.md).
      !file.includes('node_modules/') &&
      !file.startsWith('test/thirdparty/out/'),
  )
  .sort();
const tiersOf = (file: string) =>
  Object.entries(TIERS)
    .filter(([, globs]) => globs.some((glob) => globRegExp(glob).test(file)))
    .map(([name]) => name);
const unitFiles = testFiles.filter((file) => tiersOf(file).length === 0 && file !== 'test/tiers.test.ts');

/** What only the other tiers may do: start a server, the fake, the mock (or their commands) or a browser, run Python, install packages. */
const NOT_UNIT =
  /support\/(fake|mock|example-server|consumer|conformance|fixture-packages)\.ts|\b(startFake|startMock|startProxy|createFake|createMock|createServer)\b|\.listen\(|src\/cli\.ts|playwright|python3|'npm', \['(pack|install)'/;

describe('test tiers', () => {
  it('globRegExp reads the patterns of vitest.config.ts', () => {
    expect(globRegExp('packages/fake/test/*.test.ts').test('packages/fake/test/tree.test.ts')).toBe(true);
    expect(globRegExp('packages/fake/test/*.test.ts').test('packages/fake/test/a/tree.test.ts')).toBe(false);
    expect(globRegExp('test/clients/**/*.test.ts').test('test/clients/python-gitlab.test.ts')).toBe(true);
    expect(globRegExp('test/clients/**/*.test.ts').test('test/clients/a/b.test.ts')).toBe(true);
  });

  it("the unit tier keeps vitest's default excludes, so no installed package's tests run as ours", () => {
    const projects = (config.test?.projects ?? []) as { test?: { name?: string; exclude?: string[] } }[];
    const unit = projects.find((project) => project.test?.name === 'unit');
    expect(unit?.test?.exclude).toContain('**/node_modules/**');
  });

  it('the third-party tier is a project of its own, installed by its global setup', () => {
    expect(TIERS.thirdparty).toEqual(['test/thirdparty/*.test.ts']);
    expect(testFiles.filter((file) => file.startsWith('test/thirdparty/'))).toEqual(
      testFiles.filter((file) => tiersOf(file).includes('thirdparty')),
    );
  });

  it.each(Object.entries(TIERS))('every pattern of the %s tier names a test file', (_tier, globs) => {
    for (const glob of globs)
      expect(
        testFiles.filter((file) => globRegExp(glob).test(file)),
        glob,
      ).not.toEqual([]);
  });

  it('puts each test file in at most one tier besides unit', () => {
    expect(testFiles.filter((file) => tiersOf(file).length > 1)).toEqual([]);
  });

  it.each(unitFiles)('unit: %s starts no server, browser, Python or install', (file) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).not.toMatch(NOT_UNIT);
  });
});
