/**
 * Group lists: all visible groups, direct subgroups and all descendants, with the documented filters
 * (skip_groups, all_available, search, order_by, sort, visibility, owned, min_access_level, top_level_only).
 */
import type { Handler, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeGroup } from '../../data.ts';
import { paginate, webBase } from '../../common.ts';
import type { Store } from '../../store.ts';
import { customAttributes, hasCustomAttributes } from '../custom-attributes.ts';
import { storageStatistics } from '../projects/projects.ts';
import { GROUP_NOT_FOUND, groupDescendants, groupLevel, groupVisible, readableGroup } from '../group-access.ts';

interface GroupFilters {
  'skip_groups[]'?: number[];
  all_available?: boolean;
  search?: string;
  order_by?: string;
  sort?: string;
  visibility?: string;
  owned?: boolean;
  min_access_level?: number;
  top_level_only?: boolean;
  repository_storage?: string;
  custom_attributes?: unknown;
  with_custom_attributes?: boolean;
  statistics?: boolean;
}

/** The group record (the fields the fake's model holds). */
export function groupRecord(store: Store, group: FakeGroup) {
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    description: null,
    visibility: group.visibility,
    avatar_url: null,
    web_url: `${webBase(store)}/groups/${store.groupPath(group)}`,
    full_name: store.groupName(group),
    full_path: store.groupPath(group),
    parent_id: group.parent_id,
    created_at: store.data.now ?? '2025-01-01T00:00:00.000Z',
  };
}

const record = (store: Store, group: FakeGroup) => groupRecord(store, group);
/** The records of a page, with their custom attributes when an administrator asks for them. */
const records = (store: Store, groups: FakeGroup[], f: GroupFilters, principal: Principal | undefined) => {
  const admin = principal?.user.is_admin === true;
  return groups.map((g) => ({
    ...record(store, g),
    ...(admin && f.with_custom_attributes === true ? { custom_attributes: customAttributes(g.custom_attributes) } : {}),
    ...(admin && f.statistics === true ? { statistics: groupStatistics(store, g) } : {}),
  }));
};
/** The storage statistics of a group: those of the projects of it and its descendants. */
const groupStatistics = (store: Store, group: FakeGroup) => {
  const ids = new Set([group.id, ...descendants(store, group).map((g) => g.id)]);
  const { commit_count: _commits, ...sizes } = storageStatistics(
    store.data.projects.filter((p) => ids.has(p.namespace_id)),
  );
  return sizes;
};
const access = (store: Store, group: FakeGroup, principal: Principal | undefined) =>
  groupLevel(store, group, principal);
const visible = (store: Store, group: FakeGroup, principal: Principal | undefined) =>
  groupVisible(store, group, principal);

const filtered = (
  store: Store,
  groups: FakeGroup[],
  f: GroupFilters,
  principal: Principal | undefined,
  listAll: boolean,
) => {
  const admin = principal?.user.is_admin === true;
  const allAvailable = f.all_available ?? (principal === undefined || admin);
  const out = groups.filter((g) => {
    if (!visible(store, g, principal)) return false;
    if (f.owned === true) return access(store, g, principal) >= 50 && rest(g);
    if (f.min_access_level !== undefined) return access(store, g, principal) >= f.min_access_level && rest(g);
    if (listAll && !allAvailable && access(store, g, principal) === 0) return false;
    return rest(g);
  });
  function rest(g: FakeGroup): boolean {
    if (f['skip_groups[]']?.includes(g.id)) return false;
    if (f.visibility !== undefined && g.visibility !== f.visibility) return false;
    if (f.top_level_only === true && g.parent_id !== null) return false;
    if (f.search !== undefined && !`${g.name} ${g.path}`.toLowerCase().includes(f.search.toLowerCase())) return false;
    if (admin && f.repository_storage !== undefined && (g.repository_storage ?? 'default') !== f.repository_storage)
      return false;
    return !admin || hasCustomAttributes(g.custom_attributes, f.custom_attributes);
  }
  const key =
    f.order_by === 'path'
      ? (g: FakeGroup) => store.groupPath(g)
      : f.order_by === 'id'
        ? (g: FakeGroup) => g.id
        : (g: FakeGroup) => store.groupName(g).toLowerCase();
  const direction = f.sort === 'desc' ? -1 : 1;
  return out.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -1 : x > y ? 1 : a.id - b.id) * direction;
  });
};

const findGroup = (store: Store, id: string | number, principal: Principal | undefined) =>
  readableGroup(store, id, principal);
const descendants = (store: Store, group: FakeGroup) => groupDescendants(store, group);

const listGroups =
  (store: Store): Handler<'groups/list-groups', Principal> =>
  ({ query }, { principal, request }) => {
    const page = paginate(filtered(store, store.data.groups, query as GroupFilters, principal, true), query, request);
    return { status: 200, body: records(store, page.items, query as GroupFilters, principal), headers: page.headers };
  };

const listSubgroups =
  (store: Store): Handler<'groups/list-subgroups', Principal> =>
  ({ params, query }, { principal, request }) => {
    const group = findGroup(store, params.id, principal);
    if (!group) return GROUP_NOT_FOUND;
    const page = paginate(
      filtered(
        store,
        store.data.groups.filter((g) => g.parent_id === group.id),
        query as GroupFilters,
        principal,
        true,
      ),
      query,
      request,
    );
    return { status: 200, body: records(store, page.items, query as GroupFilters, principal), headers: page.headers };
  };

const listDescendantGroups =
  (store: Store): Handler<'groups/list-descendant-groups', Principal> =>
  ({ params, query }, { principal, request }) => {
    const group = findGroup(store, params.id, principal);
    if (!group) return GROUP_NOT_FOUND;
    const page = paginate(
      filtered(store, descendants(store, group), query as GroupFilters, principal, true),
      query,
      request,
    );
    return { status: 200, body: records(store, page.items, query as GroupFilters, principal), headers: page.headers };
  };

export function groupHandlers(store: Store): Handlers<Principal> {
  return {
    'groups/list-groups': listGroups(store),
    'groups/list-subgroups': listSubgroups(store),
    'groups/list-descendant-groups': listDescendantGroups(store),
  };
}
