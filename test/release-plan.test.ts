/** What `npm run release` decides (the versions) and how it writes them (scripts/lib/release-plan.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import {
  bumpOfEntries,
  moveUnreleased,
  type PlanInput,
  planRelease,
  withInfoVersion,
  withInstallVersion,
  withManifestVersions,
} from '../scripts/lib/release-plan.ts';
import type { Difference } from '../scripts/lib/breaking.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import { bumped, type GateResult, nextPreRelease } from '../scripts/lib/releases.ts';

const verdict = (...rules: [Difference['severity'], string][]): GateResult => {
  const differences = rules.map(([severity, rule]) => ({ severity, rule, location: 'GET /jobs' }));
  return {
    ok: true,
    version: '0.6.1-dev.1',
    baseline: '0.6.0',
    differences,
    breakingKinds: [...new Set(differences.filter((d) => d.severity === 'breaking').map((d) => d.rule))],
    failures: [],
  };
};

/** openapi (the document), types, server on types, fake on server: as in PACKAGES, dependencies first. */
const packages = (
  unreleased: Partial<Record<'openapi' | 'types' | 'server' | 'fake', string>>,
): PlanInput['packages'] => [
  {
    name: 'openapi',
    version: '0.6.1-dev.1',
    unreleased: unreleased.openapi ?? '## Unreleased\n',
    dependsOn: ['types'],
  },
  { name: 'types', version: '0.7.0', unreleased: unreleased.types ?? '## Unreleased\n', dependsOn: [] },
  { name: 'server', version: '0.7.0', unreleased: unreleased.server ?? '## Unreleased\n', dependsOn: ['types'] },
  { name: 'fake', version: '0.7.0', unreleased: unreleased.fake ?? '## Unreleased\n', dependsOn: ['server'] },
];
const versions = (input: Partial<PlanInput> & Pick<PlanInput, 'gate'>) => {
  const plan = planRelease({ latest: '0.6.0', packages: packages({}), ...input });
  return {
    contract: plan.newContract ? plan.contract : undefined,
    ...Object.fromEntries(plan.packages.map((p) => [p.name, p.to])),
  };
};

describe('the versions of a release', () => {
  it.each([
    ['0.6.0', 'breaking', '0.7.0'],
    ['1.2.3', 'breaking', '2.0.0'],
    ['0.6.0', 'minor', '0.7.0'],
    ['0.6.0', 'patch', '0.6.1'],
  ] as const)('%s after a %s change is %s', (from, bump, to) => expect(bumped(from, bump)).toBe(to));

  it('main after a release is the next patch as a pre-release', () => {
    expect(nextPreRelease('0.6.0')).toBe('0.6.1-dev.1');
  });

  it.each([
    ['a **Breaking** entry', '## Unreleased\n### Changed\n- **Breaking**: x\n', 'breaking'],
    ['an Added heading', '## Unreleased\n### Added\n- x\n', 'minor'],
    ['fixes only', '## Unreleased\n### Fixed\n- x\n', 'patch'],
  ] as const)("a package's Unreleased entries with %s bump it: %s", (_name, section, bump) =>
    expect(bumpOfEntries(section)).toBe(bump),
  );

  it('the contract from the gate: breaking, an addition, another difference; every package built from it follows', () => {
    const all = { openapi: undefined, types: '0.7.1', server: '0.7.1', fake: '0.7.1' };
    expect(versions({ gate: verdict(['breaking', 'parameter-removed']) })).toEqual({
      contract: '0.7.0',
      ...all,
      openapi: '0.7.0',
    });
    expect(versions({ gate: verdict(['compatible', 'parameter-added']) })).toEqual({
      contract: '0.7.0',
      ...all,
      openapi: '0.7.0',
    });
    expect(versions({ gate: verdict(['compatible', 'example-changed']) })).toEqual({
      contract: '0.6.1',
      ...all,
      openapi: '0.6.1',
    });
    expect(versions({ gate: verdict(['compatible', 'example-changed']), contract: '0.8.0' }).contract).toBe('0.8.0');
  });

  it('the document unchanged: only the packages with entries, and those that pin them', () => {
    const plan = planRelease({
      latest: '0.6.0',
      gate: verdict(),
      packages: packages({ server: '## Unreleased\n### Fixed\n- x\n' }),
    });
    expect(plan).toEqual({
      contract: '0.6.0',
      newContract: false,
      packages: [
        { name: 'server', from: '0.7.0', to: '0.7.1', notes: [] },
        { name: 'fake', from: '0.7.0', to: '0.7.1', notes: ['- Depends on `@service-api/server` 0.7.1.'] },
      ],
    });
  });

  it.each([
    [
      '--contract below a breaking bump',
      { gate: verdict(['breaking', 'parameter-removed']), contract: '0.6.1' },
      /breaking changes since 0\.6\.0/,
    ],
    ['--contract not above the latest', { gate: verdict(), contract: '0.6.0' }, /not above the latest release/],
    ['--contract a pre-release', { gate: verdict(), contract: '0.7.0-rc.1' }, /not a release version/],
    [
      'the document package with entries but the document unchanged',
      { gate: verdict(), packages: packages({ openapi: '## Unreleased\n- x\n' }) },
      /its version is the contract's/,
    ],
  ] as [string, Partial<PlanInput> & Pick<PlanInput, 'gate'>, RegExp][])('refuses %s', (_name, input, message) => {
    expect(() => planRelease({ latest: '0.6.0', packages: packages({}), ...input })).toThrow(message);
  });
});

describe('what the release writes', () => {
  const changelog = '# Changelog\n\nIntro.\n\n## Unreleased\n\n### Added\n- one\n\n## 0.6.0\n\n- old\n';

  it('moves the Unreleased entries under the new heading and leaves an empty Unreleased above it', () => {
    expect(moveUnreleased(changelog, '0.7.0')).toBe(
      '# Changelog\n\nIntro.\n\n## Unreleased\n\n## 0.7.0\n\n### Added\n- one\n\n## 0.6.0\n\n- old\n',
    );
    expect(
      moveUnreleased('# C\n\n## Unreleased\n\n## 0.6.0\n', '0.6.1 (contract 0.7.0)', ['- Built from contract 0.7.0.']),
    ).toBe(
      '# C\n\n## Unreleased\n\n## 0.6.1 (contract 0.7.0)\n\n### Changed\n- Built from contract 0.7.0.\n\n## 0.6.0\n',
    );
    expect(() => moveUnreleased('# C\n\n## 0.6.0\n', '0.7.0')).toThrow(/no "## Unreleased" section/);
  });

  it('sets info.version in openapi.yaml, and only it', () => {
    const yaml =
      'openapi: 3.1.0\ninfo:\n  title: T\n  description: >-\n    version: 1\n  version: 0.6.1-dev.1\n  contact: {}\nservers: []\n';
    expect(withInfoVersion(yaml, '0.7.0')).toBe(yaml.replace('  version: 0.6.1-dev.1', '  version: 0.7.0'));
  });

  it("sets this repository's info.version: one line of openapi/openapi.yaml", () => {
    const yaml = readFileSync(join(ROOT, 'openapi', 'openapi.yaml'), 'utf8');
    const changed = withInfoVersion(yaml, '9.9.9');
    expect((YAML.parse(changed) as { info: { version: string } }).info.version).toBe('9.9.9');
    expect(changed.split('\n').filter((line, i) => line !== yaml.split('\n')[i])).toEqual(['  version: 9.9.9']);
  });

  it('sets a manifest version and its exact pins on our packages, keeping its formatting', () => {
    const manifest =
      '{\n  "name": "@service-api/fake",\n  "version": "0.7.0",\n  "dependencies": {\n    "@service-api/server": "0.7.0",\n    "diff": "9.0.0"\n  }\n}\n';
    expect(withManifestVersions(manifest, '0.7.1', new Map([['server', '0.8.0']]))).toBe(
      manifest
        .replace('"version": "0.7.0"', '"version": "0.7.1"')
        .replace('"@service-api/server": "0.7.0"', '"@service-api/server": "0.8.0"'),
    );
  });

  it.each([
    ['npm install @service-api/client@0.6.0 --save-exact', 'npm install @service-api/client@0.7.0 --save-exact'],
    ['`npm install @service-api/client --save-exact`', '`npm install @service-api/client@0.7.0 --save-exact`'],
    ['npm install @acme/client@0.6.0 --save-exact', 'npm install @acme/client@0.7.0 --save-exact'],
    [
      'npm install @service-api/client-extra@0.6.0 --save-exact',
      'npm install @service-api/client-extra@0.6.0 --save-exact',
    ],
  ])('README: %s', (line, expected) => expect(withInstallVersion(line, 'client', '0.7.0')).toBe(expected));
});
