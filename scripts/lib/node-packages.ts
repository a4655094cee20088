/**
 * The packages written by hand that run on the server package (the mock, the fake, the proxy) or on those (the MCP
 * server): their `src/`, in which modules import each other as `./x.ts` (tsx runs them as they are), compiled into
 * `dist/` by the build, after the packages built from the document whose declarations they import (through
 * node_modules, as a consumer would). The MCP server's generated sources (`generated/mcp/`) compile with its `src/`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { compilePackage } from '../../generators/lib/compile.ts';
import type { GeneratedFile } from '../../generators/lib/files.ts';
import { moduleSources } from '../../generators/lib/package.ts';
import { ROOT } from './paths.ts';

export const NODE_PACKAGES = ['mock', 'fake', 'proxy', 'mcp'] as const;

/** The packages that ship the published document (`openapi.json` beside their `dist/`): the mock and the proxy read it. */
export const WITH_DOCUMENT: readonly string[] = ['mock', 'proxy'];

/**
 * What the build writes into one of them: its compiled `dist/` (`.js` and `.d.ts`, type-checked first) and, for the
 * mock and the proxy, the published document they ship.
 */
export function buildNodePackage(name: string): GeneratedFile[] {
  const generated = existsSync(join(ROOT, 'generated', name)) ? generatedSources(name) : [];
  const dist = compilePackage([...moduleSources(`packages/${name}/src`), ...generated], {
    types: ['node'],
    nodeOnly: true,
    tsImports: true,
    rootDir: `packages/${name}/src`,
  });
  if (!WITH_DOCUMENT.includes(name)) return dist;
  const document = readFileSync(join(ROOT, 'generated', 'openapi', 'openapi.json'), 'utf8');
  return [...dist, { path: `packages/${name}/openapi.json`, contents: document }];
}

/** `generated/<name>/*.ts` as modules of `packages/<name>/src/` (a generated file may not take a hand-written one's name). */
function generatedSources(name: string): GeneratedFile[] {
  const own = new Set(moduleSources(`packages/${name}/src`).map((file) => basename(file.path)));
  return moduleSources(`generated/${name}`).map((file) => {
    const base = basename(file.path);
    if (own.has(base)) throw new Error(`generated/${name}/${base} would replace packages/${name}/src/${base}`);
    return { path: `packages/${name}/src/${base}`, contents: file.contents };
  });
}
