/**
 * Caches of what is slow to make and depends only on its inputs, kept in the user's cache folder, outside the clone (as
 * ~/.npm, ~/.m2 and Go's build cache are), so that a fresh clone on the same machine makes nothing an earlier clone
 * already made from the same inputs: the polyglot tier's tools and builds (test/polyglot/support/cache.ts), the
 * third-party tier's builds (test/thirdparty/support/cache.ts) and the test folders' locked installs
 * (scripts/lib/locked-install.ts). Each entry is a folder named for the sha256 of everything
 * that decides its content (`cacheKey`), so a changed input makes a new entry and never reuses a stale one. Entries are
 * made in place under a lock (a folder made atomically, naming its owner's pid), because venvs, generated modules and
 * their compiled classes name their own absolute paths; an entry counts only once its `.complete` marker is written,
 * so an interrupted run leaves nothing another run trusts. Removing the folder clears it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, watch } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { once } from 'node:events';
import { run } from './run.ts';

/** The folder of the cache `name`: `$<variable>`, else `$XDG_CACHE_HOME/service-api/<name>`, else `~/.cache/…`. */
export function userCacheRoot(
  name: string,
  variable: string,
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
): string {
  if (env[variable]) return env[variable];
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'service-api', name);
}

/** What decides an entry's content: files (by content, under a name that is not a path of this clone) and values. */
export interface KeyInputs {
  /** What the entry is (`tools`, `build`, `driver`): entries of different kinds never share a key. */
  kind: string;
  /** Name → file whose bytes the output depends on. */
  files: Record<string, string>;
  /** Name → value (a command line, a pinned version, a tool's `--version`). */
  values: Record<string, string>;
}

/** sha256 of the inputs, independent of where the clone is and of the order the inputs are listed in. */
export function cacheKey(inputs: KeyInputs): string {
  const hash = createHash('sha256').update(`${inputs.kind}\0${process.platform}-${process.arch}\0`);
  for (const name of Object.keys(inputs.files).sort())
    hash.update(`file ${name}\0`).update(readFileSync(inputs.files[name]!)).update('\0');
  for (const name of Object.keys(inputs.values).sort()) hash.update(`value ${name}\0${inputs.values[name]}\0`);
  return hash.digest('hex');
}

const COMPLETE = '.complete';

/** Where the entry `<name>-<key>` of the cache at `root` is. */
export const entryFolder = (name: string, key: string, root: string) => join(root, `${name}-${key.slice(0, 32)}`);

/** Whether the entry in `folder` was made whole (its `.complete` marker written). */
export const entryMade = (folder: string) => existsSync(join(folder, COMPLETE));

/** Makes the entry count as not made, so that the next `cachedEntry` makes it again (what it names has gone). */
export const discardEntry = (folder: string) => rm(join(folder, COMPLETE), { force: true });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the lock, or returns false while a live process holds it (a dead holder's lock is taken over). */
async function tryLock(lock: string): Promise<boolean> {
  try {
    await mkdir(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => 'NaN'));
    if (Number.isNaN(owner) || alive(owner)) return false;
    await rm(lock, { recursive: true, force: true });
    return tryLock(lock);
  }
  await writeFile(join(lock, 'pid'), String(process.pid));
  return true;
}

/**
 * Returns when something in the lock's folder changes (a lock released, an entry completed), or after a few seconds,
 * so that a holder that died without releasing its lock is noticed (`tryLock` takes a dead holder's lock over).
 */
async function changeOrPause(folder: string): Promise<void> {
  const watcher = watch(folder);
  try {
    await once(watcher, 'change', { signal: AbortSignal.timeout(5000) });
  } catch {
    // The pause ended with no change: look at the lock again.
  } finally {
    watcher.close();
  }
}

/**
 * Runs `work` holding the lock `lock` (a folder beside what it guards) once `done()` is false, and returns as soon as
 * `done()` is true: another process may have done the work while this one waited for the lock.
 */
export async function whileLocked(lock: string, done: () => boolean, work: () => Promise<void>): Promise<void> {
  await mkdir(dirname(lock), { recursive: true });
  while (!done()) {
    if (!(await tryLock(lock))) {
      await changeOrPause(dirname(lock));
      continue;
    }
    try {
      if (!done()) await work();
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}

/**
 * The folder of the entry `<name>-<key>` of the cache at `root`, made by `make` (into the empty folder it is given)
 * unless a run already made it; when another process is making it, waits for that one.
 */
export async function cachedEntry(
  name: string,
  key: string,
  make: (folder: string) => Promise<void>,
  root: string,
): Promise<string> {
  const folder = entryFolder(name, key, root);
  await whileLocked(
    `${folder}.lock`,
    () => entryMade(folder),
    async () => {
      await rm(folder, { recursive: true, force: true });
      await mkdir(folder, { recursive: true });
      await make(folder);
      await writeFile(join(folder, COMPLETE), `${key}\n`);
    },
  );
  return folder;
}

/**
 * Copies the folder `from` into `to` (made if absent), as `cp -a` does: links stay links (a package's .bin, a tool's
 * relative links) and modes stay, at a fraction of a JavaScript copy's cost.
 */
export async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  const copied = await run('cp', ['-a', `${from}/.`, to]);
  if (copied.code !== 0) throw new Error(`copying ${from} to ${to} failed:\n${copied.output}`);
}
