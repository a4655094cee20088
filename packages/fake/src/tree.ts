/**
 * A commit's tree (path → blob id and mode) as a persistent hash trie: a commit that changes a few paths copies only
 * the few nodes on their way (at most 7 of 32 slots each) and shares every other node with its parent, so memory grows
 * with what was written, not with the number of commits times the size of the tree.
 */
import type { FakeCommit, FakeRepository } from './data.ts';

export interface TreeEntry {
  readonly blob_id: string;
  readonly execute_filemode: boolean;
  readonly last_commit_id: string;
}

interface Leaf {
  readonly path: string;
  readonly entry: TreeEntry;
}

/** Empty, one path, paths whose hash bits ran out (the deepest level), or a node one level down. */
type Slot = undefined | Leaf | readonly Leaf[] | TreeNode;

interface TreeNode {
  readonly slots: readonly Slot[];
}

export interface Tree {
  readonly root: TreeNode;
  readonly size: number;
}

/** A commit as the store keeps it: its tree shared with its parent's where unchanged. */
export type Commit = Omit<FakeCommit, 'tree'> & { tree: Tree };
export type Repository = Omit<FakeRepository, 'commits'> & { commits: Commit[] };

const BITS = 5;
const WIDTH = 1 << BITS;
/** Past this shift the 32-bit hash has no bits left: paths share a list. */
const LAST_SHIFT = 30;

const EMPTY_NODE: TreeNode = { slots: [] };
export const EMPTY_TREE: Tree = { root: EMPTY_NODE, size: 0 };

/** FNV-1a over the path's UTF-16 code units. */
function hashOf(path: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const isNode = (slot: Slot): slot is TreeNode => slot !== undefined && 'slots' in slot;
const slotAt = (hash: number, shift: number) => (hash >>> shift) & (WIDTH - 1);

/** A path's entry, or undefined. */
export function entryOf(tree: Tree, path: string): TreeEntry | undefined {
  const hash = hashOf(path);
  let slot: Slot = tree.root;
  for (let shift = 0; isNode(slot); shift += BITS) slot = slot.slots[slotAt(hash, shift)];
  if (slot === undefined) return undefined;
  if (Array.isArray(slot)) return (slot as readonly Leaf[]).find((leaf) => leaf.path === path)?.entry;
  const leaf = slot as Leaf;
  return leaf.path === path ? leaf.entry : undefined;
}

/** `slot` with `path` set to `leaf` (or removed when null); the same object when nothing changes. */
function put(slot: Slot, path: string, hash: number, leaf: Leaf | null, shift: number): Slot {
  if (slot === undefined) return leaf ?? undefined;
  if (isNode(slot)) {
    const at = slotAt(hash, shift);
    const child = slot.slots[at];
    const changed = put(child, path, hash, leaf, shift + BITS);
    if (changed === child) return slot;
    const slots = [...slot.slots];
    slots[at] = changed;
    return slots.some((s) => s !== undefined) ? { slots } : undefined;
  }
  if (Array.isArray(slot)) {
    const others = (slot as readonly Leaf[]).filter((l) => l.path !== path);
    const all = leaf ? [...others, leaf] : others;
    return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
  }
  const present = slot as Leaf;
  if (present.path === path) return leaf ?? undefined;
  if (!leaf) return present;
  if (shift > LAST_SHIFT) return [present, leaf];
  // Two paths in one slot: a node one level down holds both.
  const node = put(EMPTY_NODE, present.path, hashOf(present.path), present, shift);
  return put(node, path, hash, leaf, shift);
}

/** The tree with `changes` applied: an entry sets a path, null removes it. `tree` itself is left as it is. */
export function withChanges(tree: Tree, changes: Iterable<[string, TreeEntry | null]>): Tree {
  let { root, size } = tree;
  for (const [path, entry] of changes) {
    const had = entryOf({ root, size }, path) !== undefined;
    const hash = hashOf(path);
    root = (put(root, path, hash, entry ? { path, entry } : null, 0) as TreeNode | undefined) ?? EMPTY_NODE;
    size += (entry ? 1 : 0) - (had ? 1 : 0);
  }
  return { root, size };
}

/** Every path and its entry (in no particular order). */
export function treeEntries(tree: Tree): Generator<[string, TreeEntry]> {
  return slotEntries(tree.root);
}

function* slotEntries(top: Slot): Generator<[string, TreeEntry]> {
  const stack: Slot[] = [top];
  while (stack.length > 0) {
    const slot = stack.pop();
    if (slot === undefined) continue;
    if (isNode(slot)) stack.push(...slot.slots);
    else if (Array.isArray(slot)) for (const leaf of slot as readonly Leaf[]) yield [leaf.path, leaf.entry];
    else yield [(slot as Leaf).path, (slot as Leaf).entry];
  }
}

/** The paths whose entries differ between two trees, sorted; the nodes both share are skipped unread. */
export function changedPaths(before: Tree, after: Tree): string[] {
  const changed = new Set<string>();
  const compare = (a: Slot, b: Slot) => {
    if (a === b) return;
    if (isNode(a) && isNode(b)) {
      for (let i = 0; i < WIDTH; i++) compare(a.slots[i], b.slots[i]);
      return;
    }
    const old = new Map(slotEntries(a));
    const now = new Map(slotEntries(b));
    for (const [path, entry] of now) if (old.get(path) !== entry) changed.add(path);
    for (const path of old.keys()) if (!now.has(path)) changed.add(path);
  };
  compare(before.root, after.root);
  return [...changed].sort(byCodeUnit);
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every path, sorted as git sorts them (by UTF-16 code unit). */
export function treePaths(tree: Tree): string[] {
  return [...treeEntries(tree)].map(([path]) => path).sort(byCodeUnit);
}

/** A tree from the data set's form (path → entry). */
export function treeOf(record: FakeCommit['tree']): Tree {
  return withChanges(EMPTY_TREE, Object.entries(record));
}

/** The data set's form of a tree (path → entry), paths sorted. */
export function recordOf(tree: Tree): FakeCommit['tree'] {
  const record: FakeCommit['tree'] = {};
  // Defined, not assigned: a path named `__proto__` is an entry, not the record's prototype.
  for (const path of treePaths(tree))
    Object.defineProperty(record, path, {
      value: { ...entryOf(tree, path)! },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return record;
}
