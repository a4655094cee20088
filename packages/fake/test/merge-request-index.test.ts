/**
 * The store's index of merge requests by project and source branch (what a create checks for a second open merge
 * request): it follows appends, deletes, a replaced list and a changed state, always as a scan of the list would.
 * (The fake only appends, deletes or replaces the list; it never puts one merge request in the place of another.)
 */
import { describe, expect, it } from 'vitest';
import type { FakeMergeRequest } from '../src/data.ts';
import { defaultData } from '../src/index.ts';
import { Store } from '../src/store.ts';

const mr = (id: number, project_id: number, source_branch: string): FakeMergeRequest => ({
  id,
  iid: id,
  project_id,
  title: `MR ${id}`,
  state: 'opened',
  author_id: 1,
  source_branch,
  target_branch: 'main',
});

/** What a scan of every merge request gives, the index's reference. */
const scanned = (store: Store, project: number, branch: string) =>
  store.data.merge_requests.filter((m) => m.project_id === project && m.source_branch === branch).map((m) => m.id);
const indexed = (store: Store, project: number, branch: string) =>
  store.mergeRequestsFrom(project, branch).map((m) => m.id);

const changes: [string, (list: FakeMergeRequest[], store: Store) => void][] = [
  ['appended', (list) => list.push(mr(9002, 1, 'a'), mr(9003, 2, 'a'))],
  ['the first deleted', (list) => list.splice(0, 1)],
  ['the last deleted', (list) => list.pop()],
  ['one deleted, then one appended (the same length)', (list) => list.splice(0, 1) && list.push(mr(9005, 1, 'a'))],
  ['the list replaced', (_list, store) => (store.data.merge_requests = [mr(9006, 1, 'a')])],
  ['emptied', (list) => list.splice(0)],
];

describe('mergeRequestsFrom', () => {
  it.each(changes)('matches a scan after the list was %s', (_what, change) => {
    const store = new Store(defaultData());
    store.data.merge_requests.push(mr(9000, 1, 'a'), mr(9001, 1, 'b'));
    for (const [project, branch] of [
      [1, 'a'],
      [1, 'b'],
      [2, 'a'],
    ] as const)
      expect(indexed(store, project, branch)).toEqual(scanned(store, project, branch));
    change(store.data.merge_requests, store);
    for (const [project, branch] of [
      [1, 'a'],
      [1, 'b'],
      [2, 'a'],
    ] as const)
      expect(indexed(store, project, branch)).toEqual(scanned(store, project, branch));
  });

  it('gives the records themselves, so a closed one reads as closed', () => {
    const store = new Store(defaultData());
    const open = mr(9000, 1, 'a');
    store.data.merge_requests.push(open);
    expect(store.mergeRequestsFrom(1, 'a')[0]!.state).toBe('opened');
    open.state = 'closed';
    expect(store.mergeRequestsFrom(1, 'a')[0]!.state).toBe('closed');
  });
});
