/**
 * The test folders' locked installs (scripts/lib/locked-install.ts): npm makes the tree once per machine, in the cache
 * outside the clone; another clone's folder with the same manifests gets a copy of it; a changed lock file makes a new
 * one; two steps installing the same folder at once both find it whole.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installKey, installLocked } from '../scripts/lib/locked-install.ts';
import { WORK_DIR } from '../scripts/lib/paths.ts';
import { entryFolder } from '../scripts/lib/user-cache.ts';

const dir = join(WORK_DIR, 'locked-install-test');
const cache = join(dir, 'cache');
const MANIFEST = { name: 'tools', version: '1.0.0', private: true };
const LOCK = { name: 'tools', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': MANIFEST } };

/** A folder like test/nodes in a clone of its own, with the given lock file. */
function folder(clone: string, lock: object = LOCK): string {
  const at = join(dir, clone, 'tools');
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, 'package.json'), JSON.stringify(MANIFEST));
  writeFileSync(join(at, 'package-lock.json'), JSON.stringify(lock));
  return at;
}

/** What a folder's node_modules holds, its stamp aside. */
const installedFiles = (at: string) =>
  readdirSync(join(at, 'node_modules'))
    .filter((name) => name !== '.installed-lock.sha256')
    .sort();

beforeAll(() => rmSync(dir, { recursive: true, force: true }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('installLocked', () => {
  it('runs npm once into the cache, then skips the folder it installed', async () => {
    const first = folder('clone-a');
    expect(await installLocked(first, cache)).toBeGreaterThan(0);
    const entry = entryFolder('npm-tools', installKey(first), cache);
    expect(existsSync(join(entry, '.complete'))).toBe(true);
    expect(readFileSync(join(first, 'node_modules', '.installed-lock.sha256'), 'utf8').trim()).toBe(installKey(first));
    expect(await installLocked(first, cache)).toBe(0);
  });

  it("copies the cached tree into another clone's folder instead of running npm again", async () => {
    const entry = entryFolder('npm-tools', installKey(folder('clone-a')), cache);
    // npm would never write this file: finding it in the new clone proves the tree came from the cache.
    writeFileSync(join(entry, 'node_modules', 'from-the-cache'), '');
    const second = folder('clone-b');
    await installLocked(second, cache);
    expect(installedFiles(second)).toContain('from-the-cache');
  });

  it('makes a new entry when the lock file changes', async () => {
    const changed = folder('clone-c', {
      ...LOCK,
      version: '1.0.1',
      packages: { '': { ...MANIFEST, version: '1.0.1' } },
    });
    expect(installKey(changed)).not.toBe(installKey(folder('clone-a')));
    await installLocked(changed, cache);
    expect(installedFiles(changed)).not.toContain('from-the-cache');
    expect(existsSync(join(entryFolder('npm-tools', installKey(changed), cache), '.complete'))).toBe(true);
  });

  it('leaves one whole tree when two steps install the same folder at once', async () => {
    const shared = folder('clone-d');
    await Promise.all([installLocked(shared, cache), installLocked(shared, cache)]);
    expect(installedFiles(shared)).toContain('from-the-cache');
    expect(await installLocked(shared, cache)).toBe(0);
  });
});
