/**
 * Changelogs generated from the commits' trailers: the commits after `from` (excluded; default: the tag of the last
 * stable version before `version`) up to `to` (included; default: the branch) whose message ends with a
 * `<trailer>: <category>` line (`Changelog` by default, case-sensitive) become Markdown entries grouped by category
 * under `## X.Y.Z (date)`. GET returns the section as `notes`; POST also commits it into `file` on `branch`, placed
 * before the first older version already there (a version already there is left as it is: 200, nothing committed).
 */
import type { Handler, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import { FORBIDDEN, message, PROJECT_NOT_FOUND, parseIso8601DateTime, rawQuery } from '../../common.ts';
import { commitsBetween, resolveRef, titleOf } from '../../repository-history.ts';
import type { Project, Store } from '../../store.ts';
import { entryOf, type Commit } from '../../tree.ts';

/** The commit range a changelog reads at most. */
export const CHANGELOG_COMMIT_LIMIT = 15000;

const categoryTitles: Record<string, string> = {
  added: 'Added',
  fixed: 'Fixed',
  changed: 'Changed',
  deprecated: 'Deprecated',
  removed: 'Removed',
  security: 'Security',
  performance: 'Performance',
  other: 'Other',
};

const bad = (text: string) => ({ status: 400 as const, body: message(`400 Bad request - ${text}`) });

type Version = [number, number, number, string];

/** `X.Y.Z` with an optional `v`, pre-release and build part; undefined for anything else. */
function parseVersion(text: string): Version | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3]), match[4] ?? ''] : undefined;
}

/** Semantic-version order (a pre-release comes before its release). */
function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  if (a[3] === b[3]) return 0;
  if (a[3] === '') return 1;
  if (b[3] === '') return -1;
  return a[3] < b[3] ? -1 : 1;
}

/** The value of the last `name: value` trailer of a message's final paragraph. */
function trailerOf(commit: Commit, name: string): string | undefined {
  const paragraphs = commit.message.trim().split(/\n\s*\n/);
  if (paragraphs.length < 2) return undefined;
  let value: string | undefined;
  for (const line of paragraphs[paragraphs.length - 1]!.split('\n')) {
    const at = line.indexOf(':');
    if (at > 0 && line.slice(0, at) === name) value = line.slice(at + 1).trim();
  }
  return value === '' ? undefined : value;
}

interface Options {
  version: string;
  branch?: string;
  from?: string;
  to?: string;
  trailer?: string;
  date?: string;
}

/** The Markdown section of the version, or the 400/404 that stops it. */
const generate = (
  store: Store,
  project: Project,
  options: Options,
): { notes: string; branch: string; version: Version } | { status: 400 | 404; body: { message: string } } => {
  const version = parseVersion(options.version);
  if (!version) return bad('version is invalid');
  const branch = options.branch ?? project.default_branch;
  if (!Object.hasOwn(project.repository.branches, branch)) return bad(`branch ${branch} does not exist`);
  const to = resolveRef(store, project, options.to ?? branch);
  if (!to) return bad('to is invalid');
  let from: Commit | undefined;
  if (options.from !== undefined) {
    from = resolveRef(store, project, options.from);
    if (!from) return bad('from is invalid');
  } else {
    const previous = Object.entries(project.repository.tags ?? {})
      .map(([name, id]) => ({ id, version: /^v?\d+\.\d+\.\d+$/.test(name) ? parseVersion(name) : undefined }))
      .filter(
        (tag): tag is { id: string; version: Version } =>
          tag.version !== undefined && compareVersions(tag.version, version) < 0,
      )
      .sort((a, b) => compareVersions(a.version, b.version))
      .pop();
    from = previous && store.findCommit(project, previous.id);
    if (!from) return bad('The commit start range is unspecified, and no previous tag could be found to use instead');
  }
  const trailer = options.trailer ?? 'Changelog';
  const categories = new Map<string, Commit[]>();
  for (const commit of commitsBetween([project], from, to).slice(-CHANGELOG_COMMIT_LIMIT)) {
    const category = trailerOf(commit, trailer);
    if (category !== undefined) categories.set(category, [...(categories.get(category) ?? []), commit]);
  }
  const when = new Date(options.date === undefined ? store.now() : parseIso8601DateTime(options.date));
  if (Number.isNaN(when.getTime())) return bad('date is invalid');
  const date = when.toISOString().slice(0, 10);
  const path = store.projectPath(project);
  const sections = [...categories].map(([category, commits]) => {
    const title = categoryTitles[category] ?? category;
    const entries = commits.map((c) => `- [${titleOf(c.message)}](${path}@${c.id})`).join('\n');
    return `### ${title} (${commits.length} ${commits.length === 1 ? 'change' : 'changes'})\n\n${entries}\n`;
  });
  const name = `${version[0]}.${version[1]}.${version[2]}${version[3] ? `-${version[3]}` : ''}`;
  return {
    notes: `## ${name} (${date})\n\n${sections.length > 0 ? sections.join('\n') : 'No changes.\n'}`,
    branch,
    version,
  };
};

/** The file with the section placed before the first older version, or undefined when the version is there. */
const insert = (existing: string, section: string, version: Version): string | undefined => {
  const headers = [...existing.matchAll(/^## (v?\d+\.\d+\.\d+\S*)/gm)];
  if (headers.some((h) => compareVersions(parseVersion(h[1]!) ?? [-1, -1, -1, ''], version) === 0)) return undefined;
  const older = headers.find((h) => compareVersions(parseVersion(h[1]!) ?? [-1, -1, -1, ''], version) < 0);
  if (older) return `${existing.slice(0, older.index)}${section}\n${existing.slice(older.index)}`;
  return existing === '' ? section : `${existing.replace(/\n*$/, '\n\n')}${section}`;
};

const getChangelog =
  (store: Store): Handler<'repository/get-changelog', Principal> =>
  ({ params, query }, { principal, request }) => {
    const project = store.findProject(params.id);
    if (!project || !store.canReadRepository(project, principal.user)) return PROJECT_NOT_FOUND;
    // `to` and `trailer` mean what they mean for POST; the GET documents the parameters up to `from` only.
    const raw = rawQuery(request);
    const result = generate(store, project, {
      ...query,
      to: raw.get('to') ?? undefined,
      trailer: raw.get('trailer') ?? undefined,
    });
    return 'status' in result ? result : { status: 200, body: { notes: result.notes } };
  };

const createChangelog =
  (store: Store): Handler<'repository/create-changelog', Principal> =>
  ({ params, body }, { principal }) => {
    const project = store.findProject(params.id);
    if (!project || !store.canRead(project, principal.user)) return PROJECT_NOT_FOUND;
    if (!store.hasAccess(project, principal.user, 30)) return FORBIDDEN;
    const result = generate(store, project, body);
    if ('status' in result) return result;
    const file = body.file ?? 'CHANGELOG.md';
    if (`/${file}/`.includes('/../') || file.startsWith('/') || file === '') return bad('file is invalid');
    const head = store.findCommit(project, project.repository.branches[result.branch]!)!;
    const entry = entryOf(head.tree, file);
    const existing = entry ? Buffer.from(project.repository.blobs[entry.blob_id] ?? '', 'base64').toString('utf8') : '';
    const content = insert(existing, result.notes, result.version);
    if (content === undefined) return { status: 200, body: {} }; // the version is there already: nothing is added
    const commit = store.commit(project, {
      parent: head.id,
      message: body.message ?? `Add changelog for version ${body.version.replace(/^v/, '')}`,
      author: principal.user,
      changes: {
        [file]: {
          content: Buffer.from(content).toString('base64'),
          execute_filemode: entry?.execute_filemode ?? false,
        },
      },
    });
    project.repository.branches[result.branch] = commit.id;
    return { status: 200, body: {} };
  };

export function changelogHandlers(store: Store): Handlers<Principal> {
  return {
    'repository/get-changelog': getChangelog(store),
    'repository/create-changelog': createChangelog(store),
  };
}
