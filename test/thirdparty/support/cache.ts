/**
 * What a generator wrote and what strict tsc said of it, kept in a cache outside the clone (scripts/lib/user-cache.ts):
 * `$SERVICE_API_THIRDPARTY_CACHE`, else `$XDG_CACHE_HOME/service-api/thirdparty`, else
 * `~/.cache/service-api/thirdparty`. Both depend only on the published documents, the tier's files (its lock file,
 * configurations, probes and support code), the Nodes that run the tools and tsc: an entry is keyed by all of them, so
 * a fresh clone on the same machine generates and compiles nothing an earlier clone made from the same inputs, and any
 * change makes a new entry. The runtime checks (the output loaded, its schemas and SDK called) run every time. A run
 * that failed (the tool's exit, tsc that did not run to its end) is never kept: the next run tries again.
 */
import { existsSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  cachedEntry,
  cacheKey,
  copyTree,
  entryFolder,
  entryMade,
  userCacheRoot,
} from '../../../scripts/lib/user-cache.ts';
import { NODES_FOLDER } from '../../../scripts/node-matrix.ts';
import {
  type Compiled,
  compile,
  DOCUMENT_30,
  DOCUMENT_31,
  OUT,
  outputFolder,
  type Run,
  TIER,
  tscErrors,
} from './tools.ts';

export const THIRDPARTY_CACHE = userCacheRoot('thirdparty', 'SERVICE_API_THIRDPARTY_CACHE');

/** Folders of the tier that hold no input: what the tools write, and the install its lock file decides. */
const NOT_INPUTS = new Set(['out', 'node_modules']);

/**
 * Every file of the tier under its path in the tier (`probes/orval/enums.ts`), but its output, its install and its
 * prose (`README.md`), which decide nothing a tool writes.
 */
export function tierFiles(folder = TIER, under = ''): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder, { withFileTypes: true })
      .filter((entry) => !(under === '' && NOT_INPUTS.has(entry.name)))
      .flatMap((entry) => {
        const path = under ? `${under}/${entry.name}` : entry.name;
        if (entry.isDirectory()) return Object.entries(tierFiles(join(folder, entry.name), path));
        return entry.isFile() && !entry.name.endsWith('.md') ? [[path, join(folder, entry.name)]] : [];
      }),
  );
}

/** The key of a tool's entry, or undefined while a document is absent (the tool's run says so, and is not kept). */
export function buildKey(tool: string): string | undefined {
  if (!existsSync(DOCUMENT_31) || !existsSync(DOCUMENT_30)) return undefined;
  return cacheKey({
    kind: 'thirdparty-build',
    files: {
      ...tierFiles(),
      'generated/openapi/openapi.json': DOCUMENT_31,
      'generated/openapi/openapi.3.0.json': DOCUMENT_30,
      'test/nodes/package-lock.json': join(NODES_FOLDER, 'package-lock.json'),
    },
    values: { tool, node: process.version },
  });
}

export interface Built {
  generated: Run;
  /** Undefined when the tool failed, so that nothing was compiled. */
  compiled?: Compiled;
}

const RESULT = 'built.json';
const kept = (built: Built) => built.generated.code === 0 && built.compiled && !built.compiled.errors.has('(tsc)');

async function keep(tool: string, built: Built, entry: string): Promise<void> {
  await copyTree(join(OUT, tool), join(entry, 'out'));
  const result = { generated: built.generated, tsc: built.compiled!.run };
  await writeFile(join(entry, RESULT), JSON.stringify(result));
}

async function restore(tool: string, entry: string): Promise<Built> {
  await copyTree(join(entry, 'out'), await outputFolder(tool));
  const { generated, tsc } = JSON.parse(await readFile(join(entry, RESULT), 'utf8')) as { generated: Run; tsc: Run };
  return { generated, compiled: { run: tsc, errors: tscErrors(tsc.output) } };
}

/**
 * The tool's run into out/<tool> and strict tsc over it: from the cache when an earlier run made them from the same
 * inputs, else made here (and kept when they succeeded).
 */
export async function generatedAndCompiled(tool: string, generate: (out: string) => Promise<Run>): Promise<Built> {
  const key = buildKey(tool);
  const entry = key && entryFolder(`build-${tool}`, key, THIRDPARTY_CACHE);
  if (entry && entryMade(entry)) return restore(tool, entry);
  const generated = await generate(await outputFolder(tool));
  const built: Built = { generated, ...(generated.code === 0 && { compiled: await compile(tool) }) };
  if (key && kept(built)) await cachedEntry(`build-${tool}`, key, (into) => keep(tool, built, into), THIRDPARTY_CACHE);
  return built;
}
