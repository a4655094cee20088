/**
 * Repository history over the store's real commits: refs resolved (branches, tags, commit ids), ancestry and merge
 * bases, line diffs, and commit records as the API shows them.
 */
import { diffArrays } from 'diff';
import type { Project, Store } from './store.ts';
import type { Commit } from './tree.ts';

/** A branch, a tag or a commit id (full or at least 7 hex characters); own keys only, so `__proto__` is no ref. */
export function resolveRef(store: Store, project: Project, ref: string): Commit | undefined {
  const { branches, tags = {} } = project.repository;
  const id = Object.hasOwn(branches, ref)
    ? branches[ref]
    : Object.hasOwn(tags, ref)
      ? tags[ref]
      : /^[0-9a-f]{7,40}$/.test(ref)
        ? ref
        : undefined;
  return id === undefined ? undefined : store.findCommit(project, id);
}

/** Commits by full id, per repository; rebuilt when commits were added (the list only grows). */
const indexes = new WeakMap<object, { size: number; byId: Map<string, Commit> }>();
export function commitById(project: Project, id: string): Commit | undefined {
  const commits = project.repository.commits;
  let index = indexes.get(commits);
  if (index?.size !== commits.length) {
    index = { size: commits.length, byId: new Map(commits.map((c) => [c.id, c])) };
    indexes.set(commits, index);
  }
  return index.byId.get(id);
}

/** Every commit reachable from `from` (itself included), looked up in `projects` (a compare across a fork reads two). */
export function ancestors(projects: Project[], from: Commit | undefined): Map<string, Commit> {
  const seen = new Map<string, Commit>();
  const stack = from ? [from] : [];
  while (stack.length > 0) {
    const commit = stack.pop()!;
    if (seen.has(commit.id)) continue;
    seen.set(commit.id, commit);
    for (const parent of commit.parent_ids) {
      const found = projects.map((p) => commitById(p, parent)).find((c) => c !== undefined);
      if (found && !seen.has(found.id)) stack.push(found);
    }
  }
  return seen;
}

/** Oldest first: the store's clock gives every commit its own second. */
export const byDate = (a: Commit, b: Commit) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1;

/**
 * The best common ancestor of the commits: the newest commit reachable from all of them (a descendant is always newer
 * than its ancestors, so no other common ancestor descends from it).
 */
export function mergeBase(projects: Project[], commits: Commit[]): Commit | undefined {
  let common: Map<string, Commit> | undefined;
  for (const commit of commits) {
    const reachable = ancestors(projects, commit);
    common = common === undefined ? reachable : new Map([...common].filter(([id]) => reachable.has(id)));
  }
  return [...(common?.values() ?? [])].sort(byDate).pop();
}

/** The commits reachable from `head` and not from `base`, oldest first. */
export function commitsBetween(projects: Project[], base: Commit | undefined, head: Commit): Commit[] {
  const excluded = ancestors(projects, base);
  return [...ancestors(projects, head).values()].filter((c) => !excluded.has(c.id)).sort(byDate);
}

/** The lines of a text, without their line ends (a final newline ends the last line, it does not start another). */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Above this many changed lines a line diff gives up (diff limits): the caller treats the file as rewritten. */
export const MAX_EDIT_LENGTH = 1000;

/**
 * For each line of `after`, the index of the same line in `before` when the line is unchanged, else -1; undefined
 * when the diff would exceed MAX_EDIT_LENGTH.
 */
export function unchangedLines(before: string[], after: string[]): number[] | undefined {
  // The common head and tail are matched directly (most commits change a few lines): only the middle is diffed.
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const changes = diffArrays(before.slice(head, before.length - tail), after.slice(head, after.length - tail), {
    maxEditLength: MAX_EDIT_LENGTH,
  });
  if (!changes) return undefined;
  const map: number[] = [];
  for (let i = 0; i < head; i++) map.push(i);
  let oldIndex = head;
  for (const change of changes) {
    const count = change.count ?? change.value.length;
    if (change.added) for (let i = 0; i < count; i++) map.push(-1);
    else if (change.removed) oldIndex += count;
    else for (let i = 0; i < count; i++) map.push(oldIndex++);
  }
  for (let i = 0; i < tail; i++) map.push(before.length - tail + i);
  return map;
}

export const shortId = (id: string) => id.slice(0, 8);
export const titleOf = (message: string) => message.split('\n')[0] ?? '';

/** A commit as blame ranges and the merge base show it (the fake's author is also the committer). */
export function commitDetail(commit: Commit) {
  return {
    id: commit.id,
    short_id: shortId(commit.id),
    title: titleOf(commit.message),
    created_at: commit.created_at,
    parent_ids: commit.parent_ids,
    message: commit.message,
    author_name: commit.author_name,
    author_email: commit.author_email,
    authored_date: commit.created_at,
    committer_name: commit.author_name,
    committer_email: commit.author_email,
    committed_date: commit.created_at,
  };
}
