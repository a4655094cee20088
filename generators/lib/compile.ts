import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../../scripts/lib/paths.ts';
import type { GeneratedFile } from './files.ts';

export interface CompileOptions {
  /** `['node']` for server code; none for code that must also run in browsers. */
  types?: string[];
  /** Extra declaration files the sources import (e.g. the `.d.ts` of a hand-written `.js` module). */
  declarations?: GeneratedFile[];
  /** Generated packages the sources import, by package name: their `.d.ts` files (the entry is `dist/index.d.ts`). */
  packages?: Record<string, GeneratedFile[]>;
  /** Code for Node only (the mock, the fake, the proxy): the ES2023 library, which browsers' code may not assume. */
  nodeOnly?: boolean;
  /** Sources that import each other as `./x.ts` (run as they are by tsx): compiled to `./x.js`. */
  tsImports?: boolean;
  /** The folder of the sources, relative to the repository (default: that of the first source). */
  rootDir?: string;
}

/**
 * Parsed declaration files (the TypeScript libs, @types, the types package) shared by every package compiled in this
 * process, as a language service's document registry shares them: parsing the DOM lib and the 800 kB of types once
 * instead of once per package. A file is reused only while its text is the same.
 */
const parsedDeclarations = new Map<string, { text: string; file: ts.SourceFile }>();

function parseShared(
  fileName: string,
  text: string,
  language: ts.ScriptTarget | ts.CreateSourceFileOptions,
): ts.SourceFile {
  const cached = parsedDeclarations.get(fileName);
  if (cached && cached.text === text) return cached.file;
  const file = ts.createSourceFile(fileName, text, language, true);
  parsedDeclarations.set(fileName, { text, file });
  return file;
}

/**
 * Compiles a package's `src/*.ts` into `dist/*.js` and `dist/*.d.ts` in memory with the TypeScript API,
 * type-checking them first (a type error fails the build). The output is deterministic: the same sources give the
 * same bytes.
 */
export function compilePackage(sources: GeneratedFile[], options: CompileOptions = {}): GeneratedFile[] {
  const virtual = new Map<string, string>();
  const packageFiles = Object.values(options.packages ?? {}).flat();
  for (const file of [...sources, ...(options.declarations ?? []), ...packageFiles])
    virtual.set(join(ROOT, file.path), file.contents);
  const paths: Record<string, string[]> = {};
  for (const [name, files] of Object.entries(options.packages ?? {})) {
    const entry = files.find((f) => f.path.endsWith('/dist/index.d.ts'));
    if (!entry) throw new Error(`Package ${name} has no dist/index.d.ts to compile against`);
    paths[name] = [join(ROOT, entry.path)];
  }
  const compilerOptions: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: [options.nodeOnly ? 'lib.es2023.d.ts' : 'lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: options.types ?? [],
    strict: true,
    noUncheckedIndexedAccess: true,
    declaration: true,
    skipLibCheck: true,
    newLine: ts.NewLineKind.LineFeed,
    removeComments: false,
    noEmitOnError: true,
    ...(options.tsImports ? { rewriteRelativeImportExtensions: true } : {}),
    ...(Object.keys(paths).length ? { paths } : {}),
  };
  const host = ts.createCompilerHost(compilerOptions, true);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  const folders = new Set([...virtual.keys()].flatMap((file) => ancestors(dirname(file))));
  host.fileExists = (file) => virtual.has(file) || ts.sys.fileExists(file);
  host.directoryExists = (dir) => folders.has(dir) || ts.sys.directoryExists(dir);
  host.readFile = (file) => virtual.get(file) ?? readFile(file);
  host.getSourceFile = (file, language, onError) => {
    const text = virtual.get(file) ?? (file.endsWith('.d.ts') ? ts.sys.readFile(file) : undefined);
    if (text === undefined) return getSourceFile(file, language, onError);
    return file.endsWith('.d.ts') ? parseShared(file, text, language) : ts.createSourceFile(file, text, language, true);
  };
  const outputs: GeneratedFile[] = [];
  host.writeFile = (file, text) => {
    const path = relative(ROOT, file).split('\\').join('/');
    outputs.push({ path, contents: text });
  };
  const roots = sources.filter((f) => f.path.endsWith('.ts')).map((f) => join(ROOT, f.path));
  const srcDir = options.rootDir ? join(ROOT, options.rootDir) : dirname(roots[0]!);
  const program = ts.createProgram(
    roots,
    { ...compilerOptions, rootDir: srcDir, outDir: join(srcDir, '..', 'dist') },
    host,
  );
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) {
    const text = ts.formatDiagnostics(diagnostics.slice(0, 10), {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => ROOT,
      getNewLine: () => '\n',
    });
    throw new Error(`the package does not compile:\n${text}`);
  }
  program.emit();
  return outputs.sort((a, b) => (a.path < b.path ? -1 : 1));
}

function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let current = dir; current !== dirname(current); current = dirname(current)) out.push(current);
  return out;
}
