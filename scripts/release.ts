/**
 * `npm run release`: records the published document as release `info.version`, once.
 * Copies generated/openapi/openapi.{json,yaml} and the 3.0 rendition openapi.3.0.{json,yaml} to releases/<version>/,
 * appends their hashes to releases/SHA256SUMS, records version → commit (`git rev-parse HEAD`) → hashes in
 * releases/RELEASES.json (scripts/lib/release-record.ts) and creates the tags `contract-v<version>` and
 * `<package>@<version>` the repository lacks.
 * Refuses when the version is already released, generated/ is stale, openapi/ or generated/ has uncommitted changes,
 * the versions disagree, the CHANGELOG has no section for the version, or the breaking-change gate fails.
 * Its arguments, and for --publish the registry, are checked before the long check of generated/.
 *   npm run release -- --dry-run    every check, nothing written
 * `npm run release -- --publish`: publishes the packages to an npm registry (scripts/lib/publish.ts); never writes
 * releases/. See USAGE.
 */
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { ROOT } from './lib/paths.ts';
import { PACKAGES, readManifest } from './lib/packages.ts';
import { DEFAULT_REGISTRY, DEFAULT_SCOPE, publishPackages, registryVersions, targetProblem } from './lib/publish.ts';
import {
  createMissingTags,
  headCommit,
  readRecord,
  releaseTags,
  uncommitted,
  withRelease,
  writeRecord,
} from './lib/release-record.ts';
import {
  formatGate,
  gate,
  gateInputFromRepository,
  HASHES_FILE,
  releaseFiles,
  RELEASES_DIR,
  sha256,
  verifyReleases,
} from './lib/releases.ts';

const USAGE = `Usage:
  npm run release [-- --dry-run]
      Records info.version in releases/<version>/ and releases/RELEASES.json (version → commit → sha256) and tags
      contract-v<version> and <package>@<version> (every check first; --dry-run writes nothing).
  npm run release -- --publish [--registry <url>] [--scope <@scope>] [--dry-run]
      Publishes the packages (${PACKAGES.map((p) => p.name).join(', ')}) at the versions of their
      package.json files to the registry, under the scope (@acme/client); the registry's token comes from your .npmrc.
      Packages the registry already has at that version are skipped. Never writes releases/.
      --registry  the registry's URL (default ${DEFAULT_REGISTRY}, Verdaccio's default address)
      --scope     the scope to publish under (default ${DEFAULT_SCOPE})
      --dry-run   every step but the publishing (npm publish --dry-run)`;

function fail(message: string): never {
  console.error(`✖ ${message}`);
  process.exit(1);
}

function parseOptions() {
  try {
    return parseArgs({
      options: {
        'dry-run': { type: 'boolean', default: false },
        publish: { type: 'boolean', default: false },
        registry: { type: 'string' },
        scope: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
}
const args = parseOptions();
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!args.publish && (args.registry !== undefined || args.scope !== undefined))
  fail(`--registry and --scope go with --publish\n${USAGE}`);
const registry = args.registry ?? DEFAULT_REGISTRY;
const scope = args.scope ?? DEFAULT_SCOPE;
if (args.publish) {
  const problem = targetProblem(registry, scope);
  if (problem) fail(problem);
  console.log(`Asking ${registry} which versions it has…`);
  const versions = await registryVersions({ registry, scope }).catch((error: Error) => fail(error.message));
  for (const pkg of PACKAGES) {
    const name = `${scope}/${pkg.name}`;
    const { version } = readManifest(pkg.name);
    console.log(`  ${name}@${version}: ${versions.get(name)?.includes(version) ? 'has it' : 'to publish'}`);
  }
} else {
  const dirty = uncommitted(ROOT, ['openapi', 'generated']);
  if (dirty.length > 0)
    fail(`openapi/ or generated/ has uncommitted changes; a release records HEAD, commit first:\n${dirty.join('\n')}`);
}

const packageTags = () =>
  releaseTags(
    undefined,
    PACKAGES.map((p) => readManifest(p.name)),
  );

// --cache: the lint's and the regeneration's verdicts of an earlier build or test on the same inputs stand (content-
// hashed stamps, scripts/lib/stamps.ts): a release does not lint again what the build has just linted.
console.log('Checking that generated/ is what the generators produce (npm run check)…');
const check = spawnSync(
  process.execPath,
  [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'scripts', 'build.ts'), '--check', '--cache'],
  { stdio: 'inherit' },
);
if (check.status !== 0) fail('generated/ is not current: run npm run build and commit first');

if (args.publish) {
  console.log(`Publishing the packages under ${scope} to ${registry}${args['dry-run'] ? ' (dry run)' : ''}…`);
  const published = await publishPackages({ registry, scope, dryRun: args['dry-run'], built: true }).catch(
    (error: Error) => fail(error.message),
  );
  const count = published.filter((p) => p.action === 'published').length;
  console.log(
    `\n${args['dry-run'] ? 'Would publish' : 'Published'} ${count} of ${published.length} packages; ` +
      `${published.length - count} the registry had already.`,
  );
  if (!args['dry-run']) reportTags(createMissingTags(ROOT, packageTags(), headCommit(ROOT)));
  process.exit(0);
}

const input = gateInputFromRepository();
const version = input.current.info.version;
const rootVersion = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
if (rootVersion !== version) fail(`package.json version ${rootVersion} differs from info.version ${version}`);
const target = join(RELEASES_DIR, version);
if (existsSync(target))
  fail(`releases/${version} exists: a release is never rewritten; raise info.version for a new one`);
const problems = verifyReleases();
if (problems.length > 0) fail(`the recorded releases are not intact:\n${problems.join('\n')}`);
const result = gate(input);
console.log(formatGate(result));
if (!result.ok) fail('the breaking-change gate fails');

if (args['dry-run']) {
  console.log(`\nDry run: ${version} can be released (releases/${version}/ not written).`);
  process.exit(0);
}
const commit = headCommit(ROOT);
const record = withRelease(readRecord(), version, {
  commit,
  files: Object.fromEntries(
    releaseFiles(version).map((name) => [name, sha256(readFileSync(join(ROOT, 'generated', 'openapi', name)))]),
  ),
});
mkdirSync(target, { recursive: true });
for (const name of releaseFiles(version)) {
  copyFileSync(join(ROOT, 'generated', 'openapi', name), join(target, name));
  appendFileSync(HASHES_FILE, `${sha256(readFileSync(join(target, name)))}  ${version}/${name}\n`);
}
writeRecord(record);
console.log(
  `\nReleased ${version}: releases/${version}/${releaseFiles(version).join(', ')}, hashes in releases/SHA256SUMS, ` +
    `commit ${commit} in releases/RELEASES.json.`,
);
reportTags(
  createMissingTags(
    ROOT,
    releaseTags(
      version,
      PACKAGES.map((p) => readManifest(p.name)),
    ),
    commit,
  ),
);
console.log(
  `Next: git add releases && git commit -m 'Release ${version}' (the record's own commit follows ${commit.slice(0, 12)}); git push --tags`,
);

function reportTags(created: string[]) {
  console.log(created.length > 0 ? `Tagged: ${created.join(', ')}` : 'Every tag exists already.');
}
