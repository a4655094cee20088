/**
 * Paths in the docs and in code comments lead somewhere: every backticked repository path of a tracked Markdown file
 * (records of the past left out: CHANGELOGs, docs/reviews/, releases/) and of a comment in tracked code resolves to a
 * file or folder, under the rule of scripts/lib/repository-paths.ts (placeholders and globs allowed).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.ts';
import { backtickedPaths, isRecord, leadsSomewhere, type Tree } from '../scripts/lib/repository-paths.ts';

describe('backtickedPaths and leadsSomewhere', () => {
  it('takes the repository paths of backticked spans, without punctuation, line numbers and anchors', () => {
    const text =
      'See `packages/fake/src/index.ts:12-30`, run `npx vitest run test/a.test.ts`.\n`npm test` and `docs/x.md#top`';
    expect(backtickedPaths(text)).toEqual([
      { line: 1, path: 'packages/fake/src/index.ts' },
      { line: 1, path: 'test/a.test.ts' },
      { line: 2, path: 'docs/x.md' },
    ]);
  });

  const present = new Set([
    'packages',
    'packages/fake',
    'packages/fake/src',
    'packages/fake/src/index.ts',
    'test',
    'test/a.test.ts',
  ]);
  const cases: [string, boolean][] = [
    ['packages/fake/src/index.ts', true],
    ['packages/fake/', true],
    ['packages/fake/src/gone.ts', false],
    ['packages/<name>/package.json', true],
    ['test/<file>.test.ts', true],
    ['scripts/<x>.ts', false],
    ['packages/fake/…', true],
    ['test/*.test.ts', true],
    ['test/**/*.test.ts', true],
    ['docs/*.md', false],
    ['packages/{fake,gone}/src', false],
    ['test/{a,a}.test.ts', true],
  ];
  const tree: Tree = {
    exists: (path) => present.has(path),
    children: (folder) =>
      [...present]
        .filter((p) => dirname(p) === (folder === '' ? '.' : folder))
        .map((p) => p.slice(p.lastIndexOf('/') + 1)),
  };
  it.each(cases)('%s leads somewhere: %s', (path, expected) => {
    expect(leadsSomewhere(path, tree)).toBe(expected);
  });
});

describe('the repository', () => {
  const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  /** The working tree, build output (the packages' `dist`) included, without installed dependencies. */
  const tree: Tree = {
    exists: (path) => existsSync(join(ROOT, path)),
    children: (folder) => {
      const path = join(ROOT, folder);
      return existsSync(path) && statSync(path).isDirectory()
        ? readdirSync(path).filter((name) => name !== 'node_modules' && name !== '.git')
        : [];
    },
  };
  const stale = (file: string, text: string) =>
    backtickedPaths(text)
      .filter(({ path }) => !leadsSomewhere(path, tree))
      .map(({ line, path }) => `${file}:${line} ${path}`);

  it('names no missing path in backticks in a Markdown file', () => {
    const markdown = tracked.filter((f) => f.endsWith('.md') && !isRecord(f));
    expect(markdown.length).toBeGreaterThan(10);
    expect(markdown.flatMap((file) => stale(file, readFileSync(join(ROOT, file), 'utf8')))).toEqual([]);
  });

  it('names no missing path in backticks in a comment of the code', () => {
    const code = tracked.filter(
      (f) => /.(ts|mts|js|mjs|cjs)$/.test(f) && !f.startsWith('generated/') && !f.startsWith('releases/'),
    );
    const comments = (text: string) =>
      text
        .split('\n')
        .map((line) => (/^\s*(\/\/|\/?\*)/.test(line) ? line : ''))
        .join('\n');
    expect(code.flatMap((file) => stale(file, comments(readFileSync(join(ROOT, file), 'utf8'))))).toEqual([]);
  });
});
