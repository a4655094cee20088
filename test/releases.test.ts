import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { toJson } from '../generators/published.ts';
import { HOME_SCOPE, PACKAGES, readManifest, type PackageManifest } from '../scripts/lib/packages.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import { dependencyLevels, scopedManifest, targetProblem } from '../scripts/lib/publish.ts';
import {
  createMissingTags,
  headCommit,
  readHashes,
  readRecord,
  recordProblems,
  RELEASES_DIR,
  releaseTags,
  sha256,
  uncommitted,
  withRelease,
  writeRecord,
} from '../scripts/lib/release-record.ts';
import {
  changelogSection,
  compareVersions,
  formatGate,
  gate,
  type GateInput,
  isBreakingBump,
  isPortableVersion,
  isReleaseVersion,
  listReleases,
  releasedFiles,
  releaseFiles,
  staleDocument,
} from '../scripts/lib/releases.ts';

/** The version of a package's latest release: the first versioned heading of its CHANGELOG (`## 0.7.0 (contract 0.6.0)`). */
const latestInChangelog = (name: string) =>
  /^## (\d+\.\d+\.\d+)\b/m.exec(readFileSync(join(ROOT, 'packages', name, 'CHANGELOG.md'), 'utf8'))?.[1];

const readJson = (path: string) =>
  JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as { version?: string; info?: { version: string } };

describe('versions', () => {
  const contract = readJson('generated/openapi/openapi.json').info!.version;
  const packages = PACKAGES.map(({ name }) => ({ name, manifest: readManifest(name) }));
  const latest = listReleases().at(-1)!;

  it('info.version is the one source: no package.json states the contract version, the root has no version', () => {
    expect(readJson('package.json').version).toBeUndefined();
    for (const { name, manifest } of packages) expect(manifest.contractVersion, name).toBeUndefined();
    expect(readFileSync(join(ROOT, 'generated/openapi/openapi.yaml'), 'utf8').split('\n', 1)[0]).toContain(
      `spec version ${contract}.`,
    );
  });

  it('between releases info.version is a pre-release above the latest release; on a release commit, that release', () => {
    if (isReleaseVersion(contract)) expect(compareVersions(contract, latest)).toBeGreaterThanOrEqual(0);
    else expect(compareVersions(contract, latest), `${contract} after ${latest}`).toBeGreaterThan(0);
  });

  it('info.version is valid in SemVer and in PEP 440, so that generated Python packages install', () => {
    expect(isPortableVersion(contract), contract).toBe(true);
  });

  it.each([
    ['0.6.1-dev.1', true],
    ['0.6.0', true],
    ['1.2.3-rc.1', true],
    ['0.6.1-next', false],
    ['0.6.1-dev.1+build', true],
    ['0.6.1.dev1', false],
  ])('%s is portable: %s', (version, portable) => {
    expect(isPortableVersion(version)).toBe(portable);
  });

  it("@service-api/openapi's version is info.version: the package is the document", () => {
    expect(readManifest('openapi').version).toBe(contract);
  });

  it.each(packages)(
    'package $name has its own semver, that of its latest release (0.0.0 before the first)',
    ({ name, manifest }) => {
      if (name === 'openapi') return;
      expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(latestInChangelog(name) ?? '0.0.0').toBe(manifest.version);
    },
  );

  it.each(packages)('package $name depends on the current version of each of our packages it uses', ({ manifest }) => {
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {}).filter(([d]) =>
      d.startsWith('@service-api/'),
    ))
      expect(range, dependency).toBe(packages.find((p) => p.manifest.name === dependency)!.manifest.version);
  });

  it.each(packages)(
    "package $name names the repository it is built from (the root's) and its folder there",
    ({ name }) => {
      type Repository = { type?: string; url?: string; directory?: string };
      const repositoryOf = (path: string) =>
        (JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as { repository?: Repository }).repository;
      const root = repositoryOf('package.json');
      expect(root?.type).toBe('git');
      expect(root?.url).toMatch(/^git\+https:\/\/\S+\.git$/);
      const folder = PACKAGES.find((p) => p.name === name)!.folder;
      expect(repositoryOf(`${folder}/package.json`)).toEqual({ type: 'git', url: root!.url, directory: folder });
    },
  );

  it.each(packages)("package $name's README installs its latest release (none named before the first)", ({ name }) => {
    const readme = readFileSync(join(ROOT, 'packages', name, 'README.md'), 'utf8');
    const released = latestInChangelog(name);
    expect(readme).toContain(`npm install @service-api/${name}${released ? `@${released}` : ''} --save-exact`);
  });

  it("the README's pinning example installs the client's latest release", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`npm install @acme/client@${latestInChangelog('client')} --save-exact`);
  });

  it('no generated source names a version in its banner: a new contract version changes only what it changes', () => {
    for (const name of readdirSync(join(ROOT, 'generated')).filter((folder) => folder !== 'openapi'))
      for (const file of readdirSync(join(ROOT, 'generated', name)))
        expect(readFileSync(join(ROOT, 'generated', name, file), 'utf8').split('\n', 1)[0], file).not.toMatch(
          /version/,
        );
  });
});

describe('recorded releases', () => {
  it('are intact: each recorded commit is in the history, and holds each file with its recorded hash', () => {
    expect(listReleases()).toContain('0.2.0');
    expect(recordProblems()).toEqual([]);
  });

  it('0.2.0 is the document of the release commit 9aa72c9 (schemas Blob and Date), read from git', () => {
    const released = JSON.parse(releasedFiles('0.2.0')['openapi.json']!) as OpenApiDocument;
    expect(released.info.version).toBe('0.2.0');
    expect(Object.keys(released.components!.schemas!)).toEqual(expect.arrayContaining(['Blob', 'Date']));
  });

  it('releases/ holds the record and the hashes, no copies', () => {
    expect(readdirSync(RELEASES_DIR).sort()).toEqual(['RELEASES.json', 'SHA256SUMS']);
  });

  describe('a tampered record is reported', () => {
    const record = readRecord();
    const hashes = readHashes();
    const latest = listReleases(record).at(-1)!;
    const json = `generated/openapi/openapi.json`;
    const entry = record[latest]!;
    const withEntry = (changed: Partial<typeof entry>) => ({ ...record, [latest]: { ...entry, ...changed } });
    it.each([
      ['intact', {}, []],
      [
        'a hash changed',
        { record: withEntry({ files: { ...entry.files, [json]: 'f'.repeat(64) } }) },
        [
          /SHA256SUMS does not have .*openapi\.json/,
          /openapi\.json at \w+ has sha256 \w+, released f{64}/,
          /record was changed/,
        ],
      ],
      [
        'a commit outside the history',
        { record: withEntry({ commit: '0'.repeat(40) }) },
        [/commit 0{40} is not in the history/, /record was changed/],
      ],
      [
        "the commit of another version (another document's info.version)",
        { record: withEntry({ commit: record['0.4.1']!.commit, files: record['0.4.1']!.files }) },
        [/SHA256SUMS does not have/, /has info\.version 0\.4\.1/, /SHA256SUMS does not have/, /record was changed/],
      ],
      [
        'a hash listed in SHA256SUMS only',
        { hashes: new Map([...hashes, ['9.9.9/openapi.json', 'e'.repeat(64)]]) },
        [/SHA256SUMS has 9\.9\.9\/openapi\.json, which the record lacks/],
      ],
    ] as [string, Parameters<typeof recordProblems>[0], RegExp[]][])('%s', (_name, options, expected) => {
      const problems = recordProblems({ record, hashes, ...options });
      expect(problems).toHaveLength(expected.length);
      expected.forEach((pattern, i) => {
        expect(problems[i]).toMatch(pattern);
      });
    });
  });
});

describe('version bumps', () => {
  it.each([
    ['0.2.0', '0.3.0', true],
    ['0.2.0', '0.2.1', false],
    ['0.2.0', '1.0.0', true],
    ['1.2.0', '1.3.0', false],
    ['1.2.0', '2.0.0', true],
    ['1.2.3', '1.2.4', false],
  ])('%s → %s announces breaking changes: %s', (from, to, expected) => expect(isBreakingBump(from, to)).toBe(expected));
});

describe('the gate', () => {
  const doc = (version: string, required = ['id']): OpenApiDocument =>
    ({
      openapi: '3.1.0',
      info: { title: 'T', version },
      paths: {
        '/jobs': {
          get: {
            operationId: 'jobs/list-jobs',
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': { schema: { type: 'object', required, properties: { id: { type: 'integer' } } } },
                },
              },
            },
          },
        },
      },
    }) as unknown as OpenApiDocument;
  const files = (d: OpenApiDocument, rendition30?: OpenApiDocument) => ({
    'openapi.json': JSON.stringify(d),
    'openapi.yaml': `version ${d.info.version} ${JSON.stringify(d)}`,
    ...(rendition30 && {
      'openapi.3.0.json': JSON.stringify(rendition30),
      'openapi.3.0.yaml': `version ${d.info.version} ${JSON.stringify(rendition30)}`,
    }),
  });
  const input = (
    current: OpenApiDocument,
    changelog: string,
    released = doc('0.2.0'),
    renditions: { current?: OpenApiDocument; released?: OpenApiDocument } = {},
  ): GateInput => ({
    current,
    currentFiles: files(current, renditions.current),
    releases: [{ version: released.info.version, doc: released, files: files(released, renditions.released) }],
    changelog,
  });
  const loosened = (version: string) => doc(version, []);

  it.each([
    ['the released version, unchanged', doc('0.2.0'), '## 0.2.0\n', []],
    [
      'the released version, changed',
      loosened('0.2.0'),
      '## 0.2.0\n',
      [/openapi\.json differs from the released 0\.2\.0's/, /openapi\.yaml differs from the released 0\.2\.0's/],
    ],
    ['a version lower than the latest release', doc('0.1.9'), '## 0.1.9\n', [/lower than the latest release/]],
    [
      'a pre-release pip refuses',
      doc('0.2.1-next'),
      '## Unreleased\n- docs\n',
      [/not a PEP 440 version.*0\.2\.1-dev\.N/],
    ],
    ['a pre-release valid in both', doc('0.2.1-dev.1'), '## Unreleased\n- docs\n', []],
    ['no CHANGELOG section for the version', doc('0.2.1'), '## 0.2.0\n', [/no "## 0\.2\.1" section/]],
    ['breaking under a patch bump', loosened('0.2.1'), '## 0.2.1\n- **Breaking**: id optional\n', [/not a major bump/]],
    [
      'breaking under a 0.x minor bump without a mark',
      loosened('0.3.0'),
      '## 0.3.0\n- id optional\n## 0.2.0\n- **Breaking**: old\n',
      [/marks none \*\*Breaking\*\*/],
    ],
    [
      'breaking under a 0.x minor bump with a mark',
      loosened('0.3.0'),
      '## 0.3.0\n### Changed\n- **Breaking**: id optional\n',
      [],
    ],
    ['only compatible changes under a patch bump', doc('0.2.1'), '## 0.2.1\n- docs\n', []],
  ] as [string, OpenApiDocument, string, RegExp[]][])('%s', (_name, current, changelog, expected) => {
    const result = gate(input(current, changelog));
    expect(result.failures).toHaveLength(expected.length);
    expected.forEach((pattern, i) => {
      expect(result.failures[i]).toMatch(pattern);
    });
    expect(result.ok).toBe(expected.length === 0);
  });

  it('under 1.0.0 a minor bump is the major one; from 1.0.0 only a major bump allows a breaking change', () => {
    const at = (released: string, current: string) =>
      gate(input(loosened(current), `## ${current}\n- **Breaking**\n`, doc(released))).ok;
    expect(at('1.0.0', '1.1.0')).toBe(false);
    expect(at('1.0.0', '2.0.0')).toBe(true);
  });

  describe('the 3.0 rendition, judged like the 3.1 document', () => {
    /** A 3.0 rendition whose response field `id` may be null or not. */
    const rendition = (version: string, nullable: boolean) => {
      const d = structuredClone(doc(version)) as unknown as { openapi: string; paths: Record<string, unknown> };
      d.openapi = '3.0.3';
      const schema = (d.paths['/jobs'] as { get: { responses: Record<string, { content: Record<string, unknown> }> } })
        .get.responses['200']!.content['application/json'] as {
        schema: { properties: { id: Record<string, unknown> } };
      };
      if (nullable) schema.schema.properties.id.nullable = true;
      return d as unknown as OpenApiDocument;
    };
    const judged = (current: boolean, changelog: string, version = '0.2.1') =>
      gate(
        input(doc(version), changelog, doc('0.2.0'), {
          current: rendition(version, current),
          released: rendition('0.2.0', false),
        }),
      );

    it('a field of the 3.0 rendition newly nullable is breaking, though the 3.1 document did not change', () => {
      const result = judged(true, '## 0.2.1\n');
      expect(result.differences.filter((d) => d.severity === 'breaking')).toEqual([]);
      expect(result.rendition30).toContainEqual(
        expect.objectContaining({ severity: 'breaking', rule: 'response-field-newly-nullable' }),
      );
      expect(result.failures).toEqual([
        expect.stringMatching(/^0 breaking change\(s\) \(1 in the 3\.0 rendition\) since 0\.2\.0.*not a major bump/),
        expect.stringMatching(
          /of 1 kind\(s\) \(3\.0 response-field-newly-nullable\), but .* marks none \*\*Breaking\*\*/,
        ),
        expect.stringMatching(/lists no change/),
      ]);
      expect(formatGate(result)).toContain("The 3.0 rendition against release 0.2.0's: 1 breaking, 0 compatible");
      expect(judged(true, '## 0.3.0\n- **Breaking**: id nullable\n', '0.3.0').ok).toBe(true);
    });

    it('an unchanged 3.0 rendition adds nothing; a release without one (before 0.6.0) is not compared', () => {
      expect(judged(false, '## 0.2.1\n').rendition30?.filter((d) => d.rule !== 'info-changed')).toEqual([]);
      const withoutBaseline = gate(
        input(doc('0.2.1'), '## 0.2.1\n', doc('0.2.0'), { current: rendition('0.2.1', true) }),
      );
      expect(withoutBaseline.rendition30).toBeUndefined();
      expect(withoutBaseline.ok).toBe(true);
    });

    it('the released version, its 3.0 rendition changed', () => {
      const result = gate(
        input(doc('0.2.0'), '## 0.2.0\n', doc('0.2.0'), {
          current: rendition('0.2.0', true),
          released: rendition('0.2.0', false),
        }),
      );
      expect(result.failures).toEqual([
        expect.stringMatching(/openapi\.3\.0\.json differs from the released 0\.2\.0's/),
        expect.stringMatching(/openapi\.3\.0\.yaml differs from the released 0\.2\.0's/),
      ]);
    });
  });

  it('prints counts per rule and the breaking items', () => {
    const text = formatGate(gate(input(loosened('0.2.1'), '## 0.2.1\n')));
    expect(text).toContain('0.2.1 against release 0.2.0: 1 breaking, 0 compatible');
    expect(text).toContain('1  breaking response-field-no-longer-required');
    expect(text).toContain('response-field-no-longer-required: GET /jobs › 200 application/json › id');
    expect(text).toMatch(/Verdict: FAIL\n {2}✖ .*not a major bump/);
  });

  it('finds a CHANGELOG section by its heading only', () => {
    expect(changelogSection('## 0.3.0\na\n## 0.2.0\nb', '0.3.0')).toBe('## 0.3.0\na');
    expect(changelogSection('## 0.30.0\na', '0.3.0')).toBeUndefined();
  });
});

describe('a stale generated/ is refused before any verdict', () => {
  const bundled = {
    openapi: '3.1.0',
    info: { title: 'T', version: '0.3.0' },
    paths: { '/jobs': { get: { operationId: 'jobs/list-jobs', responses: { '200': { description: 'ok' } } } } },
  } as unknown as OpenApiDocument;
  const edited = structuredClone(bundled);
  edited.info.version = '0.3.1';
  const withoutPath = { ...bundled, paths: {} } as OpenApiDocument;

  it.each([
    ['generated/ is what openapi/ bundles to', toJson(bundled), undefined],
    ['openapi/ was edited (info.version) without a build', toJson(edited), /line 5\b/],
    ['openapi/ gained an operation without a build', toJson(withoutPath), /line 7\b/],
    ['generated/ was edited by hand (the last newline dropped)', toJson(bundled).trimEnd(), /line 20\b/],
  ] as [string, string, RegExp | undefined][])('%s', (_name, published, where) => {
    const stale = staleDocument(bundled, published);
    if (where) {
      expect(stale).toMatch(/^generated\/ is stale: .*: run npm run build$/);
      expect(stale).toMatch(where);
    } else expect(stale).toBeUndefined();
  });
});

describe('publishing under a scope', () => {
  const client: PackageManifest = {
    name: '@service-api/client',
    version: '0.5.0',
    dependencies: { 'openapi-fetch': '0.17.0', '@service-api/types': '0.5.0' },
  };
  const server: PackageManifest = {
    name: '@service-api/server',
    version: '0.6.1',
    dependencies: { '@service-api/validators': '0.6.0', '@service-api/types': '^0.5.2' },
    peerDependencies: { fastify: '^5.0.0' },
  };
  it.each([
    ['the home scope keeps the manifest', client, HOME_SCOPE, client],
    [
      'another scope renames the package and aliases its dependency on another of ours',
      client,
      '@acme',
      {
        ...client,
        name: '@acme/client',
        dependencies: { 'openapi-fetch': '0.17.0', '@service-api/types': 'npm:@acme/types@0.5.0' },
      },
    ],
    [
      'each dependency keeps its own range; peer dependencies on others stay',
      server,
      '@acme',
      {
        ...server,
        name: '@acme/server',
        dependencies: {
          '@service-api/validators': 'npm:@acme/validators@0.6.0',
          '@service-api/types': 'npm:@acme/types@^0.5.2',
        },
      },
    ],
  ] as [string, PackageManifest, string, PackageManifest][])('%s', (_name, manifest, scope, expected) => {
    expect(scopedManifest(manifest, scope)).toEqual(expected);
  });

  it.each(PACKAGES)(
    "$name's prepack builds its dist/ with the check, from the package's folder",
    ({ name, folder }) => {
      const { scripts } = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as {
        scripts?: { prepack?: string };
      };
      const build = /^node --import tsx (\S+) --check --cache >&2( && |$)/.exec(scripts?.prepack ?? '');
      expect(build, `${name}: ${scripts?.prepack}`).not.toBeNull();
      expect(existsSync(join(ROOT, folder, build![1]!))).toBe(true);
    },
  );

  it('publishes each package in a level after every one of ours it depends on, each package once', () => {
    const levels = dependencyLevels(PACKAGES.map((p) => p.name));
    const levelOf = (name: string) => levels.findIndex((level) => level.includes(name as never));
    expect(levels.flat().sort()).toEqual(PACKAGES.map((p) => p.name).sort());
    for (const { name } of PACKAGES)
      for (const dependency of Object.keys(readManifest(name).dependencies ?? {}).filter((d) =>
        d.startsWith(`${HOME_SCOPE}/`),
      ))
        expect(levelOf(dependency.slice(HOME_SCOPE.length + 1)), `${name} after ${dependency}`).toBeLessThan(
          levelOf(name),
        );
  });

  it.each(PACKAGES.map((p) => p.name))(
    '%s: under @acme, every dependency on one of ours is an alias into @acme',
    (name) => {
      const scoped = scopedManifest(readManifest(name), '@acme');
      expect(scoped.name).toBe(`@acme/${name}`);
      const ours = Object.entries({ ...scoped.dependencies, ...scoped.peerDependencies }).filter(([dependency]) =>
        dependency.startsWith(`${HOME_SCOPE}/`),
      );
      for (const [dependency, range] of ours)
        expect(range, dependency).toMatch(new RegExp(`^npm:@acme/${dependency.split('/')[1]}@\\S+$`));
    },
  );

  it.each([
    ['http://localhost:4873/', '@service-api', undefined],
    ['https://npm.acme.example/repository/npm/', '@acme', undefined],
    ['localhost:4873', '@acme', /not an http\(s\) URL/],
    ['ftp://npm.acme.example/', '@acme', /not an http\(s\) URL/],
    ['npm.acme.example', '@acme', /not a URL/],
    ['http://localhost:4873/', 'acme', /not an npm scope/],
    ['http://localhost:4873/', '@Acme', /not an npm scope/],
    ['http://localhost:4873/', '@acme/client', /not an npm scope/],
    ['https://registry.npmjs.org/', '@service-api', /not ours/],
    ['https://registry.npmjs.org/', '@acme', undefined],
  ] as [string, string, RegExp | undefined][])('registry %s, scope %s', (registry, scope, problem) => {
    const found = targetProblem(registry, scope);
    if (problem) expect(found).toMatch(problem);
    else expect(found).toBeUndefined();
  });
});

const temporary: string[] = [];
const tmp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'service-api-release-'));
  temporary.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the release record', () => {
  const commit = 'a'.repeat(40);
  const entry = {
    commit,
    files: { 'generated/openapi/openapi.json': sha256('{}'), 'generated/openapi/openapi.yaml': sha256('') },
  };

  it('is written and read back: version → commit → sha256 of each released file', () => {
    const file = join(tmp(), 'RELEASES.json');
    expect(readRecord(file)).toEqual({});
    writeRecord(withRelease(readRecord(file), '0.6.0', entry), file);
    writeRecord(withRelease(readRecord(file), '0.7.0', { ...entry, commit: 'b'.repeat(40) }), file);
    expect(readRecord(file)).toEqual({ '0.6.0': entry, '0.7.0': { ...entry, commit: 'b'.repeat(40) } });
  });

  it.each([
    ['a recorded version', '0.6.0', entry, /0\.6\.0 is recorded already \(commit a{40}\)/],
    ['a commit that is not a full hash', '0.7.0', { ...entry, commit: 'HEAD' }, /"HEAD" is not a full commit hash/],
  ])('refuses %s', (_, version, next, message) => {
    expect(() => withRelease({ '0.6.0': entry }, version, next)).toThrow(message);
  });

  it('on main, names every release, and its commit holds each released file with the recorded hash', () => {
    const record = readRecord();
    const sums = readFileSync(join(RELEASES_DIR, 'SHA256SUMS'), 'utf8');
    for (const [version, recorded] of Object.entries(record)) {
      expect(Object.keys(recorded.files).sort(), version).toEqual(
        releaseFiles(version)
          .map((name) => `generated/openapi/${name}`)
          .sort(),
      );
      for (const [path, hash] of Object.entries(recorded.files)) {
        expect(sums, `${version} ${path}`).toContain(`${hash}  ${version}/${basename(path)}\n`);
        const shown = execFileSync('git', ['show', `${recorded.commit}:${path}`], {
          cwd: ROOT,
          maxBuffer: 64 * 1024 * 1024,
        });
        expect(sha256(shown), `${version} ${path} at ${recorded.commit}`).toBe(hash);
      }
    }
  });
});

describe('release tags, in a temporary git repository', () => {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.org',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.org',
      },
    }).trim();

  it('creates contract-v<version> and <package>@<version> at the commit, each only once', () => {
    const repo = tmp();
    git(repo, 'init', '-q');
    writeFileSync(join(repo, 'openapi.json'), '{}\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'first');
    const commit = headCommit(repo);
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    git(repo, 'tag', '@service-api/types@0.5.0', commit);
    const tags = releaseTags('0.6.0', [
      { name: '@service-api/types', version: '0.5.0' },
      { name: '@service-api/client', version: '0.6.1' },
    ]);
    expect(tags).toEqual(['contract-v0.6.0', '@service-api/types@0.5.0', '@service-api/client@0.6.1']);
    expect(createMissingTags(repo, tags, commit)).toEqual(['contract-v0.6.0', '@service-api/client@0.6.1']);
    expect(createMissingTags(repo, tags, commit)).toEqual([]);
    for (const tag of tags) expect(git(repo, 'rev-list', '-n', '1', tag), tag).toBe(commit);
  });

  it('names uncommitted changes of the released folders', () => {
    const repo = tmp();
    git(repo, 'init', '-q');
    mkdirSync(join(repo, 'generated'));
    writeFileSync(join(repo, 'generated', 'a.json'), '1\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'first');
    expect(uncommitted(repo, ['generated'])).toEqual([]);
    writeFileSync(join(repo, 'generated', 'a.json'), '2\n');
    writeFileSync(join(repo, 'other.txt'), 'not released\n');
    expect(uncommitted(repo, ['generated'])).toEqual([' M generated/a.json']);
  });
});
