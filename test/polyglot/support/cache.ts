/**
 * The polyglot tier's cache of what is slow to make and depends only on its inputs: the installed tools, each
 * generator's generated and compiled output, each JVM driver's classes. It lives in the user's cache folder, outside
 * the clone (as ~/.m2 and Go's build cache do), so a fresh clone on the same machine generates and compiles nothing
 * that an earlier clone already made from the same inputs: `$SERVICE_API_POLYGLOT_CACHE`, else
 * `$XDG_CACHE_HOME/service-api/polyglot`, else `~/.cache/service-api/polyglot`. Each entry is a folder named for the
 * sha256 of everything that decides its content (`cacheKey`), so a changed input makes a new entry and never reuses a
 * stale one. Entries are made in place under a lock (a folder made atomically, naming its owner's pid), because
 * venvs, generated modules and their compiled classes name their own absolute paths; an entry counts only once its
 * `.complete` marker is written, so an interrupted run leaves nothing another run trusts. Removing the folder clears it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, watch } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';

/** The cache's folder, from the environment given. */
export function polyglotCacheRoot(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  if (env.SERVICE_API_POLYGLOT_CACHE) return env.SERVICE_API_POLYGLOT_CACHE;
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'service-api', 'polyglot');
}

export const POLYGLOT_CACHE = polyglotCacheRoot();

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

function versionOf(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    return `${stdout ?? ''}${stderr ?? ''}`.trim() || `no ${command}`;
  }
}

let versions: Record<string, string> | undefined;
/** The versions of the toolchains the tier runs (java prints its version on stderr). */
export function toolVersions(): Record<string, string> {
  versions ??= {
    java: versionOf('sh', ['-c', 'java -version 2>&1']),
    go: versionOf('go', ['version']),
    python: versionOf('python3', ['--version']),
  };
  return versions;
}

const COMPLETE = '.complete';

/** Where the entry `<name>-<key>` is. */
export const entryFolder = (name: string, key: string, root = POLYGLOT_CACHE) =>
  join(root, `${name}-${key.slice(0, 32)}`);

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

/** Takes the entry's lock, or returns false while a live process holds it (a dead holder's lock is taken over). */
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
 * Returns when something in the cache folder changes (a lock released, an entry completed), or after a few seconds,
 * so that a holder that died without releasing its lock is noticed (`tryLock` takes a dead holder's lock over).
 */
async function changeOrPause(root: string): Promise<void> {
  const watcher = watch(root);
  try {
    await once(watcher, 'change', { signal: AbortSignal.timeout(5000) });
  } catch {
    // The pause ended with no change: look at the lock again.
  } finally {
    watcher.close();
  }
}

/**
 * The folder of the entry `<name>-<key>`, made by `make` (into the empty folder it is given) unless a run already made
 * it; when another process is making it, waits for that one.
 */
export async function cachedEntry(
  name: string,
  key: string,
  make: (folder: string) => Promise<void>,
  root = POLYGLOT_CACHE,
): Promise<string> {
  const folder = entryFolder(name, key, root);
  const lock = `${folder}.lock`;
  await mkdir(root, { recursive: true });
  while (!existsSync(join(folder, COMPLETE))) {
    if (!(await tryLock(lock))) {
      await changeOrPause(root);
      continue;
    }
    try {
      if (existsSync(join(folder, COMPLETE))) break;
      await rm(folder, { recursive: true, force: true });
      await mkdir(folder, { recursive: true });
      await make(folder);
      await writeFile(join(folder, COMPLETE), `${key}\n`);
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
  return folder;
}
