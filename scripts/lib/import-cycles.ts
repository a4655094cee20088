/**
 * Import cycles among TypeScript sources: the graph of relative imports (static, type-only and dynamic, as
 * TypeScript's own `preProcessFile` reads them) and its strongly connected components of more than one file, or of a
 * file that imports itself. TypeScript is already installed; a cycle checker from npm would be one more dependency.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Folders whose files are not the repository's own sources: installs, build output, work files, test fixtures. */
const SKIPPED = new Set(['node_modules', '.tmp', 'fixtures', 'dist']);

/**
 * The `.ts` files under each folder (not in node_modules, `.tmp`, `dist`, test fixtures, or the third-party tier's
 * generated `out/`, which is other projects' code). Those folders are not entered: the tiers' own installs hold tens of
 * thousands of files.
 */
export function typeScriptFiles(root: string, folders: string[]): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory())
        return SKIPPED.has(entry.name) || (entry.name === 'out' && basename(dir) === 'thirdparty') ? [] : walk(path);
      return /\.tsx?$/.test(entry.name) ? [path] : [];
    });
  return folders.flatMap((folder) => walk(resolve(root, folder)));
}

/** The file a relative specifier names: `./x.ts`, `./x.js` written for `./x.ts`, `./x` or `./x/index.ts`. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  return [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')].find(
    (path) => /\.tsx?$/.test(path) && existsSync(path),
  );
}

/** Each cycle as the files it joins, relative to `root` and sorted; none when the graph is acyclic. */
export function importCycles(root: string, files: string[]): string[][] {
  const nodes = new Set(files);
  const edges = new Map(
    files.map((file) => [
      file,
      ts
        .preProcessFile(readFileSync(file, 'utf8'), true, true)
        .importedFiles.flatMap(({ fileName }) => resolveImport(file, fileName) ?? [])
        .filter((target) => nodes.has(target)),
    ]),
  );
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file)!) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || edges.get(file)!.includes(file))
      cycles.push(component.map((path) => relative(root, path)).sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
