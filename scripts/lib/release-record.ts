/**
 * The release record, `releases/RELEASES.json`: version → the commit of the released document → the path of each
 * released file at that commit → its sha256; `releases/SHA256SUMS` repeats the hashes (`<sha256>  <version>/<file>`).
 * Written by `npm run release` with the commit it makes for the release. Releases are not copied: a released file is
 * `git show <commit>:<path>` (generated/openapi/openapi.json), checked against its recorded hash, so a clone of main
 * (with its history) has every release without tags. Git tags (`contract-v<version>`, `<package>@<version>`) are made
 * too, as a convenience: tags may not travel with a clone.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ROOT } from './paths.ts';

export const RELEASES_DIR = join(ROOT, 'releases');
export const RECORD_FILE = join(RELEASES_DIR, 'RELEASES.json');
export const HASHES_FILE = join(RELEASES_DIR, 'SHA256SUMS');

export interface ReleaseEntry {
  /** The commit whose generated/ holds the released document. */
  commit: string;
  /** sha256 of each released file, by its path in the repository at that commit (`generated/openapi/openapi.json`). */
  files: Record<string, string>;
}
export type ReleaseRecord = Record<string, ReleaseEntry>;

export function sha256(contents: string | Buffer): string {
  return createHash('sha256').update(contents).digest('hex');
}

export function readRecord(file = RECORD_FILE): ReleaseRecord {
  return existsSync(file) ? parseRecord(readFileSync(file, 'utf8')) : {};
}

function parseRecord(text: string): ReleaseRecord {
  return JSON.parse(text) as ReleaseRecord;
}

/** The record with `version` added; a recorded version is never rewritten. */
export function withRelease(record: ReleaseRecord, version: string, entry: ReleaseEntry): ReleaseRecord {
  if (version in record) throw new Error(`${version} is recorded already (commit ${record[version]!.commit})`);
  if (!/^[0-9a-f]{40}$/.test(entry.commit)) throw new Error(`"${entry.commit}" is not a full commit hash`);
  return { ...record, [version]: entry };
}

export function writeRecord(record: ReleaseRecord, file = RECORD_FILE): void {
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
}

/** The `SHA256SUMS` line of a released file: its hash, then `<version>/<file name>`. */
export function hashLine(version: string, path: string, hash: string): string {
  return `${hash}  ${version}/${basename(path)}`;
}

/** `<version>/<file>` → sha256, from the lines of `SHA256SUMS`. */
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

export function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trimEnd();
}

/** Files read at a full commit hash: what a commit holds never changes, so each is read once per process. */
const shown = new Map<string, Buffer | undefined>();

/** A file as it was at `commit` (`git show <commit>:<path>`), byte for byte; undefined when the commit lacks it. */
export function showFile(cwd: string, commit: string, path: string): Buffer | undefined {
  const key = `${cwd}\0${commit}:${path}`;
  if (/^[0-9a-f]{40}$/.test(commit) && shown.has(key)) return shown.get(key);
  let contents: Buffer | undefined;
  try {
    contents = execFileSync('git', ['show', `${commit}:${path}`], {
      cwd,
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch {
    contents = undefined;
  }
  if (/^[0-9a-f]{40}$/.test(commit)) shown.set(key, contents);
  return contents;
}

/** The released file `path` of `version`, checked against its recorded hash: throws when it is not what was released. */
export function releasedFile(cwd: string, record: ReleaseRecord, version: string, path: string): string {
  const entry = record[version];
  const hash = entry?.files[path];
  if (!entry || !hash) throw new Error(`the release record has no ${path} for ${version}`);
  const contents = showFile(cwd, entry.commit, path);
  if (!contents) throw new Error(`${version}: commit ${entry.commit} has no ${path} (is this clone shallow?)`);
  if (sha256(contents) !== hash)
    throw new Error(`${version}: ${path} at ${entry.commit} has sha256 ${sha256(contents)}, released ${hash}`);
  return contents.toString('utf8');
}

/** What was asked of the history at a full commit hash, which never changes: each asked once per process. */
const asked = new Map<string, unknown>();
function once<T>(key: string, ask: () => T): T {
  if (!asked.has(key)) asked.set(key, ask());
  return asked.get(key) as T;
}

function isAncestor(cwd: string, commit: string, of: string): boolean {
  return once(`${cwd}\0ancestor ${commit} ${of}`, () => {
    try {
      git(cwd, ['merge-base', '--is-ancestor', commit, of]);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * What is wrong with the record: a commit that is not in the history of `head` (main), a released file missing at its
 * commit or not what was released, a hash `SHA256SUMS` does not repeat (or one it has that the record lacks), an
 * `info.version` at the commit that is not the version, and an entry that an earlier state of the record had otherwise
 * (a release is never rewritten).
 */
export function recordProblems(
  options: { cwd?: string; record?: ReleaseRecord; hashes?: Map<string, string>; head?: string } = {},
): string[] {
  const cwd = options.cwd ?? ROOT;
  const record = options.record ?? readRecord();
  const hashes = options.hashes ?? readHashes();
  let head: string;
  try {
    head = git(cwd, ['rev-parse', '--verify', options.head ?? 'HEAD']);
  } catch {
    return [`${cwd} is not a git checkout with history: the releases are read from the commits the record names`];
  }
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const [version, entry] of Object.entries(record)) {
    for (const path of Object.keys(entry.files)) listed.add(`${version}/${basename(path)}`);
    if (!isAncestor(cwd, entry.commit, head)) {
      problems.push(`${version}: commit ${entry.commit} is not in the history of ${options.head ?? 'HEAD'}`);
      continue;
    }
    for (const [path, hash] of Object.entries(entry.files)) {
      if (hashes.get(`${version}/${basename(path)}`) !== hash)
        problems.push(`${version}: releases/SHA256SUMS does not have ${path}'s ${hash}`);
      const contents = showFile(cwd, entry.commit, path);
      if (!contents) problems.push(`${version}: commit ${entry.commit} has no ${path}`);
      else if (sha256(contents) !== hash)
        problems.push(`${version}: ${path} at ${entry.commit} has sha256 ${sha256(contents)}, released ${hash}`);
      else if (path.endsWith('.json')) {
        const stated = (JSON.parse(contents.toString('utf8')) as { info?: { version?: string } }).info?.version;
        if (stated !== version) problems.push(`${version}: ${path} at ${entry.commit} has info.version ${stated}`);
      }
    }
  }
  for (const key of hashes.keys())
    if (!listed.has(key)) problems.push(`releases/SHA256SUMS has ${key}, which the record lacks`);
  return [...problems, ...rewrittenEntries(cwd, record, head)];
}

/** Entries of earlier states of the record (its git history) that the current one changes or drops. */
function rewrittenEntries(cwd: string, record: ReleaseRecord, head: string): string[] {
  const file = 'releases/RELEASES.json';
  const commits = once(`${cwd}\0log ${head}`, () =>
    git(cwd, ['log', '--format=%H', head, '--', file]).split('\n').filter(Boolean),
  );
  // The hashes by file name: the record keyed files by name before it named their paths.
  const normal = (entry: ReleaseEntry) =>
    JSON.stringify([
      entry.commit,
      Object.entries(entry.files)
        .map(([path, hash]) => [basename(path), hash])
        .sort(),
    ]);
  // One problem per version, from the latest state of the record that had it (git log lists the newest first).
  const problems = new Map<string, string>();
  for (const commit of commits) {
    const earlier = showFile(cwd, commit, file);
    if (!earlier) continue;
    for (const [version, entry] of Object.entries(parseRecord(earlier.toString('utf8')))) {
      const now = record[version];
      if (problems.has(version) || (now && normal(now) === normal(entry))) continue;
      problems.set(
        version,
        now
          ? `${version}'s record was changed after ${commit.slice(0, 12)}`
          : `${version} was recorded (commit ${commit.slice(0, 12)}) and is no longer`,
      );
    }
  }
  return [...problems.values()];
}

export function headCommit(cwd: string): string {
  return git(cwd, ['rev-parse', 'HEAD']);
}

/** Paths under `paths` with uncommitted changes: a release commits them, so nothing else may be pending there. */
export function uncommitted(cwd: string, paths: string[]): string[] {
  return git(cwd, ['status', '--porcelain', '--', ...paths])
    .split('\n')
    .filter(Boolean);
}

/** The tags of a contract release and of package versions: `contract-v0.6.0`, `@service-api/types@0.6.0`. */
export function releaseTags(contractVersion: string | undefined, packages: { name: string; version: string }[]) {
  return [
    ...(contractVersion === undefined ? [] : [`contract-v${contractVersion}`]),
    ...packages.map((p) => `${p.name}@${p.version}`),
  ];
}

/** Creates each tag the repository lacks at `commit` (lightweight tags); returns the ones created. */
export function createMissingTags(cwd: string, tags: string[], commit: string): string[] {
  const existing = new Set(git(cwd, ['tag', '--list']).split('\n'));
  const missing = tags.filter((tag) => !existing.has(tag));
  for (const tag of missing) git(cwd, ['tag', tag, commit]);
  return missing;
}
