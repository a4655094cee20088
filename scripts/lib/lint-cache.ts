import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ROOT, WORK_DIR } from './paths.ts';

const STAMP = join(WORK_DIR, 'lint-clean.sha256');

/** Everything the linters read: the description, both configurations, the house rules and the linters' versions. */
const INPUTS = ['openapi', 'redocly.yaml', '.spectral.yaml', 'scripts/spectral', 'scripts/lib/layout.ts', 'package-lock.json'];

async function files(path: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, path), { withFileTypes: true, recursive: true }).catch(() => undefined);
  if (!entries) return [path];
  return entries.filter((e) => e.isFile()).map((e) => relative(ROOT, join(e.parentPath, e.name))).sort();
}

/** A hash of every input of the lint step: the same hash means the same lint result. */
export async function lintInputsHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const path of (await Promise.all(INPUTS.map(files))).flat()) {
    hash.update(`${path}\0`);
    hash.update(await readFile(join(ROOT, path)));
  }
  return hash.digest('hex');
}

/** Whether the inputs with this hash were linted clean by an earlier build on this machine. */
export async function lintedClean(hash: string): Promise<boolean> {
  return (await readFile(STAMP, 'utf8').catch(() => '')).trim() === hash;
}

export async function recordClean(hash: string): Promise<void> {
  await writeFile(STAMP, `${hash}\n`);
}
