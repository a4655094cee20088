/**
 * A team that only narrows pays for the guard it imports: one of the package's guards alone bundles (esbuild,
 * tree-shaken, minified) under `ONE_GUARD_LIMIT`, without the exact validator that a Standard Schema's issues need;
 * the same guard from `@service-api/validators/standard` carries it. A size does not depend on the machine's load, so
 * this is a test; the bench reports the figures (`npm run bench -- --only bundle`).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BundleSize, bundleSize, ONE_GUARD_LIMIT } from '../../../scripts/lib/bundle-size.ts';
import { ROOT } from '../../../scripts/lib/paths.ts';

const dist = join(ROOT, 'packages', 'validators', 'dist');
const bundles = new Map<string, Promise<BundleSize>>();
/** The bundle of one guard imported from one module, made once per run (each costs esbuild about a second of CPU). */
const sizeOf = (guard: string, module: string): Promise<BundleSize> => {
  const contents = `export { ${guard} } from ${JSON.stringify(join(dist, module))};`;
  if (!bundles.has(contents)) bundles.set(contents, bundleSize(contents));
  return bundles.get(contents)!;
};

describe.each(['isJob', 'isMergeRequest'])('%s alone', (guard) => {
  it(`bundles to at most ${ONE_GUARD_LIMIT / 1000} kB minified`, async () => {
    const { minified } = await sizeOf(guard, 'index.js');
    expect(minified).toBeLessThanOrEqual(ONE_GUARD_LIMIT);
  });

  it('leaves out what only its Standard Schema needs', async () => {
    const [alone, standard] = await Promise.all([sizeOf(guard, 'index.js'), sizeOf(guard, 'standard-schema.js')]);
    expect(standard.minified).toBeGreaterThan(alone.minified * 1.3);
  });
});
