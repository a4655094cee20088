/**
 * The packages written by hand that run on the server package (the mock, the fake, the proxy): their `src/`, in which
 * modules import each other as `./x.ts` (tsx runs them as they are), compiled into `dist/` by the build, after the
 * packages built from the document whose declarations they import (through node_modules, as a consumer would).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compilePackage } from '../../generators/lib/compile.ts';
import type { GeneratedFile } from '../../generators/lib/files.ts';
import { moduleSources } from '../../generators/lib/package.ts';
import { ROOT } from './paths.ts';

export const NODE_PACKAGES = ['mock', 'fake', 'proxy'] as const;

/** The packages that ship the published document (`openapi.json` beside their `dist/`): the mock and the proxy read it. */
export const WITH_DOCUMENT: readonly string[] = ['mock', 'proxy'];

/**
 * What the build writes into one of them: its compiled `dist/` (`.js` and `.d.ts`, type-checked first) and, for the
 * mock and the proxy, the published document they ship.
 */
export function buildNodePackage(name: string): GeneratedFile[] {
  const dist = compilePackage(moduleSources(`packages/${name}/src`), {
    types: ['node'],
    nodeOnly: true,
    tsImports: true,
    rootDir: `packages/${name}/src`,
  });
  if (!WITH_DOCUMENT.includes(name)) return dist;
  const document = readFileSync(join(ROOT, 'generated', 'openapi', 'openapi.json'), 'utf8');
  return [...dist, { path: `packages/${name}/openapi.json`, contents: document }];
}
