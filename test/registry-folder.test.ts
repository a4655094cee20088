/**
 * Verdaccio, the packages tier's registry, stays out of the root install (README step 1 does not wait for it): it is
 * test/registry's own, pinned with its override, installed by that tier's global setup, and loaded from there alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.ts';
import config from '../vitest.config.ts';
import { loadRunServer } from './support/registry.ts';

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, unknown>;
}
const json = <T>(path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;
const lockPaths = (path: string) => Object.keys(json<{ packages: Record<string, unknown> }>(path).packages);

describe('the registry of the packages tier', () => {
  it('is not in the root package.json nor its lock file', () => {
    const root = json<Manifest>('package.json');
    expect(root.devDependencies).not.toHaveProperty('verdaccio');
    expect(root.overrides ?? {}).not.toHaveProperty('verdaccio-audit');
    expect(
      lockPaths('package-lock.json').filter((path) => /(^|\/)node_modules\/(@verdaccio\/|verdaccio)/.test(path)),
    ).toEqual([]);
  });

  it("is test/registry's own: Verdaccio pinned exactly, node-fetch overridden to the version the lock has", () => {
    const own = json<Manifest>('test/registry/package.json');
    expect(own.dependencies).toEqual({ verdaccio: '6.8.0' });
    expect(own.overrides).toEqual({ 'verdaccio-audit': { 'node-fetch': '2.7.0' } });
    const lock = json<{ packages: Record<string, { version?: string }> }>('test/registry/package-lock.json').packages;
    expect(lock['node_modules/verdaccio']?.version).toBe('6.8.0');
    expect(
      lock['node_modules/node-fetch']?.version ?? lock['node_modules/verdaccio-audit/node_modules/node-fetch']?.version,
    ).toBe('2.7.0');
  });

  it("is installed by the packages tier's global setup", () => {
    const projects = (config.test?.projects ?? []) as { test?: { name?: string; globalSetup?: string[] } }[];
    expect(projects.find((project) => project.test?.name === 'packages')?.test?.globalSetup).toEqual([
      'test/registry/install.ts',
    ]);
  });

  it('names the command that installs it when it is not installed', () => {
    // A folder inside the repository: a Verdaccio of the root node_modules (installed before it moved) is not used.
    expect(() => loadRunServer(join(ROOT, 'test', 'registry', 'absent'))).toThrow(
      'Verdaccio is not installed in test/registry/absent: run `npm ci --prefix test/registry/absent --ignore-scripts`',
    );
  });
});
