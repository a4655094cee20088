/**
 * Installs a folder's own package-lock.json once (`npm ci --prefix <folder> --ignore-scripts`: exact versions, no
 * install scripts), for the test folders whose tools the root npm ci does not install: test/thirdparty (its tier's
 * global setup), test/registry (the packages tier's Verdaccio, its global setup) and test/nodes (the Node binaries of
 * scripts/node-matrix.ts). A stamp of the lock file in the folder's node_modules/ makes a later local run skip the
 * install; a fresh clone (CI) has none and installs.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ROOT } from './paths.ts';
import { run } from './run.ts';

async function lockHash(folder: string): Promise<string> {
  const lock = await readFile(join(folder, 'package-lock.json'));
  return createHash('sha256').update(`${process.platform}-${process.arch}\0`).update(lock).digest('hex');
}

/** Installs the folder's lock file unless its stamp says it is installed; returns the seconds the install took (0: none). */
export async function installLocked(folder: string): Promise<number> {
  const stamp = join(folder, 'node_modules', '.installed-lock.sha256');
  const hash = await lockHash(folder);
  if ((await readFile(stamp, 'utf8').catch(() => '')).trim() === hash) return 0;
  const started = performance.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const installed = await run(npm, ['ci', '--prefix', folder, '--ignore-scripts', '--no-audit', '--no-fund']);
  if (installed.code !== 0)
    throw new Error(`npm ci --prefix ${relative(ROOT, folder)} failed (exit ${installed.code}):\n${installed.output}`);
  await writeFile(stamp, `${hash}\n`);
  return (performance.now() - started) / 1000;
}
