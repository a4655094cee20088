/**
 * Installs a folder's own package-lock.json (`npm ci --ignore-scripts`: exact versions, no install scripts), for the
 * test folders whose tools the root npm ci does not install: test/thirdparty (its tier's global setup), test/registry
 * (the packages tier's Verdaccio, its global setup) and test/nodes (the Node binaries of scripts/node-matrix.ts and of
 * the third-party tier). The installed tree depends only on the lock file, the package.json, the platform and Node, so
 * it is made once per machine in a cache outside the clone (scripts/lib/user-cache.ts: `$SERVICE_API_INSTALL_CACHE`,
 * else `$XDG_CACHE_HOME/service-api/installs`, else `~/.cache/service-api/installs`) and copied into the folder's
 * node_modules, as CI caches ~/.npm; a stamp of the key in node_modules makes a later run in the same clone skip even
 * the copy. Two steps that need the same folder at once (the node matrix and the third-party tier both run test/nodes)
 * take turns: the second finds it installed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { ROOT, WORK_DIR } from './paths.ts';
import { run } from './run.ts';
import { cachedEntry, cacheKey, copyTree, userCacheRoot, whileLocked } from './user-cache.ts';

export const INSTALL_CACHE_ROOT = userCacheRoot('installs', 'SERVICE_API_INSTALL_CACHE');

const STAMP = '.installed-lock.sha256';
const MANIFESTS = ['package.json', 'package-lock.json'];

/** What decides the installed tree: the folder's manifests by content, the platform (in every key) and Node. */
export const installKey = (folder: string) =>
  cacheKey({
    kind: 'npm-ci',
    files: Object.fromEntries(MANIFESTS.map((name) => [name, join(folder, name)])),
    values: { node: process.version },
  });

async function succeeded(what: string, command: string, args: string[]): Promise<void> {
  const result = await run(command, args);
  if (result.code !== 0) throw new Error(`${what} failed (exit ${result.code}):\n${result.output}`);
}

/** `npm ci` of the folder's manifests into the cache entry `into`. */
async function installInto(folder: string, into: string): Promise<void> {
  for (const name of MANIFESTS) await copyFile(join(folder, name), join(into, name));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  await succeeded(`npm ci --prefix ${relative(ROOT, folder)}`, npm, [
    'ci',
    '--prefix',
    into,
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
  ]);
  // npm makes no node_modules for a lock file without dependencies; the copy below needs one.
  await mkdir(join(into, 'node_modules'), { recursive: true });
}

/**
 * Installs the folder's lock file unless its stamp says it is installed; returns the seconds it took (0: none). The
 * cache at `cacheRoot` is made from npm once, then copied.
 */
export async function installLocked(folder: string, cacheRoot = INSTALL_CACHE_ROOT): Promise<number> {
  const modules = join(folder, 'node_modules');
  const key = installKey(folder);
  const installed = () => existsSync(join(modules, STAMP)) && readFileSync(join(modules, STAMP), 'utf8').trim() === key;
  if (installed()) return 0;
  const started = performance.now();
  const entry = await cachedEntry(`npm-${basename(folder)}`, key, (into) => installInto(folder, into), cacheRoot);
  await whileLocked(join(WORK_DIR, 'installs', `${basename(folder)}.lock`), installed, async () => {
    await rm(modules, { recursive: true, force: true });
    await copyTree(join(entry, 'node_modules'), modules);
    await writeFile(join(modules, STAMP), `${key}\n`);
  });
  return (performance.now() - started) / 1000;
}
