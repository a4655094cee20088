import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { compilePackage, type CompileOptions } from './compile.ts';
import type { GeneratedFile } from './files.ts';
import type { OpenApiDocument } from './openapi.ts';
import { ROOT } from '../../scripts/lib/paths.ts';

/**
 * A package built from the document: `packages/<id>/` holds what is written by hand (package.json, README, CHANGELOG,
 * the runtime in `src/`, tests), `generated/<id>/` what its generator writes. The two folders compile as one `src/`
 * into `packages/<id>/dist/`.
 */
export interface ContractPackage {
  name: string;
  id: string;
}

export const packageDir = (pkg: ContractPackage) => `packages/${pkg.id}`;

/** Every `.ts` module under a folder of the repository (`packages/<name>/src`), as files to compile. */
export function moduleSources(dir: string): GeneratedFile[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => ({ path: `${dir}/${name}`, contents: readFileSync(join(ROOT, dir, name), 'utf8') }));
}

/**
 * `generated/<id>/<file>` as a file of `packages/<id>/src/`: generated and hand-written modules import each other by
 * relative paths (`./schema.js`, `./runtime.js`), as one folder.
 */
function asSource(pkg: ContractPackage, file: GeneratedFile): GeneratedFile {
  return { path: `${packageDir(pkg)}/src/${basename(file.path)}`, contents: file.contents };
}

/**
 * Type-checks and compiles a package's hand-written `src/` with its generated sources into `dist/`. A generated file
 * may not take the name of a hand-written one. `.d.ts` files among the generated ones declare modules whose code
 * the caller adds to `dist/` (the validators' Ajv code).
 */
export function compileContractPackage(
  pkg: ContractPackage,
  generated: GeneratedFile[],
  options: CompileOptions = {},
): GeneratedFile[] {
  const own = moduleSources(`${packageDir(pkg)}/src`);
  const taken = new Set(own.map((f) => basename(f.path)));
  const clash = generated.find((f) => taken.has(basename(f.path)));
  if (clash)
    throw new Error(`${clash.path} would replace the hand-written ${packageDir(pkg)}/src/${basename(clash.path)}`);
  const placed = generated.map((f) => asSource(pkg, f));
  const declarations = placed.filter((f) => f.path.endsWith('.d.ts'));
  const sources = [...own, ...placed.filter((f) => !f.path.endsWith('.d.ts'))];
  return compilePackage(sources, { ...options, declarations: [...declarations, ...(options.declarations ?? [])] });
}

/**
 * The module that records which contract version a package was generated from: a constant, or for the types-only
 * package a type (it has no code).
 */
export function contractModule(doc: OpenApiDocument, as: 'const' | 'type'): string {
  const version = JSON.stringify(doc.info.version);
  return as === 'const'
    ? `/** The version of the Service HTTP API v4 contract (\`info.version\`) this package was generated from. */\nexport const contractVersion = ${version};\n`
    : `/** The version of the Service HTTP API v4 contract (\`info.version\`) this package was generated from. */\nexport type ContractVersion = ${version};\n`;
}
