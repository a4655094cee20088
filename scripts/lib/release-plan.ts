/**
 * What `npm run release` decides and writes, as functions of the repository's text: the versions (the contract's from
 * the gate's verdict, each package's from its `## Unreleased` entries and the packages it depends on), then the
 * CHANGELOG sections, manifests, lock file and README install lines that carry them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOME_SCOPE, PACKAGES, type PackageName, readManifest } from './packages.ts';
import { ROOT } from './paths.ts';
import {
  type Bump,
  breakingEntries,
  bumped,
  changelogSection,
  compareVersions,
  contractBump,
  type GateResult,
  isBreakingBump,
  isReleaseVersion,
  UNRELEASED,
} from './releases.ts';

/** The package whose version is the contract version: it is the document. */
export const DOCUMENT_PACKAGE: PackageName = 'openapi';

export interface PackagePlan {
  name: PackageName;
  from: string;
  to: string;
  /** The lines its new CHANGELOG section gets besides its own Unreleased entries. */
  notes: string[];
}

export interface ReleasePlan {
  /** The contract version of the release commit: a new one, or the latest release's when the document is unchanged. */
  contract: string;
  /** Whether the contract version is new (recorded and tagged). */
  newContract: boolean;
  packages: PackagePlan[];
}

/** The number of entries (list items) in a CHANGELOG section. */
export function entryCount(section: string | undefined): number {
  return (section ?? '').split('\n').filter((line) => /^[-*] \S/.test(line)).length;
}

/** A package's bump from its Unreleased entries: a **Breaking** entry, else an `### Added` heading, else a patch. */
export function bumpOfEntries(section: string): Bump {
  if (breakingEntries(section) > 0) return 'breaking';
  return /^### Added/m.test(section) ? 'minor' : 'patch';
}

const strongest = (a: Bump | undefined, b: Bump | undefined): Bump | undefined => {
  const order: (Bump | undefined)[] = [undefined, 'patch', 'minor', 'breaking'];
  return order.indexOf(a) >= order.indexOf(b) ? a : b;
};

export interface PlanInput {
  /** The latest release's version. */
  latest: string;
  gate: GateResult;
  /** `--contract`: the version to release the contract as, instead of the gate's. */
  contract?: string;
  /** Each package's version (package.json), its Unreleased section and the packages of ours it depends on. */
  packages: { name: PackageName; version: string; unreleased: string | undefined; dependsOn: PackageName[] }[];
}

/** The release's versions, or throws with the reason it cannot be made. */
export function planRelease(input: PlanInput): ReleasePlan {
  const bump = contractBump(input.gate);
  if (input.contract !== undefined) {
    if (!isReleaseVersion(input.contract))
      throw new Error(`--contract ${input.contract} is not a release version (x.y.z)`);
    if (compareVersions(input.contract, input.latest) <= 0)
      throw new Error(`--contract ${input.contract} is not above the latest release ${input.latest}`);
    if (bump === 'breaking' && !isBreakingBump(input.latest, input.contract))
      throw new Error(`--contract ${input.contract}: the document has breaking changes since ${input.latest}`);
  }
  const contract = input.contract ?? (bump ? bumped(input.latest, bump) : input.latest);
  const newContract = contract !== input.latest;
  const bumps = new Map<PackageName, Bump | undefined>();
  const notes = new Map<PackageName, string[]>(input.packages.map((p) => [p.name, []]));
  for (const pkg of input.packages) {
    if (pkg.name === DOCUMENT_PACKAGE) continue;
    const own = entryCount(pkg.unreleased) > 0 ? bumpOfEntries(pkg.unreleased!) : undefined;
    // Built from the document: a new contract version changes what it exports as contractVersion.
    if (newContract && !own) notes.get(pkg.name)!.push(`- Built from contract ${contract}.`);
    bumps.set(pkg.name, newContract ? strongest(own, 'patch') : own);
  }
  const document = input.packages.find((p) => p.name === DOCUMENT_PACKAGE);
  if (document && !newContract && entryCount(document.unreleased) > 0)
    throw new Error(
      `@service-api/${DOCUMENT_PACKAGE} has Unreleased entries, but the document is that of ${input.latest}: its version is the contract's (--contract <version>)`,
    );
  const versions = new Map(input.packages.map((p) => [p.name, p.version]));
  for (const pkg of input.packages) {
    // The document's package is released with each new contract version, under it (writeContractVersion sets it).
    if (pkg.name === DOCUMENT_PACKAGE) {
      if (newContract) versions.set(pkg.name, contract);
    } else {
      const b = bumps.get(pkg.name);
      if (b) versions.set(pkg.name, bumped(pkg.version, b));
    }
  }
  // A package whose dependency of ours gets a new version pins it exactly: it gets a new version too (in PACKAGES
  // order, dependencies first).
  for (const pkg of input.packages) {
    if (pkg.name === DOCUMENT_PACKAGE) continue;
    const moved = pkg.dependsOn.filter((d) => versions.get(d) !== input.packages.find((p) => p.name === d)!.version);
    if (moved.length === 0) continue;
    for (const d of moved) notes.get(pkg.name)!.push(`- Depends on \`${HOME_SCOPE}/${d}\` ${versions.get(d)}.`);
    if (!bumps.get(pkg.name)) {
      bumps.set(pkg.name, 'patch');
      versions.set(pkg.name, bumped(pkg.version, 'patch'));
    }
  }
  return {
    contract,
    newContract,
    packages: input.packages
      .filter((p) => versions.get(p.name) !== p.version)
      .map((p) => ({ name: p.name, from: p.version, to: versions.get(p.name)!, notes: notes.get(p.name)! })),
  };
}

/**
 * The CHANGELOG with its Unreleased entries under `heading`, and an empty `## Unreleased` above it for what comes next.
 * `notes` are added to the section (a package's "Built from contract …").
 */
export function moveUnreleased(changelog: string, heading: string, notes: string[] = []): string {
  const section = changelogSection(changelog, UNRELEASED);
  if (section === undefined) throw new Error(`no "## ${UNRELEASED}" section`);
  const body = section.slice(`## ${UNRELEASED}`.length).replace(/^\n+|\n+$/g, '');
  const extra =
    notes.length > 0 ? `${entryCount(body) > 0 ? '\n\n### Changed\n' : '### Changed\n'}${notes.join('\n')}` : '';
  return changelog.replace(section, `## ${UNRELEASED}\n\n## ${heading}\n\n${body}${extra}\n`);
}

/** openapi/openapi.yaml's text with `info.version` set. */
export function withInfoVersion(yaml: string, version: string): string {
  const changed = yaml.replace(/^(info:\n(?: {2}.*\n|\n)*? {2}version: ).*$/m, `$1${version}`);
  if (changed === yaml && !yaml.includes(`  version: ${version}\n`))
    throw new Error('openapi/openapi.yaml: no info.version found');
  return changed;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A package.json's text with its version and the exact pins on our packages set (its formatting kept). */
export function withManifestVersions(text: string, own: string, ours: Map<string, string>): string {
  let result = text.replace(/^( {2}"version": )"[^"]*"/m, `$1"${own}"`);
  for (const [name, version] of ours)
    result = result.replace(new RegExp(`("${escaped(`${HOME_SCOPE}/${name}`)}": )"[^"]*"`, 'g'), `$1"${version}"`);
  return result;
}

/** The install lines of a README (`npm install @service-api/client@0.6.0 --save-exact`, or `@acme/client`) set to `version`. */
export function withInstallVersion(readme: string, name: string, version: string): string {
  return readme.replace(
    new RegExp(`(npm install @(?:service-api|acme)/${escaped(name)})(@[^\\s\`]+)?( --save-exact)`, 'g'),
    `$1@${version}$3`,
  );
}

/** Reads the plan's input of each package from the repository. */
export function packageInputs(root = ROOT): PlanInput['packages'] {
  return PACKAGES.map(({ name, folder }) => {
    const manifest = readManifest(name);
    const changelog = readFileSync(join(root, folder, 'CHANGELOG.md'), 'utf8');
    const dependsOn = Object.keys(manifest.dependencies ?? {})
      .filter((d) => d.startsWith(`${HOME_SCOPE}/`))
      .map((d) => d.slice(HOME_SCOPE.length + 1) as PackageName);
    return { name, version: manifest.version, unreleased: changelogSection(changelog, UNRELEASED), dependsOn };
  });
}

/** Writes `version` as info.version and as @service-api/openapi's version (package.json and the lock file). */
export function writeContractVersion(version: string, root = ROOT): void {
  const source = join(root, 'openapi', 'openapi.yaml');
  writeFileSync(source, withInfoVersion(readFileSync(source, 'utf8'), version));
  writePackageVersions(new Map([[DOCUMENT_PACKAGE, version]]), root);
}

/** Writes the packages' new versions into their package.json, every pin on them and the lock file. */
export function writePackageVersions(versions: Map<string, string>, root = ROOT): void {
  for (const { name, folder } of PACKAGES) {
    const path = join(root, folder, 'package.json');
    const text = readFileSync(path, 'utf8');
    const own = versions.get(name) ?? (JSON.parse(text) as { version: string }).version;
    writeFileSync(path, withManifestVersions(text, own, versions));
  }
  const lockPath = join(root, 'package-lock.json');
  const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as {
    packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
  };
  for (const { name, folder } of PACKAGES) {
    const entry = lock.packages[folder];
    if (!entry) continue;
    const version = versions.get(name);
    if (version) entry.version = version;
    for (const [dependency, to] of versions)
      if (entry.dependencies?.[`${HOME_SCOPE}/${dependency}`]) entry.dependencies[`${HOME_SCOPE}/${dependency}`] = to;
  }
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
}

/** Moves the Unreleased entries of the contract's and the packages' CHANGELOGs and sets the README install lines. */
export function writeChangelogs(plan: ReleasePlan, root = ROOT): void {
  const edit = (path: string, change: (text: string) => string) =>
    writeFileSync(join(root, path), change(readFileSync(join(root, path), 'utf8')));
  if (plan.newContract) edit('CHANGELOG.md', (text) => moveUnreleased(text, plan.contract));
  for (const pkg of plan.packages) {
    const folder = PACKAGES.find((p) => p.name === pkg.name)!.folder;
    const heading = pkg.name === DOCUMENT_PACKAGE ? pkg.to : `${pkg.to} (contract ${plan.contract})`;
    edit(`${folder}/CHANGELOG.md`, (text) => moveUnreleased(text, heading, pkg.notes));
    edit(`${folder}/README.md`, (text) => withInstallVersion(text, pkg.name, pkg.to));
    edit('README.md', (text) => withInstallVersion(text, pkg.name, pkg.to));
  }
}
