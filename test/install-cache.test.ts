/** The packages tier's install cache (test/support/install-cache.ts), on a stand-in install in temporary folders. */
import { mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedInstall, installCacheEnabled } from './support/install-cache.ts';
import { tempTree } from './support/temp-tree.ts';

const roots: string[] = [];
const tempRoot = () => {
  const root = tempTree('install-cache', {});
  roots.push(root);
  return root;
};
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

const KEY_A = 'a'.repeat(32);
const KEY_B = 'b'.repeat(32);

/** A stand-in for npm install: a package, a bin link and the two manifests; counts its calls. */
function fakeInstall(project: string, version: string) {
  const calls = { count: 0 };
  const install = async () => {
    calls.count += 1;
    await mkdir(join(project, 'node_modules', 'pkg'), { recursive: true });
    await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
    await writeFile(join(project, 'node_modules', 'pkg', 'index.js'), `export const version = '${version}';\n`);
    await symlink('../pkg/index.js', join(project, 'node_modules', '.bin', 'pkg'));
    await writeFile(join(project, 'package.json'), '{"name":"consumer"}\n');
    await writeFile(join(project, 'package-lock.json'), `{"version":"${version}"}\n`);
  };
  return { calls, install };
}

describe('install cache', () => {
  it('installs once, then reuses the install of the same key: its node_modules linked, its manifests copied', async () => {
    const root = tempRoot();
    const cache = join(root, 'cache');
    const first = join(root, 'run1', 'project');
    const second = join(root, 'run2', 'project');
    const a = fakeInstall(first, '1');
    expect(await cachedInstall(first, KEY_A, a.install, cache)).toBe('installed');
    const b = fakeInstall(second, '2');
    expect(await cachedInstall(second, KEY_A, b.install, cache)).toBe('cached');
    expect(b.calls.count).toBe(0);
    expect(await readFile(join(second, 'node_modules', 'pkg', 'index.js'), 'utf8')).toContain("'1'");
    expect(await readlink(join(second, 'node_modules'))).toBe(join(cache, `project-${KEY_A}`, 'node_modules'));
    expect(await readlink(join(second, 'node_modules', '.bin', 'pkg'))).toBe('../pkg/index.js');
    expect(await readFile(join(second, 'package-lock.json'), 'utf8')).toBe('{"version":"1"}\n');
  });

  it('installs again for another key and keeps only the newest entry of the project', async () => {
    const root = tempRoot();
    const cache = join(root, 'cache');
    const project = (run: string) => join(root, run, 'project');
    await cachedInstall(project('run1'), KEY_A, fakeInstall(project('run1'), '1').install, cache);
    await cachedInstall(
      join(root, 'run1', 'client-only'),
      KEY_A,
      fakeInstall(join(root, 'run1', 'client-only'), '1').install,
      cache,
    );
    const changed = fakeInstall(project('run2'), '2');
    expect(await cachedInstall(project('run2'), KEY_B, changed.install, cache)).toBe('installed');
    expect(changed.calls.count).toBe(1);
    expect((await readdir(cache)).sort()).toEqual([`client-only-${KEY_A}`, `project-${KEY_B}`]);
  });

  it.each([
    [{}, true],
    [{ CI: 'true' }, false],
    [{ CI: '1' }, false],
    [{ CI: 'false' }, true],
  ])('with %j in the environment, is used: %s', (env, used) => {
    expect(installCacheEnabled(env)).toBe(used);
  });
});
