/**
 * The server's public exports are what its README documents, and its siblings (the mock, the fake, the proxy) use
 * only those, `@service-api/server/internal` and `@service-api/server/command`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as server from '@service-api/server';
import { ROOT } from '../../../scripts/lib/paths.ts';

const readme = readFileSync(join(ROOT, 'packages/server/README.md'), 'utf8');

/** The names in the first column of the README's table of exports. */
function documentedExports(): string[] {
  const section = readme.split(/^## What it exports$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)).sort();
}

/** Every value a source imports or re-exports from a `@service-api/server` entry point, as `entry name`. */
function serverImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    const from =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : '';
    if (!from.startsWith('@service-api/server')) continue;
    const elements = ts.isImportDeclaration(statement)
      ? statement.importClause?.isTypeOnly
        ? []
        : statement.importClause?.namedBindings && ts.isNamedImports(statement.importClause.namedBindings)
          ? statement.importClause.namedBindings.elements
          : []
      : ts.isExportDeclaration(statement) &&
          !statement.isTypeOnly &&
          statement.exportClause &&
          ts.isNamedExports(statement.exportClause)
        ? statement.exportClause.elements
        : [];
    for (const element of elements)
      if (!element.isTypeOnly) found.push(`${from} ${(element.propertyName ?? element.name).text}`);
  }
  return found;
}

function sources(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(folder, name));
}

describe('@service-api/server exports', () => {
  it('the README documents every runtime export, and nothing else', () => {
    expect(Object.keys(server).sort()).toEqual(documentedExports());
  });

  it.each(['mock', 'fake', 'proxy'])('%s imports only documented exports, /internal and /command', (name) => {
    const documented = new Set(documentedExports());
    const imports = sources(join(ROOT, 'packages', name, 'src')).flatMap(serverImports);
    expect(imports.length).toBeGreaterThan(0);
    const undocumented = imports.filter((entry) => {
      const [from, imported] = entry.split(' ') as [string, string];
      if (from === '@service-api/server') return !documented.has(imported);
      return from !== '@service-api/server/internal' && from !== '@service-api/server/command';
    });
    expect(undocumented).toEqual([]);
  });

  it('the README says the internal entry point is outside semver', () => {
    expect(readme).toMatch(/`@service-api\/server\/internal`[\s\S]*?\*\*outside semver\*\*/);
  });
});
