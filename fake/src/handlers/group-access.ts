/** Group lookups shared by the group-scoped handlers of badges, billable members and group approval rules. */
import type { Principal } from '../auth.ts';
import type { FakeGroup } from '../data.ts';
import { message } from '../common.ts';
import type { Store } from '../store.ts';

export const GROUP_NOT_FOUND = { status: 404 as const, body: message('404 Group Not Found') };

/** A group by numeric id or full path (case-insensitive). */
export function findGroup(store: Store, id: string | number): FakeGroup | undefined {
  const text = String(id);
  return /^\d+$/.test(text) ? store.group(Number(text)) : store.data.groups.find((g) => store.groupPath(g).toLowerCase() === text.toLowerCase());
}

/** The caller's access level in a group (inherited from ancestors); administrators have all. */
export function groupLevel(store: Store, group: FakeGroup, principal: Principal | undefined): number {
  if (!principal) return 0;
  return principal.user.is_admin ? 50 : store.groupAccess(group, principal.user.id);
}

/** The group a caller may see, or undefined (404 like the Service: not found or not accessible). */
export function readableGroup(store: Store, id: string | number, principal: Principal | undefined): FakeGroup | undefined {
  const group = findGroup(store, id);
  if (!group) return undefined;
  if (group.visibility === 'public' || (group.visibility === 'internal' && principal)) return group;
  return groupLevel(store, group, principal) > 0 ? group : undefined;
}

/** The group and its descendants, parents first. */
export function hierarchy(store: Store, group: FakeGroup): FakeGroup[] {
  return [group, ...store.data.groups.filter((g) => g.parent_id === group.id).flatMap((g) => hierarchy(store, g))];
}
