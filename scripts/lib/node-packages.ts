/**
 * The packages written by hand that run on the server package (the mock, the fake, the proxy): their `src/`, in which
 * modules import each other as `./x.ts` (tsx runs them as they are), compiled into `dist/` by the build, after the
 * packages built from the document whose declarations they import (through node_modules, as a consumer would).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compilePackage } from '../../generators/lib/compile.ts';
import type { GeneratedFile } from '../../generators/lib/files.ts';
import { ROOT } from './paths.ts';

export const NODE_PACKAGES = ['mock', 'fake', 'proxy'] as const;

/** Every `.ts` module under `packages/<name>/src/`. */
function sources(name: string): GeneratedFile[] {
  const dir = join(ROOT, 'packages', name, 'src');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => ({ path: relative(ROOT, join(dir, file)), contents: readFileSync(join(dir, file), 'utf8') }));
}

/** The compiled `dist/` of one of them (`.js` and `.d.ts`), type-checked first. */
export function compileNodePackage(name: string): GeneratedFile[] {
  return compilePackage(sources(name), {
    types: ['node'],
    nodeOnly: true,
    tsImports: true,
    rootDir: `packages/${name}/src`,
  });
}
