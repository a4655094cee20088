/**
 * Blame over the real history of a file: each line is attributed to the commit that last changed it (a line kept from a
 * parent's version goes on to that parent), consecutive lines of one commit form a range. HEAD on the blame path
 * answers exactly what HEAD on the file answers.
 */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import { message, paginate, PROJECT_NOT_FOUND } from '../../common.ts';
import { byDate, commitById, commitDetail, linesOf, unchangedLines } from '../../repository-history.ts';
import type { Project, Store } from '../../store.ts';
import { entryOf, type Commit } from '../../tree.ts';
import { repositoryHandlers } from './repository.ts';

const bad = (field: string, problem: string) => ({
  status: 400 as const,
  body: { message: `400 Bad request - ${field} ${problem}`, errors: [{ in: 'query', field, problem }] },
});

/**
 * The commit id of each line of `path` as it is at `at`. The versions of the file (each written by its entry's
 * `last_commit_id`) are blamed oldest first, so a version's parents are done before it: no recursion, each version once.
 */
function blameLines(project: Project, at: Commit, path: string): string[] {
  const text = (commit: Commit) =>
    Buffer.from(project.repository.blobs[entryOf(commit.tree, path)!.blob_id] ?? '', 'base64').toString('utf8');
  const originOf = (commit: Commit) => commitById(project, entryOf(commit.tree, path)!.last_commit_id) ?? commit;
  const parentsOf = (commit: Commit) =>
    commit.parent_ids
      .map((id) => commitById(project, id))
      .filter((p): p is Commit => p !== undefined && entryOf(p.tree, path) !== undefined);
  const versions = new Map<string, Commit>();
  const stack = [originOf(at)];
  while (stack.length > 0) {
    const origin = stack.pop()!;
    if (versions.has(origin.id)) continue;
    versions.set(origin.id, origin);
    for (const parent of parentsOf(origin)) stack.push(originOf(parent));
  }
  const owners = new Map<string, string[]>();
  for (const origin of [...versions.values()].sort(byDate)) {
    const lines = linesOf(text(origin));
    let own = lines.map(() => origin.id);
    for (const parent of parentsOf(origin)) {
      const parentOwners = owners.get(originOf(parent).id);
      if (!parentOwners) continue;
      if (entryOf(parent.tree, path)!.blob_id === entryOf(origin.tree, path)!.blob_id) {
        own = [...parentOwners]; // a merge that took this parent's version as it was
        break;
      }
      unchangedLines(linesOf(text(parent)), lines)?.forEach((from, index) => {
        if (from >= 0 && own[index] === origin.id) own[index] = parentOwners[from]!;
      });
    }
    owners.set(origin.id, own);
  }
  return owners.get(originOf(at).id)!;
}

/** The commit fields of a blame range. */
function blameCommit(commit: Commit) {
  const { short_id: _short, title: _title, created_at: _created, ...fields } = commitDetail(commit);
  return fields;
}

/** Blames kept per store (commits never change): the pages of one blame are cut from one computation. */
const CACHED_BLAMES = 64;

export function blameHandlers(store: Store): Handlers<Principal> {
  const files = repositoryHandlers(store);
  const cache = new Map<string, string[]>();
  const cachedBlame = (project: Project, commit: Commit, path: string) => {
    const key = `${project.id}\0${commit.id}\0${path}`;
    const owners = cache.get(key) ?? blameLines(project, commit, path);
    cache.delete(key);
    cache.set(key, owners);
    if (cache.size > CACHED_BLAMES) cache.delete(cache.keys().next().value!);
    return owners;
  };
  return {
    'repository/get-file-blame': ({ params, query }, { principal, request }) => {
      const project = store.findProject(params.id);
      if (!project || !store.canReadRepository(project, principal?.user)) return PROJECT_NOT_FOUND;
      const start = query['range[start]'];
      const end = query['range[end]'];
      if ((start === undefined) !== (end === undefined))
        return bad(start === undefined ? 'range[start]' : 'range[end]', 'is missing');
      if (start !== undefined && start < 1) return bad('range[start]', 'must be greater than or equal to 1');
      if (start !== undefined && end !== undefined && end < start)
        return bad('range[end]', 'must be greater than or equal to range[start]');
      const commit = store.resolveRef(project, query.ref);
      const entry = commit && entryOf(commit.tree, params.file_path);
      if (!entry) return { status: 404, body: message('404 File Not Found') };
      const lines = linesOf(Buffer.from(project.repository.blobs[entry.blob_id] ?? '', 'base64').toString('utf8'));
      const owners = cachedBlame(project, commit, params.file_path);
      const first = start === undefined ? 0 : start - 1;
      const last = end === undefined ? lines.length : Math.min(end, lines.length);
      const ranges: { commit: ReturnType<typeof blameCommit>; lines: string[] }[] = [];
      let previous: string | undefined;
      for (let index = first; index < last; index++) {
        if (owners[index] !== previous) {
          previous = owners[index]!;
          ranges.push({ commit: blameCommit(commitById(project, previous)!), lines: [] });
        }
        ranges[ranges.length - 1]!.lines.push(lines[index]!);
      }
      const page = paginate(ranges, query, request);
      return { status: 200, body: page.items, headers: page.headers };
    },
    'repository/get-file-blame-metadata': (input, context) =>
      files['repository/get-file-metadata']!(input as never, context as never),
  };
}
