/**
 * `npm run release`: gives main's unreleased changes their versions. Between releases `info.version` is a pre-release
 * (`0.6.1-dev.1`) and the changes wait under `## Unreleased` in CHANGELOG.md and the packages' CHANGELOGs. The release:
 *   1. checks its arguments (and for --publish the registry), that tracked files are committed, the release record,
 *      that generated/ is what openapi/ bundles to, and the gate — all before anything long;
 *   2. picks the versions (scripts/lib/release-plan.ts): the contract's from the gate's verdict (a breaking bump,
 *      a minor one for an addition, else a patch; `--contract x.y.z` to choose), each package's from its Unreleased
 *      entries, a new contract version and a new version of a dependency of ours;
 *   3. writes them (info.version, package.json files, the lock file, README install lines), moves the Unreleased
 *      entries under the new headings, runs `npm run build` once (its lint stamp skips the lint when nothing it reads
 *      changed), checks the gate on the result and commits it: "Release …";
 *   4. records that commit in releases/RELEASES.json and SHA256SUMS, tags it `contract-v<version>` and
 *      `<package>@<version>`, moves main to the next pre-release (a build without the lint: only info.version differs
 *      from the document just linted) and commits that.
 *   npm run release -- --dry-run    steps 1 and 2: prints the plan, writes nothing
 * `npm run release -- --publish`: publishes the packages to an npm registry (scripts/lib/publish.ts). See USAGE.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bundleSource } from './lib/bundle.ts';
import { HOME_SCOPE, PACKAGES, readManifest } from './lib/packages.ts';
import { GATE_BUNDLE_JSON, PUBLISHED_JSON, ROOT } from './lib/paths.ts';
import { DEFAULT_REGISTRY, DEFAULT_SCOPE, publishPackages, registryVersions, targetProblem } from './lib/publish.ts';
import {
  packageInputs,
  planRelease,
  type ReleasePlan,
  writeChangelogs,
  writeContractVersion,
  writePackageVersions,
} from './lib/release-plan.ts';
import {
  createMissingTags,
  git,
  HASHES_FILE,
  hashLine,
  headCommit,
  readRecord,
  recordProblems,
  releaseTags,
  sha256,
  withRelease,
  writeRecord,
} from './lib/release-record.ts';
import {
  formatGate,
  gate,
  gateInputFromRepository,
  isReleaseVersion,
  listReleases,
  nextPreRelease,
  PUBLISHED_DIR,
  releaseFiles,
  staleDocument,
} from './lib/releases.ts';

const USAGE = `Usage:
  npm run release [-- --dry-run] [-- --contract <x.y.z>]
      Gives the Unreleased changes their versions: the contract's from the breaking-change gate (or --contract), each
      package's from its CHANGELOG's Unreleased entries; commits "Release …", records it in releases/RELEASES.json,
      tags contract-v<version> and <package>@<version>, and moves main to the next pre-release (a second commit).
      --dry-run   every check, then the plan; nothing written
  npm run release -- --publish [--registry <url>] [--scope <@scope>] [--dry-run]
      Publishes the packages (${PACKAGES.map((p) => p.name).join(', ')}) at the versions of their
      package.json files to the registry, under the scope (@acme/client); the registry's token comes from your .npmrc.
      Packages the registry already has at that version are skipped. Run it on a release commit.
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
        contract: { type: 'string' },
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
if (args.publish && args.contract !== undefined) fail(`--contract does not go with --publish\n${USAGE}`);
if (args.contract !== undefined && !isReleaseVersion(args.contract))
  fail(`--contract ${args.contract} is not a release version (x.y.z)`);

const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
/** Runs the build script with `flags`; fails the release when it fails. */
function build(flags: string[], what: string) {
  console.log(`${what}…`);
  const run = spawnSync(process.execPath, [tsx, join(ROOT, 'scripts', 'build.ts'), ...flags], { stdio: 'inherit' });
  if (run.status !== 0) fail(`${what} failed`);
}

if (args.publish) await publish();
else await release();

async function publish() {
  const registry = args.registry ?? DEFAULT_REGISTRY;
  const scope = args.scope ?? DEFAULT_SCOPE;
  const problem = targetProblem(registry, scope);
  if (problem) fail(problem);
  console.log(`Asking ${registry} which versions it has…`);
  const versions = await registryVersions({ registry, scope }).catch((error: Error) => fail(error.message));
  for (const pkg of PACKAGES) {
    const name = `${scope}/${pkg.name}`;
    const { version } = readManifest(pkg.name);
    console.log(`  ${name}@${version}: ${versions.get(name)?.includes(version) ? 'has it' : 'to publish'}`);
  }
  // Between releases the packages keep their released versions but are built from the pre-release document.
  const contract = (JSON.parse(readFileSync(PUBLISHED_JSON, 'utf8')) as { info: { version: string } }).info.version;
  if (!isReleaseVersion(contract))
    fail(
      `info.version ${contract} is a pre-release: publish from a release commit (git checkout contract-v${listReleases().at(-1)}), whose packages are built from the released contract`,
    );
  build(['--check', '--cache'], 'Checking that generated/ is what the generators produce and building dist/');
  console.log(`Publishing the packages under ${scope} to ${registry}${args['dry-run'] ? ' (dry run)' : ''}…`);
  const published = await publishPackages({ registry, scope, dryRun: args['dry-run'], built: true }).catch(
    (error: Error) => fail(error.message),
  );
  const count = published.filter((p) => p.action === 'published').length;
  console.log(
    `\n${args['dry-run'] ? 'Would publish' : 'Published'} ${count} of ${published.length} packages; ` +
      `${published.length - count} the registry had already.`,
  );
  if (!args['dry-run'])
    reportTags(
      createMissingTags(
        ROOT,
        releaseTags(
          undefined,
          PACKAGES.map((p) => readManifest(p.name)),
        ),
        headCommit(ROOT),
      ),
    );
}

async function release() {
  const dirty = git(ROOT, ['status', '--porcelain', '--untracked-files=no']).split('\n').filter(Boolean);
  if (dirty.length > 0)
    fail(`uncommitted changes; a release commits the repository as it is, commit first:\n${dirty.join('\n')}`);
  const problems = recordProblems();
  if (problems.length > 0) fail(`the release record does not match the history:\n${problems.join('\n')}`);
  console.log('Bundling openapi/ to check that generated/ is current…');
  const input = gateInputFromRepository();
  const stale = staleDocument(await bundleSource(GATE_BUNDLE_JSON), input.currentFiles['openapi.json']!);
  if (stale) fail(stale);
  const version = input.current.info.version;
  if (isReleaseVersion(version))
    fail(
      `info.version ${version} is a release version: main is at a pre-release between releases (${nextPreRelease(version)})`,
    );
  const result = gate(input);
  console.log(formatGate(result, 10));
  if (!result.ok) fail('the breaking-change gate fails');
  const latest = listReleases().at(-1);
  if (!latest) fail('the release record is empty: nothing to compare with');
  let plan: ReleasePlan;
  try {
    plan = planRelease({ latest, gate: result, contract: args.contract, packages: packageInputs() });
  } catch (error) {
    fail((error as Error).message);
  }
  console.log(`\n${describePlan(plan)}`);
  if (!plan.newContract && plan.packages.length === 0) {
    console.log('Nothing to release.');
    return;
  }
  if (args['dry-run']) {
    console.log('\nDry run: nothing written.');
    return;
  }

  writeContractVersion(plan.contract);
  writePackageVersions(new Map(plan.packages.map((p) => [p.name, p.to])));
  writeChangelogs(plan);
  build([], `Building contract ${plan.contract}`);
  const released = gate(gateInputFromRepository());
  if (!released.ok) fail(`the release does not pass the gate:\n${formatGate(released)}`);
  const commit = commitAll(`Release ${subject(plan)}`, describePlan(plan));

  const tags = releaseTags(
    plan.newContract ? plan.contract : undefined,
    plan.packages.map((p) => ({ name: `${HOME_SCOPE}/${p.name}`, version: p.to })),
  );
  if (plan.newContract) record(plan.contract, commit);
  const next = nextPreRelease(plan.contract);
  writeContractVersion(next);
  build(['--no-lint'], `Moving main to ${next}`);
  commitAll(
    `Main at ${next} after release ${plan.contract}`,
    `The release record names ${commit}. The document differs from the release only in info.version.`,
  );
  reportTags(createMissingTags(ROOT, tags, commit));
  console.log(
    `\nReleased at ${commit}. Next: git push && git push --tags; npm run release -- --publish at that commit.`,
  );
}

function record(version: string, commit: string) {
  const files = Object.fromEntries(
    releaseFiles(version).map((name) => {
      const path = `${PUBLISHED_DIR}/${name}`;
      return [path, sha256(readFileSync(join(ROOT, path)))];
    }),
  );
  writeRecord(withRelease(readRecord(), version, { commit, files }));
  appendFileSync(
    HASHES_FILE,
    Object.entries(files)
      .map(([path, hash]) => `${hashLine(version, path, hash)}\n`)
      .join(''),
  );
}

function commitAll(title: string, body: string): string {
  git(ROOT, ['add', '--update']);
  git(ROOT, ['commit', '--quiet', '-m', title, '-m', body]);
  return headCommit(ROOT);
}

function subject(plan: ReleasePlan): string {
  const full = [
    ...(plan.newContract ? [`contract ${plan.contract}`] : []),
    ...plan.packages.map((p) => `${p.name} ${p.to}`),
  ].join(', ');
  return full.length <= 64 ? full : `contract ${plan.contract} and ${plan.packages.length} packages`;
}

function describePlan(plan: ReleasePlan): string {
  return [
    plan.newContract
      ? `Contract ${plan.contract} (recorded and tagged contract-v${plan.contract})`
      : `Contract unchanged: ${plan.contract}`,
    ...plan.packages.map(
      (p) =>
        `  ${HOME_SCOPE}/${p.name}: ${p.from} → ${p.to}${p.notes.length ? ` (${p.notes.map((n) => n.slice(2)).join(' ')})` : ''}`,
    ),
  ].join('\n');
}

function reportTags(created: string[]) {
  console.log(created.length > 0 ? `Tagged: ${created.join(', ')}` : 'Every tag exists already.');
}
