/**
 * Each published package's `engines.node` is what its production dependencies need (dependencies, optional and peer
 * dependencies, all the way down, as package-lock.json resolves them): every Node it claims satisfies every
 * dependency's own `engines.node`, so npm prints no EBADENGINE warning on a Node we claim; and each Node that
 * scripts/node-matrix.ts runs the package tests on is claimed exactly when all the dependencies accept it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { pinnedNodes } from '../scripts/node-matrix.ts';
import { PACKAGES } from '../scripts/lib/packages.ts';
import { ROOT } from '../scripts/lib/paths.ts';

interface LockEntry {
  version?: string;
  link?: boolean;
  resolved?: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const LOCK = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')).packages as Record<string, LockEntry>;

/** Where Node's resolution finds `name` from the lock entry at `from`: its own node_modules, then each parent's. */
function resolve(from: string, name: string): string | undefined {
  for (let dir = from; ; ) {
    const key = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    const entry = LOCK[key];
    if (entry) return entry.link ? entry.resolved : key;
    if (!dir) return undefined;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent < 0 ? '' : dir.slice(0, parent);
  }
}

/** The lock entries of a package and everything it needs at run time. */
function productionTree(folder: string): string[] {
  const seen = new Set<string>();
  const stack = [folder];
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (seen.has(key)) continue;
    seen.add(key);
    const entry = LOCK[key]!;
    const names = Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies });
    for (const name of names) {
      const found = resolve(key, name);
      if (found && LOCK[found]) stack.push(found);
    }
  }
  seen.delete(folder);
  return [...seen];
}

/** The dependencies with an `engines.node`, as `name@version` and their range. */
function dependencyEngines(folder: string): { dependency: string; range: string }[] {
  return productionTree(folder)
    .filter((key) => LOCK[key]!.engines?.node)
    .map((key) => ({
      dependency: `${key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${LOCK[key]!.version}`,
      range: LOCK[key]!.engines!.node!,
    }));
}

describe.each(PACKAGES)("$name's engines", ({ folder }) => {
  const ours = (JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')).engines?.node ?? '') as string;
  const needs = dependencyEngines(folder);

  it('states a Node range', () => {
    expect(semver.validRange(ours), ours).toBeTruthy();
  });

  it('claims no Node a dependency excludes', () => {
    const excluding = needs
      .filter(({ range }) => !semver.subset(ours, range))
      .map(({ dependency, range }) => `${dependency} needs ${range}`);
    expect(excluding, `engines.node "${ours}"`).toEqual([]);
  });

  it.each(pinnedNodes())('claims Node $version exactly when every dependency accepts it', ({ version }) => {
    const accepted = needs.every(({ range }) => semver.satisfies(version, range));
    expect(semver.satisfies(version, ours), `engines.node "${ours}"`).toBe(accepted);
  });
});
