/**
 * Releases: `releases/<version>/openapi.{json,yaml}` are copies of the published document (from 0.6.0 on also
 * `openapi.3.0.{json,yaml}`, its OpenAPI 3.0 rendition), written once by `npm run release` and never changed;
 * `releases/SHA256SUMS` records their hashes. The gate compares the current document and its 3.0 rendition with the
 * latest release.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { toJson } from '../../generators/published.ts';
import { compareDocuments, type Difference } from './breaking.ts';
import { ROOT } from './paths.ts';

export const RELEASES_DIR = join(ROOT, 'releases');
export const HASHES_FILE = join(RELEASES_DIR, 'SHA256SUMS');
/** The files a release records, named as in generated/openapi/: the 3.1 document, then its 3.0 rendition. */
export const RELEASE_FILES = ['openapi.json', 'openapi.yaml', 'openapi.3.0.json', 'openapi.3.0.yaml'] as const;
export type ReleaseFile = (typeof RELEASE_FILES)[number];
/** The first version released with its 3.0 rendition; the releases before it stay as they were made, without it. */
export const FIRST_RENDITION_30 = '0.6.0';
/** The mark a CHANGELOG entry carries on each breaking change. */
export const BREAKING_MARK = '**Breaking**';

export type Version = [number, number, number];

export function parseVersion(text: string): Version {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (!match) throw new Error(`"${text}" is not a release version (major.minor.patch)`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/**
 * Whether going from `from` to `to` announces breaking changes. Semver: a major bump; below 1.0.0, where semver
 * promises nothing, the usual convention (npm's caret ranges: ^0.2.0 never installs 0.3.0) makes a minor bump the major one.
 */
export function isBreakingBump(from: string, to: string): boolean {
  const [a, b] = [parseVersion(from), parseVersion(to)];
  if (b[0] > a[0]) return true;
  return a[0] === 0 && b[0] === 0 && b[1] > a[1];
}

/** Released versions, oldest first. */
export function listReleases(dir = RELEASES_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort(compareVersions);
}

/** The files a release of `version` holds. */
export function releaseFiles(version: string): ReleaseFile[] {
  return compareVersions(version, FIRST_RENDITION_30) < 0 ? ['openapi.json', 'openapi.yaml'] : [...RELEASE_FILES];
}

export function sha256(contents: string | Buffer): string {
  return createHash('sha256').update(contents).digest('hex');
}

/** `<hash>  <version>/<file>` lines, as `sha256sum -c` reads them. */
export function readHashes(file = HASHES_FILE): Map<string, string> {
  const hashes = new Map<string, string>();
  if (!existsSync(file)) return hashes;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (match) hashes.set(match[2]!, match[1]!);
    else if (line.trim()) throw new Error(`${file}: unreadable line "${line}"`);
  }
  return hashes;
}

/** Problems with the recorded releases: a file missing, unrecorded, or not what was released. */
export function verifyReleases(dir = RELEASES_DIR, hashesFile = HASHES_FILE): string[] {
  const problems: string[] = [];
  const hashes = readHashes(hashesFile);
  const present = new Set<string>();
  for (const version of listReleases(dir)) {
    const files = readdirSync(join(dir, version));
    for (const name of releaseFiles(version))
      if (!files.includes(name)) problems.push(`releases/${version}/${name} is missing`);
    for (const name of files) {
      const key = `${version}/${name}`;
      present.add(key);
      const recorded = hashes.get(key);
      const actual = sha256(readFileSync(join(dir, version, name)));
      if (!recorded)
        problems.push(
          `releases/${key} is not recorded in releases/SHA256SUMS (releases are written by npm run release)`,
        );
      else if (recorded !== actual)
        problems.push(`releases/${key} was modified after its release (sha256 ${actual}, released ${recorded})`);
    }
    const json = join(dir, version, 'openapi.json');
    if (existsSync(json)) {
      const released = (JSON.parse(readFileSync(json, 'utf8')) as OpenApiDocument).info.version;
      if (released !== version) problems.push(`releases/${version}/openapi.json has info.version ${released}`);
    }
  }
  for (const key of hashes.keys()) if (!present.has(key)) problems.push(`releases/${key} is recorded but missing`);
  return problems;
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
  /** Released documents by version, with their files' text (the 3.0 rendition from FIRST_RENDITION_30 on). */
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
  failures: string[];
}

const RENDITION_30 = 'openapi.3.0.json';
const parsed = (text: string | undefined) => (text === undefined ? undefined : (JSON.parse(text) as OpenApiDocument));

/** The gate's verdict: the current document against the latest release and the CHANGELOG. */
export function gate(input: GateInput): GateResult {
  const version = input.current.info.version;
  const failures: string[] = [];
  const sorted = [...input.releases].sort((a, b) => compareVersions(a.version, b.version));
  const same = sorted.find((r) => r.version === version);
  const latest = sorted.at(-1);
  if (same) {
    for (const name of RELEASE_FILES.filter((file) => same.files[file] !== undefined)) {
      if (same.files[name] !== input.currentFiles[name])
        failures.push(
          `generated/openapi/${name} differs from releases/${version}/${name}: a released version never changes, raise info.version`,
        );
    }
  }
  if (latest && compareVersions(version, latest.version) < 0)
    failures.push(`info.version ${version} is lower than the latest release ${latest.version}`);
  const section = changelogSection(input.changelog, version);
  if (!section) failures.push(`CHANGELOG.md has no "## ${version}" section`);
  const baseline = latest && compareVersions(version, latest.version) > 0 ? latest : undefined;
  const differences = baseline ? compareDocuments(baseline.doc, input.current) : [];
  // The 3.0 rendition is judged like the 3.1 document: a change of the converter alone can break its readers too.
  const [released30, current30] = [parsed(baseline?.files[RENDITION_30]), parsed(input.currentFiles[RENDITION_30])];
  const rendition30 = released30 && current30 ? compareDocuments(released30, current30) : undefined;
  const breaking = differences.filter((d) => d.severity === 'breaking').length;
  const breaking30 = rendition30?.filter((d) => d.severity === 'breaking').length ?? 0;
  if (baseline && breaking + breaking30 > 0) {
    const count = `${breaking} breaking change(s)${breaking30 > 0 ? ` (${breaking30} in the 3.0 rendition)` : ''} since ${baseline.version}`;
    if (!isBreakingBump(baseline.version, version))
      failures.push(`${count}, but ${version} is not a major bump (below 1.0.0: a minor bump)`);
    if (section && !section.includes(BREAKING_MARK))
      failures.push(`${count}, but the CHANGELOG section ${version} marks none ${BREAKING_MARK}`);
  }
  return {
    ok: failures.length === 0,
    version,
    baseline: baseline?.version ?? same?.version,
    differences,
    ...(rendition30 && { rendition30 }),
    failures,
  };
}

/** The verdict as the gate prints it: counts per class and rule, then the first breaking items. */
export function formatGate(result: GateResult, limit = 25): string {
  const lines: string[] = [];
  const breaking = result.differences.filter((d) => d.severity === 'breaking');
  const compatible = result.differences.filter((d) => d.severity === 'compatible');
  lines.push(
    result.baseline && result.baseline !== result.version
      ? `Breaking-change gate: ${result.version} against release ${result.baseline}: ${breaking.length} breaking, ${compatible.length} compatible difference(s)`
      : `Breaking-change gate: ${result.version}${result.baseline ? ` is released; the document must equal releases/${result.version}` : ' (no earlier release)'}`,
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

/** Reads the repository's releases, current document and CHANGELOG for the gate. */
export function gateInputFromRepository(): GateInput {
  const read = (path: string) => readFileSync(path, 'utf8');
  const readFiles = (dir: string, names: readonly ReleaseFile[]) =>
    Object.fromEntries(names.map((name) => [name, read(join(dir, name))])) as Partial<Record<ReleaseFile, string>>;
  const published = join(ROOT, 'generated', 'openapi');
  const currentFiles = readFiles(published, RELEASE_FILES);
  return {
    current: JSON.parse(currentFiles['openapi.json']!) as OpenApiDocument,
    currentFiles,
    releases: listReleases().map((version) => {
      const files = readFiles(join(RELEASES_DIR, version), releaseFiles(version));
      return { version, doc: JSON.parse(files['openapi.json']!) as OpenApiDocument, files };
    }),
    changelog: read(join(ROOT, 'CHANGELOG.md')),
  };
}
