/**
 * The README's snippet of what the contract does not cover, compiled by TypeScript in a strict project against the
 * built client: a compile, so a test of the packages tier (test/readme.test.ts checks the README's text).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { section } from './support/markdown.ts';

const text = section(readFileSync('README.md', 'utf8'), 'What the contract does not cover');

it('type-checks in a strict project against the built client', () => {
  const snippet = /```ts\n([\s\S]*?)```/.exec(text)?.[1];
  expect(snippet).toBeDefined();
  mkdirSync('.tmp', { recursive: true });
  const folder = mkdtempSync(join('.tmp', 'readme-snippet-'));
  try {
    const file = join(folder, 'snippet.ts');
    writeFileSync(file, `${snippet}export {};\n`);
    const program = ts.createProgram([file], {
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
