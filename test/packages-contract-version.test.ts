/**
 * The contract version each built package states is info.version, written by the build (no package.json keeps it).
 * It imports every package's dist/, the mock, the fake and the proxy with their dependencies: seconds of module
 * loading, so it is not a unit test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ROOT } from '../scripts/lib/paths.ts';

const contract: string = YAML.parse(readFileSync(join(ROOT, 'openapi/openapi.yaml'), 'utf8')).info.version;

describe('contract version of the built packages', () => {
  it('every built package states info.version as its contract version (written by the build, not by hand)', async () => {
    const exported = await Promise.all([
      import('@service-api/validators'),
      import('@service-api/client'),
      import('@service-api/server'),
      import('@service-api/mock'),
      import('@service-api/fake'),
      import('@service-api/proxy'),
      import('@service-api/openapi'),
    ]);
    expect(exported.map((module) => module.contractVersion)).toEqual(exported.map(() => contract));
    expect(readFileSync(join(ROOT, 'packages/types/dist/contract.d.ts'), 'utf8')).toContain(
      `export type ContractVersion = ${JSON.stringify(contract)};`,
    );
  });
});
