/**
 * Each generator's cache entry (support/build.ts, support/cache.ts) is keyed by every input that decides its output,
 * and by nothing that names this clone: the rendition it reads, its command and options, its pins, the tier's build
 * code and the toolchains' versions.
 */
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.ts';
import { buildInputs } from './support/build.ts';
import { cacheKey, toolVersions } from './support/cache.ts';
import { GENERATORS, PUBLISHED } from './support/generators.ts';
import { TIER, TOOLS, TOOLS_KEY } from './support/tools.ts';

describe('the polyglot cache keys', () => {
  it.each(GENERATORS.map((generator) => [generator.name, generator] as const))(
    '%s: keyed by its rendition, command, pins, build code and toolchains',
    (_name, generator) => {
      const inputs = buildInputs(generator);
      expect(inputs.files.rendition).toBe(`${ROOT}/${PUBLISHED[generator.rendition]}`);
      for (const file of ['support/build.ts', 'support/generators.ts', 'support/tools.ts', 'support/cache.ts'])
        expect(inputs.files[file]).toBe(`${TIER}/${file}`);
      const pins = generator.language === 'python' ? 'requirements.txt' : 'pins.json';
      expect(inputs.files[pins]).toBe(`${TIER}/${pins}`);
      if (generator.name === 'ogen') expect(inputs.files['ogen.yml']).toBe(`${TIER}/ogen.yml`);
      expect(inputs.values).toMatchObject({ ...toolVersions(), generator: generator.name });
      expect(JSON.parse(inputs.values.command ?? 'null')).toEqual([generator.program.readme, ...generator.args]);
      for (const value of Object.values(inputs.values)) expect(value).not.toContain(ROOT);
    },
  );

  it('gives each generator its own key, the same on every call', () => {
    const keys = GENERATORS.map((generator) => cacheKey(buildInputs(generator)));
    expect(new Set(keys).size).toBe(GENERATORS.length);
    expect(GENERATORS.map((generator) => cacheKey(buildInputs(generator)))).toEqual(keys);
  });

  it("knows each toolchain's version, and keeps the tools outside the clone", () => {
    expect(toolVersions().java).toMatch(/version "?\d+/);
    expect(toolVersions().go).toMatch(/^go version go\d/);
    expect(toolVersions().python).toMatch(/^Python 3\./);
    expect(TOOLS).toContain(TOOLS_KEY.slice(0, 32));
    expect(TOOLS.startsWith(ROOT)).toBe(false);
  });
});
