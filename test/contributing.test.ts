/**
 * CONTRIBUTING.md's "Adding an operation" is complete and its steps can be followed: numbered from 1, every command
 * is a script of package.json or a file that exists, and the steps name each thing a new operation needs (fragments,
 * the path entry, the build, the coverage sources, the fake handler in its tag's folder and its parameter table,
 * docs/fake.md's regeneration, the CHANGELOG line). test/adding-an-operation.test.ts walks the steps themselves.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.ts';

const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
const scripts = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts,
);

/** The numbered steps of a `## ` section, each with its continuation lines. */
function steps(title: string): string[] {
  const start = text.indexOf(`\n## ${title}\n`);
  const end = text.indexOf('\n## ', start + 1);
  const body = text.slice(start, end < 0 ? undefined : end);
  return body.split(/\n(?=\d+\. )/).filter((chunk) => /^\d+\. /.test(chunk));
}

describe('Adding an operation', () => {
  const all = steps('Adding an operation');
  const joined = all.join('\n');

  it('is a list of steps numbered from 1', () => {
    expect(all.length).toBeGreaterThanOrEqual(8);
    expect(all.map((step) => Number(/^(\d+)\./.exec(step)![1]))).toEqual(all.map((_, i) => i + 1));
  });

  it('runs only scripts of package.json and files that exist', () => {
    const commands = [...joined.matchAll(/`npm run ([\w:-]+)/g)].map((m) => m[1]!);
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.filter((name) => !scripts.includes(name))).toEqual([]);
    const files = [...joined.matchAll(/`node --import tsx ([^`\s]+)`/g)].map((m) => m[1]!);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
  });

  const needs: [string, string][] = [
    ['the path fragment', '`openapi/<tag>/paths/'],
    ['the path entry', '`openapi/openapi.yaml`'],
    ['described parameters', '`parameter-description`'],
    ['the build', '`npm run build`'],
    ['the coverage sources', '`scripts/coverage-sources.json`'],
    ['the fake handler in the folder of its tag', '`packages/fake/src/handlers/<tag>/`'],
    ['its parameter table', '`packages/fake/src/handlers/parameters.ts`'],
    ['the operation list of docs/fake.md', '`node --import tsx packages/fake/scripts/operations-list.mts`'],
    ['the parameter tables of docs/fake.md', '`node --import tsx packages/fake/scripts/parameters-list.mts`'],
    ['the version step', 'one line under `## Unreleased` in `CHANGELOG.md`'],
  ];
  it.each(needs)('names %s', (_what, words) => {
    expect(joined.replace(/\s+/g, ' ')).toContain(words);
  });
});
