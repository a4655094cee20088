/** Group lookups and access shared by every group-scoped handler: one definition of "sees the group". */
import type { Principal } from '../auth.ts';
import type { FakeGroup } from '../data.ts';
import { FORBIDDEN, message } from '../common.ts';
import type { Store } from '../store.ts';

export const GROUP_NOT_FOUND = { status: 404 as const, body: message('404 Group Not Found') };

/** The caller's access level in a group (inherited from ancestors and shares); administrators have all. */
export function groupLevel(store: Store, group: FakeGroup, principal: Principal | undefined): number {
  if (!principal) return 0;
  return principal.user.is_admin ? 50 : store.groupAccess(group, principal.user.id);
}

/** Whether a caller sees a group: public to all, internal to any signed-in caller, private to its members. */
export function groupVisible(store: Store, group: FakeGroup, principal: Principal | undefined): boolean {
  return (
    group.visibility === 'public' ||
    (principal !== undefined && (group.visibility === 'internal' || groupLevel(store, group, principal) > 0))
  );
}

/** The group (by id or full path) a caller may see, or undefined (404 like the Service: not found or not visible). */
export function readableGroup(
  store: Store,
  id: string | number,
  principal: Principal | undefined,
): FakeGroup | undefined {
  const group = store.findGroup(id);
  return group && groupVisible(store, group, principal) ? group : undefined;
}

/** The group for an owners-only operation: 404 when not visible, 403 below Owner. */
export function ownedGroup(
  store: Store,
  id: string | number,
  principal: Principal | undefined,
):
  | { group: FakeGroup; refused?: undefined }
  | { group?: undefined; refused: typeof GROUP_NOT_FOUND | typeof FORBIDDEN } {
  const group = readableGroup(store, id, principal);
  if (!group) return { refused: GROUP_NOT_FOUND };
  return groupLevel(store, group, principal) >= 50 ? { group } : { refused: FORBIDDEN };
}

/** The group and its ancestors, the group first. */
export function groupAncestors(store: Store, group: FakeGroup | undefined): FakeGroup[] {
  const out: FakeGroup[] = [];
  for (let g = group; g; g = g.parent_id === null ? undefined : store.group(g.parent_id)) out.push(g);
  return out;
}

/** The group's descendants (not the group), parents first. */
export function groupDescendants(store: Store, group: FakeGroup): FakeGroup[] {
  return store.data.groups.filter((g) => g.parent_id === group.id).flatMap((g) => [g, ...groupDescendants(store, g)]);
}
