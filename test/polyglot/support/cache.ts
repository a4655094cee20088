/**
 * The polyglot tier's cache of what is slow to make and depends only on its inputs: the installed tools, each
 * generator's generated and compiled output, each JVM driver's classes. It is one of the user's caches outside the
 * clone (scripts/lib/user-cache.ts, which says how entries are keyed, locked and trusted), so a fresh clone on the same
 * machine generates and compiles nothing that an earlier clone already made from the same inputs:
 * `$SERVICE_API_POLYGLOT_CACHE`, else `$XDG_CACHE_HOME/service-api/polyglot`, else `~/.cache/service-api/polyglot`.
 */
import { execFileSync } from 'node:child_process';
import * as userCache from '../../../scripts/lib/user-cache.ts';

export { cacheKey, discardEntry, type KeyInputs } from '../../../scripts/lib/user-cache.ts';

/** The cache's folder, from the environment given. */
export const polyglotCacheRoot = (env: NodeJS.ProcessEnv = process.env, home?: string) =>
  userCache.userCacheRoot('polyglot', 'SERVICE_API_POLYGLOT_CACHE', env, home);

export const POLYGLOT_CACHE = polyglotCacheRoot();

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

/** Where the entry `<name>-<key>` is. */
export const entryFolder = (name: string, key: string) => userCache.entryFolder(name, key, POLYGLOT_CACHE);

/**
 * The folder of the entry `<name>-<key>`, made by `make` (into the empty folder it is given) unless a run already made
 * it; when another process is making it, waits for that one.
 */
export const cachedEntry = (name: string, key: string, make: (folder: string) => Promise<void>) =>
  userCache.cachedEntry(name, key, make, POLYGLOT_CACHE);
