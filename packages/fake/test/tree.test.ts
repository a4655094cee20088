/**
 * The fake's commit trees (packages/fake/src/tree.ts): a persistent hash trie whose commits share every node their change did
 * not touch, read and changed like a map of paths.
 */
import { describe, expect, it } from 'vitest';
import { defaultData } from '../src/index.ts';
import { Store } from '../src/store.ts';
import {
  changedPaths,
  EMPTY_TREE,
  entryOf,
  recordOf,
  treeOf,
  treePaths,
  withChanges,
  type Tree,
  type TreeEntry,
} from '../src/tree.ts';

const entry = (blob: string): TreeEntry => ({ blob_id: blob, execute_filemode: false, last_commit_id: 'c' });

/** Every node object of a tree (its internal layout: nodes hold `slots`). */
function nodesOf(tree: Tree): Set<object> {
  const nodes = new Set<object>();
  const walk = (slot: unknown) => {
    if (typeof slot !== 'object' || slot === null || !('slots' in slot)) return;
    nodes.add(slot);
    for (const child of (slot as { slots: unknown[] }).slots) walk(child);
  };
  walk(tree.root);
  return nodes;
}

describe('a tree', () => {
  const many = withChanges(
    EMPTY_TREE,
    Array.from({ length: 5000 }, (_, i) => [`dir-${i % 50}/file-${i}.txt`, entry(`b${i}`)] as [string, TreeEntry]),
  );

  it.each([
    {
      title: 'sets, overwrites and deletes paths',
      changes: [
        ['a', entry('1')],
        ['b/c', entry('2')],
        ['a', entry('3')],
        ['b/c', null],
      ] as [string, TreeEntry | null][],
      paths: ['a'],
      at: ['a', '3'],
    },
    {
      title: 'takes `__proto__` and `constructor` as paths like any other',
      changes: [
        ['__proto__', entry('p')],
        ['constructor', entry('k')],
      ] as [string, TreeEntry | null][],
      paths: ['__proto__', 'constructor'],
      at: ['__proto__', 'p'],
    },
    {
      title: 'deleting a path that is not there changes nothing',
      changes: [
        ['x', entry('1')],
        ['y', null],
      ] as [string, TreeEntry | null][],
      paths: ['x'],
      at: ['x', '1'],
    },
  ])('$title', ({ changes, paths, at }) => {
    const tree = withChanges(EMPTY_TREE, changes);
    expect(treePaths(tree)).toEqual(paths);
    expect(tree.size).toBe(paths.length);
    expect(entryOf(tree, at[0]!)?.blob_id).toBe(at[1]);
    expect(recordOf(treeOf(recordOf(tree)))).toEqual(recordOf(tree));
  });

  it('holds thousands of paths and finds each', () => {
    expect(many.size).toBe(5000);
    for (const i of [0, 1, 2500, 4999]) expect(entryOf(many, `dir-${i % 50}/file-${i}.txt`)?.blob_id).toBe(`b${i}`);
    expect(entryOf(many, 'dir-0/file-1.txt')).toBeUndefined();
  });

  it('a change copies only the nodes on its way: every other node is the same object as before', () => {
    const changed = withChanges(many, [['dir-7/file-7.txt', entry('new')]]);
    const before = nodesOf(many);
    const copied = [...nodesOf(changed)].filter((node) => !before.has(node));
    expect(nodesOf(changed).size).toBeGreaterThan(30);
    expect(copied.length).toBeGreaterThan(0);
    expect(copied.length).toBeLessThanOrEqual(7); // one per level: 32-bit hashes, 5 bits a level
    expect(entryOf(many, 'dir-7/file-7.txt')?.blob_id).toBe('b7'); // the old tree is as it was
    expect(changedPaths(many, changed)).toEqual(['dir-7/file-7.txt']);
    expect(
      changedPaths(
        changed,
        withChanges(changed, [
          ['dir-7/file-7.txt', null],
          ['z', entry('z')],
        ]),
      ),
    ).toEqual(['dir-7/file-7.txt', 'z']);
  });

  it('two commits of the fake share what the second did not change', () => {
    const store = new Store(defaultData());
    const project = store.project(1)!;
    const head = store.resolveRef(project, 'main')!;
    const next = store.commit(project, {
      parent: head.id,
      message: 'One more',
      author: undefined,
      changes: { 'docs/new.md': { content: Buffer.from('new\n').toString('base64'), execute_filemode: false } },
    });
    const shared = [...nodesOf(next.tree)].filter((node) => nodesOf(head.tree).has(node));
    expect(treePaths(next.tree)).toEqual([...treePaths(head.tree), 'docs/new.md'].sort());
    expect(nodesOf(next.tree).size - shared.length).toBeLessThanOrEqual(7);
  });
});
