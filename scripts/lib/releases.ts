/**
 * The breaking-change gate and versions. A release is recorded in `releases/RELEASES.json` (scripts/lib/release-record.ts)
 * and read from the commit that made it. Between releases `info.version` is a pre-release (`0.6.1-dev.1`) and the
 * changes are listed under `## Unreleased` in CHANGELOG.md; `npm run release` gives them a version.
 * The gate compares the current document and its 3.0 rendition with the latest release.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { toJson } from '../../generators/published.ts';
import { compareDocuments, type Difference } from './breaking.ts';
import { ROOT } from './paths.ts';
import { readRecord, type ReleaseRecord, releasedFile } from './release-record.ts';

/** The files a release records, in generated/openapi/: the 3.1 document, then its 3.0 rendition. */
export const RELEASE_FILES = ['openapi.json', 'openapi.yaml', 'openapi.3.0.json', 'openapi.3.0.yaml'] as const;
export type ReleaseFile = (typeof RELEASE_FILES)[number];
/** Where the published files are, relative to the repository. */
export const PUBLISHED_DIR = 'generated/openapi';
/** The first version released with its 3.0 rendition; the releases before it stay as they were made, without it. */
export const FIRST_RENDITION_30 = '0.6.0';
/** The mark a CHANGELOG entry carries on each breaking change. */
export const BREAKING_MARK = '**Breaking**';
/** The CHANGELOG section that collects the changes until `npm run release` gives them a version. */
export const UNRELEASED = 'Unreleased';
/**
 * The pre-release label of main between releases: `0.6.1-dev.1` follows 0.6.0. A version valid both in SemVer (npm)
 * and in PEP 440 (pip reads `0.6.1-dev.1` as `0.6.1.dev1`), so that the packages teams generate from the document in
 * any language install; it sorts below the release in both.
 */
export const NEXT_LABEL = 'dev';

/** Whether `version` is a release version (major.minor.patch, no pre-release). */
export function isReleaseVersion(version: string): boolean {
  return semver.valid(version) !== null && semver.prerelease(version) === null;
}

export function compareVersions(a: string, b: string): number {
  for (const v of [a, b]) if (!semver.valid(v)) throw new Error(`"${v}" is not a semver version`);
  return semver.compare(a, b);
}

/**
 * Whether going from `from` to `to` announces breaking changes. Semver: a major bump; below 1.0.0, where semver
 * promises nothing, the usual convention (npm's caret ranges: ^0.2.0 never installs 0.3.0) makes a minor bump the major one.
 */
export function isBreakingBump(from: string, to: string): boolean {
  const [a, b] = [semver.parse(from)!, semver.parse(to)!];
  if (b.major > a.major) return true;
  return a.major === 0 && b.major === 0 && b.minor > a.minor;
}

export type Bump = 'breaking' | 'minor' | 'patch';

/** The version after `from` for a change of that kind: a breaking one raises the major (below 1.0.0 the minor). */
export function bumped(from: string, bump: Bump): string {
  const level = bump === 'breaking' ? (semver.major(from) === 0 ? 'minor' : 'major') : bump;
  return semver.inc(from, level)!;
}

/** main's version after the release `version`: the next patch's pre-release (`0.6.1-dev.1`). */
export function nextPreRelease(version: string): string {
  return `${semver.inc(version, 'patch')!}-${NEXT_LABEL}.1`;
}

/**
 * A public version identifier of PEP 440 (its Appendix B pattern), in any of the spellings pip normalizes: the
 * generated Python packages (openapi-python-client, openapi-generator's python) take `info.version` as theirs.
 */
const PEP_440 =
  /^v?(?:(?:\d+!)?\d+(?:\.\d+)*(?:[-_.]?(?:alpha|a|beta|b|preview|pre|c|rc)[-_.]?\d*)?(?:-\d+|[-_.]?(?:post|rev|r)[-_.]?\d*)?(?:[-_.]?dev[-_.]?\d*)?)(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?$/i;

/** Whether `version` is valid in both SemVer and PEP 440 (`0.6.1-dev.1`, not `0.6.1-next`). */
export function isPortableVersion(version: string): boolean {
  return semver.valid(version) !== null && PEP_440.test(version);
}

/** Released versions, oldest first. */
export function listReleases(record: ReleaseRecord = readRecord()): string[] {
  return Object.keys(record).sort(compareVersions);
}

/** The files a release of `version` holds, by name in generated/openapi/. */
export function releaseFiles(version: string): ReleaseFile[] {
  return compareVersions(version, FIRST_RENDITION_30) < 0 ? ['openapi.json', 'openapi.yaml'] : [...RELEASE_FILES];
}

/** The CHANGELOG section of a version: from its `## <version>` heading to the next one. */
export function changelogSection(changelog: string, version: string): string | undefined {
  const lines = changelog.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^## \\[?${version.replace(/\./g, '\\.')}\\]?(\\s|$)`).test(line));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && /^## /.test(line));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/**
 * Why the published document (the text of generated/openapi/openapi.json) is not what `openapi/` bundles to, or
 * undefined when it is. The gate judges generated/, so it refuses to when generated/ is stale.
 */
export function staleDocument(bundled: OpenApiDocument, published: string): string | undefined {
  const expected = toJson(bundled);
  if (expected === published) return undefined;
  const [want, have] = [expected.split('\n'), published.split('\n')];
  const line = Array.from({ length: Math.max(want.length, have.length) }, (_, i) => i).find(
    (i) => want[i] !== have[i],
  )!;
  return `generated/ is stale: generated/openapi/openapi.json is not what openapi/ bundles to (first difference at line ${line + 1}): run npm run build`;
}

export interface GateInput {
  /** The current published document (generated/openapi/openapi.json) and the text of each file a release records. */
  current: OpenApiDocument;
  currentFiles: Partial<Record<ReleaseFile, string>>;
  /**
   * Released documents by version, with their files' text (the 3.0 rendition from FIRST_RENDITION_30 on): at least the
   * latest release, and the release of the current version when it has one.
   */
  releases: { version: string; doc: OpenApiDocument; files: Partial<Record<ReleaseFile, string>> }[];
  changelog: string;
}

export interface GateResult {
  ok: boolean;
  version: string;
  baseline?: string;
  differences: Difference[];
  /** The 3.0 rendition's differences from the baseline's, when the baseline has one. */
  rendition30?: Difference[];
  /** Each kind of breaking difference found (a rule of scripts/lib/breaking.ts; `3.0 <rule>` for the 3.0 rendition). */
  breakingKinds: string[];
  failures: string[];
}

const RENDITION_30 = 'openapi.3.0.json';
const parsed = (text: string | undefined) => (text === undefined ? undefined : (JSON.parse(text) as OpenApiDocument));
/** The document under another version: the version itself is no difference for consumers. */
const versioned = (doc: OpenApiDocument, version: string) => ({ ...doc, info: { ...doc.info, version } });
/** The entries that begin with the mark (`- **Breaking**: …`, or `- **Breaking:** …`): a mention elsewhere is no entry. */
export const breakingEntries = (section: string) => section.match(/^[-*] \*\*Breaking:?\*\*/gm)?.length ?? 0;
const marks = breakingEntries;
const entries = (section: string) => section.split('\n').filter((line) => /^\s*[-*] \S/.test(line)).length;

/**
 * The gate's verdict: the current document against the latest release and the CHANGELOG. A pre-release
 * (`0.6.1-dev.1`, main between releases) may differ from the latest release: its changes are listed under
 * `## Unreleased`, one **Breaking** entry at least per kind of breaking difference. A release version is the document
 * of that release: the one recorded, or the one being made (its own `## <version>` section, a breaking bump for
 * breaking differences).
 */
export function gate(input: GateInput): GateResult {
  const version = input.current.info.version;
  const failures: string[] = [];
  const empty = { ok: false, version, differences: [], breakingKinds: [], failures };
  if (!semver.valid(version)) {
    failures.push(`info.version ${version} is not a semver version`);
    return empty;
  }
  if (!isPortableVersion(version))
    failures.push(
      `info.version ${version} is not a PEP 440 version: pip refuses the Python packages generated from it (a pre-release between releases is written ${semver.coerce(version)?.version}-dev.N)`,
    );
  const unreleased = !isReleaseVersion(version);
  const sorted = [...input.releases].sort((a, b) => compareVersions(a.version, b.version));
  const same = sorted.find((r) => r.version === version);
  const latest = sorted.at(-1);
  if (same) {
    for (const name of RELEASE_FILES.filter((file) => same.files[file] !== undefined)) {
      if (same.files[name] !== input.currentFiles[name])
        failures.push(
          `generated/openapi/${name} differs from the released ${version}'s: a released version never changes (main's version between releases is a pre-release, ${nextPreRelease(version)})`,
        );
    }
  }
  if (latest && compareVersions(version, latest.version) < 0)
    failures.push(`info.version ${version} is lower than the latest release ${latest.version}`);
  const heading = unreleased ? UNRELEASED : version;
  const section = changelogSection(input.changelog, heading);
  if (section === undefined) failures.push(`CHANGELOG.md has no "## ${heading}" section`);
  const baseline = latest && compareVersions(version, latest.version) > 0 ? latest : undefined;
  const differences = baseline ? compareDocuments(baseline.doc, versioned(input.current, baseline.version)) : [];
  // The 3.0 rendition is judged like the 3.1 document: a change of the converter alone can break its readers too.
  const [released30, current30] = [parsed(baseline?.files[RENDITION_30]), parsed(input.currentFiles[RENDITION_30])];
  const rendition30 =
    released30 && current30 ? compareDocuments(released30, versioned(current30, released30.info.version)) : undefined;
  const breaking = differences.filter((d) => d.severity === 'breaking');
  const breaking30 = rendition30?.filter((d) => d.severity === 'breaking') ?? [];
  const breakingKinds = [
    ...new Set([...breaking.map((d) => d.rule), ...breaking30.map((d) => `3.0 ${d.rule}`)]),
  ].sort();
  if (baseline && breakingKinds.length > 0) {
    const count = `${breaking.length} breaking change(s)${breaking30.length > 0 ? ` (${breaking30.length} in the 3.0 rendition)` : ''} since ${baseline.version}`;
    if (!unreleased && !isBreakingBump(baseline.version, version))
      failures.push(`${count}, but ${version} is not a major bump (below 1.0.0: a minor bump)`);
    if (section !== undefined && marks(section) < breakingKinds.length)
      failures.push(
        `${count} of ${breakingKinds.length} kind(s) (${breakingKinds.join(', ')}), but the CHANGELOG section ${heading} marks ${marks(section) === 0 ? 'none' : `only ${marks(section)}`} ${BREAKING_MARK}: one entry at least per kind`,
      );
  }
  if (
    baseline &&
    section !== undefined &&
    entries(section) === 0 &&
    differences.length + (rendition30?.length ?? 0) > 0
  )
    failures.push(
      `the document differs from ${baseline.version} (${differences.length} difference(s)), but the CHANGELOG section ${heading} lists no change`,
    );
  return {
    ok: failures.length === 0,
    version,
    baseline: baseline?.version ?? same?.version,
    differences,
    ...(rendition30 && { rendition30 }),
    breakingKinds,
    failures,
  };
}

/**
 * The contract's next version by the gate's verdict: a breaking bump for a breaking difference, a minor one for an
 * addition, a patch for any other difference; undefined when the document is the latest release's.
 */
export function contractBump(result: GateResult): Bump | undefined {
  const all = [...result.differences, ...(result.rendition30 ?? [])];
  if (all.length === 0) return undefined;
  if (result.breakingKinds.length > 0) return 'breaking';
  return all.some((d) => d.rule.endsWith('-added')) ? 'minor' : 'patch';
}

/** The verdict as the gate prints it: counts per class and rule, then the first breaking items. */
export function formatGate(result: GateResult, limit = 25): string {
  const lines: string[] = [];
  const breaking = result.differences.filter((d) => d.severity === 'breaking');
  const compatible = result.differences.filter((d) => d.severity === 'compatible');
  lines.push(
    result.baseline && result.baseline !== result.version
      ? `Breaking-change gate: ${result.version} against release ${result.baseline}: ${breaking.length} breaking, ${compatible.length} compatible difference(s)`
      : `Breaking-change gate: ${result.version}${result.baseline ? ` is released; the document must equal the release's` : ' (no earlier release)'}`,
  );
  const byRule = new Map<string, number>();
  for (const d of result.differences)
    byRule.set(`${d.severity} ${d.rule}`, (byRule.get(`${d.severity} ${d.rule}`) ?? 0) + 1);
  for (const [rule, count] of [...byRule].sort()) lines.push(`  ${String(count).padStart(5)}  ${rule}`);
  if (breaking.length > 0) {
    lines.push(`First ${Math.min(limit, breaking.length)} breaking:`);
    for (const d of breaking.slice(0, limit))
      lines.push(`  ${d.rule}: ${d.location}${d.detail ? ` (${d.detail})` : ''}`);
  }
  if (result.rendition30) {
    const breaking30 = result.rendition30.filter((d) => d.severity === 'breaking');
    lines.push(
      `The 3.0 rendition against release ${result.baseline}'s: ${breaking30.length} breaking, ${result.rendition30.length - breaking30.length} compatible difference(s)`,
    );
    for (const d of breaking30.slice(0, limit))
      lines.push(`  3.0 ${d.rule}: ${d.location}${d.detail ? ` (${d.detail})` : ''}`);
  }
  lines.push(result.ok ? 'Verdict: pass' : `Verdict: FAIL\n${result.failures.map((f) => `  ✖ ${f}`).join('\n')}`);
  return lines.join('\n');
}

/** A release's files as the gate reads them, from the commit the record names (checked against its hashes). */
export function releasedFiles(
  version: string,
  record: ReleaseRecord = readRecord(),
  root = ROOT,
): Partial<Record<ReleaseFile, string>> {
  return Object.fromEntries(
    releaseFiles(version).map((name) => [name, releasedFile(root, record, version, `${PUBLISHED_DIR}/${name}`)]),
  ) as Partial<Record<ReleaseFile, string>>;
}

/**
 * Reads the gate's input from a repository: its published files, CHANGELOG and release record, and the latest release
 * (and the current version's, when released) from git (`history`: the repository whose history holds the releases,
 * `root` unless a copy of its files is judged).
 */
export function gateInputFromRepository(root = ROOT, history = root): GateInput {
  const read = (path: string) => readFileSync(join(root, path), 'utf8');
  const currentFiles = Object.fromEntries(
    RELEASE_FILES.map((name) => [name, read(`${PUBLISHED_DIR}/${name}`)]),
  ) as Partial<Record<ReleaseFile, string>>;
  const current = JSON.parse(currentFiles['openapi.json']!) as OpenApiDocument;
  const record = readRecord(join(root, 'releases', 'RELEASES.json'));
  const versions = listReleases(record);
  const needed = new Set([versions.at(-1), versions.includes(current.info.version) ? current.info.version : undefined]);
  return {
    current,
    currentFiles,
    releases: [...needed]
      .filter((v): v is string => v !== undefined)
      .map((version) => {
        const files = releasedFiles(version, record, history);
        return { version, doc: JSON.parse(files['openapi.json']!) as OpenApiDocument, files };
      }),
    changelog: read('CHANGELOG.md'),
  };
}
