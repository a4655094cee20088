import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import knownExtensions from '../../scripts/spectral/known-extensions.js';

const allowed = ['x-tiers', 'x-seed'];
const cases: [string, object, string[]][] = [
  [
    'accepts documented extensions',
    { paths: { '/a': { get: { 'x-tiers': ['premium'], 'x-seed': 'Part 1 §4.1' } } } },
    [],
  ],
  ['rejects an undocumented extension', { info: { 'x-logo': {} } }, ['info.x-logo']],
  [
    'ignores a property named like an extension',
    { components: { schemas: { A: { properties: { 'x-page': { type: 'string' } } } } } },
    [],
  ],
  [
    'ignores a response header named like an extension',
    { paths: { '/a': { get: { responses: { '200': { headers: { 'x-next-page': {} } } } } } } },
    [],
  ],
  [
    'rejects an extension inside a property schema',
    { components: { schemas: { A: { properties: { id: { 'x-nope': 1 } } } } } },
    ['components.schemas.A.properties.id.x-nope'],
  ],
];

describe('known-extensions', () => {
  it.each(cases)('%s', (_title, given, want) => {
    expect(knownExtensions(given, { allowed }).map((p: { path: string[] }) => p.path.join('.'))).toEqual(want);
  });

  it('allows exactly the extensions documented in openapi/extensions.md', () => {
    const ruleset = YAML.parse(readFileSync('.spectral.yaml', 'utf8'));
    const configured: string[] = ruleset.rules['house-known-extensions'].then.functionOptions.allowed;
    const documented = [...readFileSync('openapi/extensions.md', 'utf8').matchAll(/^\| `(x-[A-Za-z-]+)` \|/gm)].map(
      (m) => m[1],
    );
    expect([...configured].sort()).toEqual([...documented].sort());
  });
});
