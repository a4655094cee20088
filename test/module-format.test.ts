/**
 * Every package is ESM only, and says so truthfully: `exports` offers no condition `require()` matches, so it fails on
 * every Node version `engines` allows, and each README says ESM only, the oldest Node and how CommonJS loads it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.ts';

interface Manifest {
  name: string;
  type?: string;
  engines?: { node?: string };
  exports: Record<string, unknown>;
}

/** Each package folder and what its README shows CommonJS code loading (`import type` for the types-only package). */
const PACKAGES: [string, RegExp][] = [
  ['packages/types', /`import type` reads them from ES modules and from CommonJS/],
  ['packages/validators', /await import\('@service-api\/validators'\)/],
  ['packages/client', /await import\('@service-api\/client'\)/],
  ['packages/server', /await import\('@service-api\/server'\)/],
  ['packages/mock', /await import\('@service-api\/mock'\)/],
  ['packages/fake', /await import\('@service-api\/fake'\)/],
  ['packages/proxy', /await import\('@service-api\/proxy'\)/],
  ['packages/openapi', /await\s+import\('@service-api\/openapi'\)/],
  ['packages/mcp', /await import\('@service-api\/mcp'\)/],
];

describe.each(PACKAGES)('%s is ESM only', (folder, loading) => {
  const manifest = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as Manifest;
  const readme = readFileSync(join(ROOT, folder, 'README.md'), 'utf8');

  it('exports only the import and types conditions', () => {
    expect(manifest.type).toBe('module');
    expect(Object.keys(manifest.exports['.'] as object).sort()).toEqual(['import', 'types']);
  });

  it('cannot be required: Node refuses it before reading any file', () => {
    // A package may require itself by name, through its own exports: what a consumer's require() meets.
    const require = createRequire(join(ROOT, folder, 'package.json'));
    expect(() => require(manifest.name)).toThrow(expect.objectContaining({ code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' }));
  });

  it('its README says ESM only, the oldest Node engines allows and how CommonJS loads it', () => {
    const oldest = semver.minVersion(manifest.engines?.node ?? '')?.major;
    expect(oldest, 'engines.node names a range').toBeDefined();
    expect(readme).toContain('ESM only');
    expect(readme).toMatch(new RegExp(`Node (≥ ${oldest}\\b|${oldest} or later)`));
    expect(readme).toMatch(loading);
    expect(readme).not.toMatch(/require\(\)[^.]* works/);
  });
});
