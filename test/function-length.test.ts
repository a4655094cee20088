/**
 * No hand-written function is longer than 80 lines: the generators, the scripts (bench included) and every package's
 * runtime and scripts, measured on the TypeScript AST. A function's lines include its nested functions and its
 * literals; a data builder (a function whose lines are mostly data: object and array literals that hold no function)
 * counts its code lines only, so a table stays a table. Generated code is not measured, nor the tests' own callbacks
 * (tables of cases). Nothing hand-written is left out: the fake's handlers are functions of the store, one per
 * operation, and each tag's `…Handlers(store)` only names them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.ts';

const MAX_LINES = 80;
/** Where hand-written code lives (each folder with its subfolders). */
const FOLDERS = [
  'generators',
  'scripts',
  ...readdirSync(join(ROOT, 'packages')).flatMap((name) => [`packages/${name}/src`, `packages/${name}/scripts`]),
].filter((folder) => existsSync(join(ROOT, folder)));

interface Measured {
  name: string;
  line: number;
  lines: number;
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

function holdsFunction(node: ts.Node): boolean {
  return isFunction(node) || (ts.forEachChild(node, holdsFunction) ?? false);
}

/** What a function is called where it is declared: its name, its variable's or property's, or `(anonymous)`. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertyAssignment(parent)) &&
    parent.name
  )
    return parent.name.getText();
  return '(anonymous)';
}

/** Every function of a source text with its length in lines (a data builder's data lines left out). */
export function functionLengths(text: string, file = 'source.ts'): Measured[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const dataLines = new Set<number>();
  const functions: ts.FunctionLikeDeclaration[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isObjectLiteralExpression(node) || ts.isArrayLiteralExpression(node)) && !holdsFunction(node)) {
      // The literal's inner lines: its first and last lines hold code around it.
      for (let line = lineOf(node.getStart()) + 1; line < lineOf(node.getEnd()); line++) dataLines.add(line);
      return;
    }
    if (isFunction(node)) functions.push(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return functions.map((node) => {
    const first = lineOf(node.getStart());
    const last = lineOf(node.getEnd());
    let data = 0;
    for (let line = first; line <= last; line++) if (dataLines.has(line)) data++;
    const lines = last - first + 1;
    return { name: nameOf(node), line: first + 1, lines: data * 2 > lines ? lines - data : lines };
  });
}

const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  const v${i} = ${i};`).join('\n');
const table = (rows: number) => `[\n${Array.from({ length: rows }, (_, i) => `    { id: ${i} },`).join('\n')}\n  ]`;

describe('functionLengths', () => {
  it.each<[string, string, Record<string, number>]>([
    ['a declaration counts its first and last lines', `function f() {\n${body(3)}\n}`, { f: 5 }],
    ["an arrow function takes its variable's name", `const g = () => {\n${body(2)}\n};`, { g: 4 }],
    [
      'a nested function counts in its parent and alone',
      `function outer() {\n  const inner = () => {\n${body(2)}\n  };\n}`,
      { outer: 6, inner: 4 },
    ],
    ['a data builder counts its code lines only', `function data() {\n  return ${table(200)};\n}`, { data: 4 }],
    [
      'a function mostly code counts its literals too',
      `function code() {\n${body(75)}\n  const row = ${table(5)};\n}`,
      { code: 84 },
    ],
    [
      'a literal holding a function is code',
      `function handlers() {\n  return {\n    a: () => {\n${body(2)}\n    },\n  };\n}`,
      { handlers: 8, a: 4 },
    ],
    ['class methods are measured one by one', `class C {\n  m() {\n${body(3)}\n  }\n}`, { m: 5 }],
  ])('%s', (_name, text, expected) => {
    expect(Object.fromEntries(functionLengths(text).map((f) => [f.name, f.lines]))).toEqual(expected);
  });
});

describe(`hand-written functions are at most ${MAX_LINES} lines`, () => {
  const files = FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.m?ts$/.test(name) && !name.endsWith('.d.ts') && !name.split('/').includes('node_modules'))
      .map((name) => `${folder}/${name}`),
  );

  it('finds the sources of every kind', () => {
    for (const file of [
      'generators/lib/ajv.ts',
      'scripts/lib/coverage.ts',
      'scripts/bench/sections/fake-suite.ts',
      'packages/fake/src/handlers/merge-requests/merge-requests.ts',
    ])
      expect(files).toContain(file);
    expect(files.length).toBeGreaterThan(150);
  });

  it.each(files)('%s', (file) => {
    const long = functionLengths(readFileSync(join(ROOT, file), 'utf8'), file)
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${file}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(long).toEqual([]);
  });
});
