/**
 * The third-party tier's cache (support/cache.ts): an entry is keyed by every input that decides what a tool writes and
 * what tsc says of it (the documents, the tier's files, the Nodes) and by nothing that names this clone.
 */
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.ts';
import { buildKey, THIRDPARTY_CACHE, tierFiles } from './support/cache.ts';
import { TIER } from './support/tools.ts';

describe('the third-party cache keys', () => {
  it("reads every file of the tier but its output, install and prose, by the file's place in the tier", () => {
    const files = tierFiles();
    for (const name of [
      'package-lock.json',
      'orval.config.ts',
      'openapi-ts.config.ts',
      'support/tools.ts',
      'support/cache.ts',
      'probes/hey-api/enums.ts',
      'orval.test.ts',
    ])
      expect(files[name], name).toBe(`${TIER}/${name}`);
    expect(Object.keys(files).filter((name) => /^(out|node_modules)\//.test(name))).toEqual([]);
    expect(files['README.md']).toBeUndefined();
    expect(Object.keys(files).filter((name) => name.includes(ROOT))).toEqual([]);
  });

  it('gives each tool its own key, the same on every call, and keeps the cache outside the clone', () => {
    const tools = ['hey-api', 'orval', 'openapi-zod-client', 'swagger-typescript-api'];
    const keys = tools.map(buildKey);
    expect(keys.every((key) => /^[0-9a-f]{64}$/.test(key ?? ''))).toBe(true);
    expect(new Set(keys).size).toBe(tools.length);
    expect(tools.map(buildKey)).toEqual(keys);
    expect(THIRDPARTY_CACHE.startsWith(ROOT)).toBe(false);
  });
});
