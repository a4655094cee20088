/**
 * Content-hashed stamps in `.tmp/`: a check whose result depends only on some files records the hash of those files
 * when it passes, and a later run on this machine with the same hash may skip it. A fresh clone (CI) has no stamps.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { PACKAGES } from './packages.ts';
import { ROOT, WORK_DIR } from './paths.ts';

export interface Stamp {
  /** The file in `.tmp/`. */
  file: string;
  /** Files and folders (relative to the repository) the check reads. */
  inputs: string[];
}

/** The build script, which holds the pass criteria and the linters' and generators' arguments, and what it runs them with. */
const BUILD_SCRIPT = [
  'scripts/build.ts',
  'scripts/lib/bundle.ts',
  'scripts/lib/portable-shapes.ts',
  'scripts/lib/nullable-marks.ts',
  'packages/server/src/openapi-model.ts',
  'scripts/lib/run.ts',
  'scripts/lib/paths.ts',
  'scripts/lib/stamps.ts',
];

/**
 * Everything the lint's result depends on: the description, both configurations, the house rules, the layout rules,
 * the build script (the linters' arguments and what counts as clean) and the linters' locked versions.
 */
export const LINT: Stamp = {
  file: 'lint-clean.sha256',
  inputs: [
    'openapi',
    'redocly.yaml',
    '.spectral.yaml',
    'scripts/spectral',
    'scripts/lib/layout.ts',
    ...BUILD_SCRIPT,
    'package-lock.json',
  ],
};

/**
 * Everything that decides whether generated/ and the packages' dist/ are what the build makes of the document: the
 * description, the generators, the packages' hand-written sources, the build script, the locked versions of the tools they call (Redocly,
 * openapi-typescript, Ajv, TypeScript) and generated/ itself.
 */
export const GENERATED: Stamp = {
  file: 'generated-current.sha256',
  inputs: [
    'openapi',
    'redocly.yaml',
    'generators',
    ...BUILD_SCRIPT,
    'scripts/lib/output.ts',
    'package-lock.json',
    'generated',
    // The packages built from the document: their hand-written src/ and the dist/ the build wrote (a dist/ removed or
    // changed since is built again).
    ...PACKAGES.flatMap(({ folder }) => [`${folder}/src`, `${folder}/dist`]),
    'scripts/lib/node-packages.ts',
    // The published document the mock and the proxy ship, copied beside their dist/.
    'packages/mock/openapi.json',
    'packages/proxy/openapi.json',
  ],
};

async function files(path: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, path), { withFileTypes: true, recursive: true }).catch(() => undefined);
  if (!entries) return [path];
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

/**
 * A hash of every input of the check, of the Node version running it and of `extra` (what else the result depends on,
 * such as a browser's version): the same hash means the same result.
 */
export async function inputsHash(stamp: Stamp, extra = ''): Promise<string> {
  const hash = createHash('sha256').update(`${process.version}\0${extra}\0`);
  for (const path of (await Promise.all(stamp.inputs.map(files))).flat()) {
    hash.update(`${path}\0`);
    hash.update(await readFile(join(ROOT, path)).catch(() => Buffer.from('missing')));
  }
  return hash.digest('hex');
}

/** Whether the check passed on inputs with this hash in an earlier run on this machine. */
export async function stamped(stamp: Stamp, hash: string): Promise<boolean> {
  return (await readFile(join(WORK_DIR, stamp.file), 'utf8').catch(() => '')).trim() === hash;
}

export async function recordStamp(stamp: Stamp, hash: string): Promise<void> {
  await mkdir(WORK_DIR, { recursive: true });
  await writeFile(join(WORK_DIR, stamp.file), `${hash}\n`);
}
