import { expect, it } from 'vitest';
import { importCycles, typeScriptFiles } from '../scripts/lib/import-cycles.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import { tempTree } from './support/temp-tree.ts';

it("the repository's TypeScript sources import one another without a cycle", () => {
  const files = typeScriptFiles(ROOT, ['generators', 'scripts', 'packages', 'test', 'generated']);
  expect(files.length).toBeGreaterThan(100);
  expect(importCycles(ROOT, files)).toEqual([]);
});

const cases: [string, Record<string, string>, string[][]][] = [
  [
    'a chain is no cycle',
    {
      'a.ts': "import { b } from './b.ts';",
      'b.ts': "import { c } from './lib/c.ts';",
      'lib/c.ts': 'export const c = 1;',
    },
    [],
  ],
  [
    'a package import is no edge',
    { 'a.ts': "import ts from 'typescript';\nimport { b } from './b.ts';", 'b.ts': "import { a } from 'a';" },
    [],
  ],
  [
    'two files importing each other',
    { 'a.ts': "import { b } from './b.ts';", 'b.ts': "import { a } from './a.ts';" },
    [['a.ts', 'b.ts']],
  ],
  [
    'a cycle through three folders',
    {
      'x/a.ts': "import { b } from '../y/b.ts';",
      'y/b.ts': "import { c } from '../z/c.ts';",
      'z/c.ts': "export { a } from '../x/a.ts';",
    },
    [['x/a.ts', 'y/b.ts', 'z/c.ts']],
  ],
  [
    'a type-only import closes a cycle',
    { 'a.ts': "import type { B } from './b.ts';", 'b.ts': "import { a } from './a.ts';" },
    [['a.ts', 'b.ts']],
  ],
  [
    'a dynamic import closes a cycle',
    { 'a.ts': "const b = await import('./b.ts');", 'b.ts': "import { a } from './a.ts';" },
    [['a.ts', 'b.ts']],
  ],
  [
    '`.js` and bare specifiers name the .ts file and the index',
    {
      'a.ts': "import { b } from './b.js';",
      'b.ts': "import { c } from './c';",
      'c/index.ts': "import { a } from '../a.ts';",
    },
    [['a.ts', 'b.ts', 'c/index.ts']],
  ],
  ['a file importing itself', { 'a.ts': "import * as self from './a.ts';" }, [['a.ts']]],
  [
    'two separate cycles',
    {
      'a.ts': "import './b.ts';",
      'b.ts': "import './a.ts';",
      'c.ts': "import './d.ts';\nimport './a.ts';",
      'd.ts': "import './c.ts';",
    },
    [
      ['a.ts', 'b.ts'],
      ['c.ts', 'd.ts'],
    ],
  ],
];

it.each(cases)('%s', (_name, files, cycles) => {
  const root = tempTree('import-cycles', files);
  expect(importCycles(root, typeScriptFiles(root, ['.']))).toEqual(cycles);
});
