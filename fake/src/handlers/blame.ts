/**
 * Blame over the real history of a file: each line is attributed to the commit that last changed it (a line kept from a
 * parent's version goes on to that parent), consecutive lines of one commit form a range. HEAD on the blame path
 * answers exactly what HEAD on the file answers.
 */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../auth.ts';
import type { FakeCommit } from '../data.ts';
import { message, paginate, PROJECT_NOT_FOUND } from '../common.ts';
import { commitDetail, linesOf, unchangedLines } from '../repository-history.ts';
import type { Project, Store } from '../store.ts';
import { repositoryHandlers } from './repository.ts';

const bad = (field: string, problem: string) => ({ status: 400 as const, body: { message: `400 Bad request - ${field} ${problem}`, errors: [{ in: 'query', field, problem }] } });

/** The commit id of each line of `path` as it is at `at`. */
function blameLines(store: Store, project: Project, at: FakeCommit, path: string): string[] {
  const memo = new Map<string, string[]>();
  const text = (commit: FakeCommit) => Buffer.from(project.repository.blobs[commit.tree[path]!.blob_id] ?? '', 'base64').toString('utf8');
  const walk = (start: FakeCommit): string[] => {
    // The version at `start` was written by the entry's last commit: blame from there.
    const origin = store.findCommit(project, start.tree[path]!.last_commit_id) ?? start;
    const known = memo.get(origin.id);
    if (known) return known;
    const lines = linesOf(text(origin));
    const owners = lines.map(() => origin.id);
    for (const parentId of origin.parent_ids) {
      const parent = store.findCommit(project, parentId);
      if (!parent?.tree[path]) continue;
      const parentOwners = walk(parent);
      if (parent.tree[path].blob_id === origin.tree[path]!.blob_id) {
        // A merge that took this parent's version as it was.
        owners.splice(0, owners.length, ...parentOwners);
        break;
      }
      const kept = unchangedLines(linesOf(text(parent)), lines);
      kept?.forEach((from, index) => {
        if (from >= 0 && owners[index] === origin.id) owners[index] = parentOwners[from]!;
      });
    }
    memo.set(origin.id, owners);
    return owners;
  };
  return walk(at);
}

/** The commit fields of a blame range. */
function blameCommit(commit: FakeCommit) {
  const { short_id: _short, title: _title, created_at: _created, ...fields } = commitDetail(commit);
  return fields;
}

export function blameHandlers(store: Store): Handlers<Principal> {
  const files = repositoryHandlers(store);
  return {
    'repository/get-file-blame': ({ params, query }, { principal, request }) => {
      const project = store.findProject(params.id);
      if (!project || !store.canReadRepository(project, principal?.user)) return PROJECT_NOT_FOUND;
      const start = query['range[start]'];
      const end = query['range[end]'];
      if ((start === undefined) !== (end === undefined)) return bad(start === undefined ? 'range[start]' : 'range[end]', 'is missing');
      if (start !== undefined && start < 1) return bad('range[start]', 'must be greater than or equal to 1');
      if (start !== undefined && end !== undefined && end < start) return bad('range[end]', 'must be greater than or equal to range[start]');
      const commit = store.resolveRef(project, query.ref);
      if (!commit?.tree[params.file_path]) return { status: 404, body: message('404 File Not Found') };
      const lines = linesOf(Buffer.from(project.repository.blobs[commit.tree[params.file_path]!.blob_id] ?? '', 'base64').toString('utf8'));
      const owners = blameLines(store, project, commit, params.file_path);
      const first = start === undefined ? 0 : start - 1;
      const last = end === undefined ? lines.length : Math.min(end, lines.length);
      const ranges: { commit: ReturnType<typeof blameCommit>; lines: string[] }[] = [];
      let previous: string | undefined;
      for (let index = first; index < last; index++) {
        if (owners[index] !== previous) {
          previous = owners[index]!;
          ranges.push({ commit: blameCommit(store.findCommit(project, previous)!), lines: [] });
        }
        ranges[ranges.length - 1]!.lines.push(lines[index]!);
      }
      const page = paginate(ranges, query, request);
      return { status: 200, body: page.items, headers: page.headers };
    },
    'repository/get-file-blame-metadata': (input, context) => files['repository/get-file-metadata']!(input as never, context as never),
  };
}
