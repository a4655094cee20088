/**
 * Compare, merge base and contributors over the real commits. Compare diffs the tree of `to` against the tree of
 * `from` (`straight=true`) or of their merge base (default), and lists the commits reachable from `to` and not from
 * `from`, oldest first. Diffs stop at a work budget: past it a diff is empty and `compare_timeout` is true.
 */
import { structuredPatch } from 'diff';
import type { Handler, Handlers } from '@service-api/server';
import { perStore } from '../../common.ts';
import type { Principal } from '../../auth.ts';
import { message, paginate, PROJECT_NOT_FOUND, webBase } from '../../common.ts';
import {
  commitById,
  commitDetail,
  commitsBetween,
  linesOf,
  MAX_EDIT_LENGTH,
  mergeBase,
  resolveRef,
  shortId,
  titleOf,
  unchangedLines,
} from '../../repository-history.ts';
import type { Project, Store } from '../../store.ts';
import { changedPaths, EMPTY_TREE, entryOf, type Commit, type Tree, type TreeEntry } from '../../tree.ts';

/** Lines a compare may diff in all; past it the remaining diffs are empty and the comparison counts as timed out. */
export const COMPARE_LINE_BUDGET = 100_000;

const compareCommit = (commit: Commit) => ({
  id: commit.id,
  short_id: shortId(commit.id),
  title: titleOf(commit.message),
  author_name: commit.author_name,
  author_email: commit.author_email,
  created_at: commit.created_at,
});
const modeOf = (entry: TreeEntry | undefined) =>
  entry === undefined ? '0' : entry.execute_filemode ? '100755' : '100644';

/** The hunks of a unified diff, as the API shows them (no file header lines); undefined past the diff limit. */
function unifiedDiff(before: string, after: string): string | undefined {
  if (before.includes('\0') || after.includes('\0')) return '';
  const patch = structuredPatch('a', 'b', before, after, undefined, undefined, {
    context: 3,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (!patch) return undefined;
  // As git prints them: no count when it is 1, and an empty side starts at the line before.
  const range = (start: number, count: number) =>
    count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;
  return patch.hunks
    .map((h) => `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@\n${h.lines.join('\n')}\n`)
    .join('');
}

/** The changes of every path whose blob or mode differs between two trees, by path. */
function treeDiffs(projects: Project[], beforeTree: Tree, afterTree: Tree) {
  const paths = changedPaths(beforeTree, afterTree);
  let budget = COMPARE_LINE_BUDGET;
  let timedOut = false;
  const text = (entry: TreeEntry | undefined) => {
    const content = entry && projects.map((p) => p.repository.blobs[entry.blob_id]).find((c) => c !== undefined);
    return Buffer.from(content ?? '', 'base64').toString('utf8');
  };
  const diffs = [];
  for (const path of paths) {
    const a = entryOf(beforeTree, path);
    const b = entryOf(afterTree, path);
    if (a && b && a.blob_id === b.blob_id && a.execute_filemode === b.execute_filemode) continue;
    const oldText = text(a);
    const newText = text(b);
    budget -= linesOf(oldText).length + linesOf(newText).length;
    if (budget < 0) timedOut = true;
    const diff = timedOut ? '' : (unifiedDiff(oldText, newText) ?? '');
    diffs.push({
      old_path: path,
      new_path: path,
      a_mode: modeOf(a),
      b_mode: modeOf(b),
      diff,
      new_file: a === undefined,
      renamed_file: false,
      deleted_file: b === undefined,
    });
  }
  return { diffs, timedOut };
}

/** A diff in the unified format (`unidiff=true`): its hunks after git's `--- a/…` and `+++ b/…` lines. */
function withFileHeader<
  T extends { old_path: string; new_path: string; diff: string; new_file: boolean; deleted_file: boolean },
>(change: T): T {
  if (change.diff === '') return change;
  const before = change.new_file ? '/dev/null' : `a/${change.old_path}`;
  const after = change.deleted_file ? '/dev/null' : `b/${change.new_path}`;
  return { ...change, diff: `--- ${before}\n+++ ${after}\n${change.diff}` };
}

/** Lines added and deleted by a commit against its first parent (a merge commit counts none, as `git log --numstat`). */
function lineStats(project: Project, commit: Commit): { additions: number; deletions: number } {
  if (commit.parent_ids.length > 1) return { additions: 0, deletions: 0 };
  const parentTree =
    (commit.parent_ids[0] !== undefined && commitById(project, commit.parent_ids[0])?.tree) || EMPTY_TREE;
  const lines = (entry: TreeEntry | undefined) =>
    entry ? linesOf(Buffer.from(project.repository.blobs[entry.blob_id] ?? '', 'base64').toString('utf8')) : [];
  let additions = 0;
  let deletions = 0;
  for (const path of changedPaths(parentTree, commit.tree)) {
    const a = entryOf(parentTree, path);
    const b = entryOf(commit.tree, path);
    if (a?.blob_id === b?.blob_id) continue;
    const before = lines(a);
    const after = lines(b);
    const kept = unchangedLines(before, after);
    const unchanged = kept === undefined ? 0 : kept.filter((i) => i >= 0).length;
    additions += after.length - unchanged;
    deletions += before.length - unchanged;
  }
  return { additions, deletions };
}

// A commit's line counts never change: each is diffed once per store.
const knownStats = perStore(() => new Map<string, { additions: number; deletions: number }>());
const statsOf = (store: Store, project: Project, commit: Commit) => {
  const known = knownStats(store).get(commit.id) ?? lineStats(project, commit);
  knownStats(store).set(commit.id, known);
  return known;
};
const readable = (store: Store, id: string | number, principal: Principal | undefined): Project | undefined => {
  const project = store.findProject(id);
  return project && store.canReadRepository(project, principal?.user) ? project : undefined;
};

const compare =
  (store: Store): Handler<'repository/compare', Principal> =>
  ({ params, query }, { principal }) => {
    const project = readable(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const source = query.from_project_id === undefined ? project : readable(store, query.from_project_id, principal);
    if (!source) return PROJECT_NOT_FOUND;
    const from = resolveRef(store, source, query.from);
    const to = resolveRef(store, project, query.to);
    if (!from || !to) return { status: 404, body: message('404 Ref Not Found') };
    const projects = source === project ? [project] : [project, source];
    const base = query.straight === true ? from : mergeBase(projects, [from, to]);
    const commits = commitsBetween(projects, from, to).map(compareCommit);
    const { diffs, timedOut } = treeDiffs(projects, base?.tree ?? EMPTY_TREE, to.tree);
    const path = store.projectPath(project);
    return {
      status: 200,
      body: {
        commit: commits[commits.length - 1] ?? compareCommit(to),
        commits,
        diffs: query.unidiff === true ? diffs.map(withFileHeader) : diffs,
        compare_timeout: timedOut,
        compare_same_ref: from.id === to.id,
        web_url: `${webBase(store)}/${path}/-/compare/${encodeURIComponent(query.from)}${query.straight === true ? '..' : '...'}${encodeURIComponent(query.to)}`,
      },
    };
  };

const getMergeBase =
  (store: Store): Handler<'repository/get-merge-base', Principal> =>
  ({ params, query }, { principal }) => {
    const project = readable(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const refs = query['refs[]'];
    if (refs.length < 2) return { status: 400, body: message('400 Bad request - Provide at least 2 refs') };
    const unknown = refs.filter((ref) => !resolveRef(store, project, ref));
    if (unknown.length > 0)
      return {
        status: 400,
        body: message(
          `400 Bad request - Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}`,
        ),
      };
    const base = mergeBase(
      [project],
      refs.map((ref) => resolveRef(store, project, ref)!),
    );
    return base
      ? { status: 200, body: commitDetail(base) }
      : { status: 404, body: message('404 Merge Base Not Found') };
  };

const listContributors =
  (store: Store): Handler<'repository/list-contributors', Principal> =>
  ({ params, query }, { principal, request }) => {
    const project = readable(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const head = store.resolveRef(project, undefined);
    const byEmail = new Map<
      string,
      { name: string; email: string; commits: number; additions: number; deletions: number }
    >();
    for (const commit of head ? commitsBetween([project], undefined, head) : []) {
      const key = commit.author_email.toLowerCase();
      const entry = byEmail.get(key) ?? {
        name: commit.author_name,
        email: commit.author_email,
        commits: 0,
        additions: 0,
        deletions: 0,
      };
      const counted = statsOf(store, project, commit);
      entry.commits += 1;
      entry.additions += counted.additions;
      entry.deletions += counted.deletions;
      byEmail.set(key, entry);
    }
    const orderBy = query.order_by ?? 'commits';
    const direction = query.sort === 'desc' ? -1 : 1;
    const contributors = [...byEmail.values()].sort((a, b) => {
      const x = a[orderBy];
      const y = b[orderBy];
      const primary = x < y ? -1 : x > y ? 1 : 0;
      return (primary || (a.email < b.email ? -1 : a.email > b.email ? 1 : 0)) * direction;
    });
    const page = paginate(contributors, query, request);
    return { status: 200, body: page.items, headers: page.headers };
  };

export function compareHandlers(store: Store): Handlers<Principal> {
  return {
    'repository/compare': compare(store),
    'repository/get-merge-base': getMergeBase(store),
    'repository/list-contributors': listContributors(store),
  };
}
