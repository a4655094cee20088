/**
 * Billable members of a top-level group: every user with a direct membership in the group, its subgroups or their
 * projects, once each at the highest access level. Top-level groups only (400 for a subgroup). `search` matches the
 * name or username; `sort` orders by the documented keys (the fake records no sign-in or activity times, so those
 * sorts fall back to the user id, oldest first). Memberships: direct memberships inside the hierarchy, for callers who
 * administer its members (Owner or administrator, 403 otherwise).
 */
import type { Handler, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeGroup, FakeMember, FakeUser } from '../../data.ts';
import { FORBIDDEN, message, paginate, userBasic } from '../../common.ts';
import type { Store } from '../../store.ts';
import { GROUP_NOT_FOUND, groupDescendants, groupLevel, readableGroup } from '../group-access.ts';

const TOP_LEVEL_ONLY = {
  status: 400 as const,
  body: message('400 Bad request - billable members are available for top-level groups only'),
};
const USER_NOT_FOUND = { status: 404 as const, body: message('404 User Not Found') };

interface Membership {
  source_id: number;
  source_type: 'group' | 'project';
  source_full_name: string;
  source_full_path: string;
  access_level: number;
  member: FakeMember;
}

/** Direct memberships inside the hierarchy of a top-level group, groups first, then projects, by id. */
const memberships = (store: Store, top: FakeGroup): Membership[] => {
  const groups = [top, ...groupDescendants(store, top)];
  const ids = new Set(groups.map((g) => g.id));
  const projects = store.data.projects.filter((p) => ids.has(p.namespace_id)).sort((a, b) => a.id - b.id);
  return [
    ...groups.flatMap((g) =>
      g.members.map((m) => ({
        source_id: g.id,
        source_type: 'group' as const,
        source_full_name: store.groupName(g),
        source_full_path: store.groupPath(g),
        access_level: m.access_level,
        member: m,
      })),
    ),
    ...projects.flatMap((p) =>
      p.members.map((m) => ({
        source_id: p.id,
        source_type: 'project' as const,
        source_full_name: store.projectIdentity(p).name_with_namespace,
        source_full_path: store.projectPath(p),
        access_level: m.access_level,
        member: m,
      })),
    ),
  ];
};

const billable = (store: Store, top: FakeGroup) => {
  const byUser = new Map<number, { user: FakeUser; level: number; inGroup: boolean }>();
  for (const m of memberships(store, top)) {
    const user = store.user(m.member.user_id);
    if (!user) continue;
    const seen = byUser.get(user.id) ?? { user, level: 0, inGroup: false };
    byUser.set(user.id, {
      user,
      level: Math.max(seen.level, m.access_level),
      inGroup: seen.inGroup || m.source_type === 'group',
    });
  }
  return [...byUser.values()];
};

type Billable = ReturnType<typeof billable>[number];
const byName = (a: Billable, b: Billable) => a.user.name.localeCompare(b.user.name) || a.user.id - b.user.id;
const sorts: Record<string, (a: Billable, b: Billable) => number> = {
  access_level_asc: (a, b) => a.level - b.level || a.user.id - b.user.id,
  access_level_desc: (a, b) => b.level - a.level || a.user.id - b.user.id,
  name_asc: byName,
  name_desc: (a, b) => byName(b, a),
  last_joined: (a, b) => b.user.id - a.user.id,
  recent_sign_in: (a, b) => b.user.id - a.user.id,
  last_activity_on_desc: (a, b) => b.user.id - a.user.id,
};

const record = (store: Store, entry: Billable) => ({
  ...userBasic(store, entry.user)!,
  last_activity_on: null,
  membership_type: entry.inGroup ? 'group_member' : 'project_member',
  removable: true,
  created_at: store.data.now ?? '2025-01-01T00:00:00.000Z',
  last_login_at: null,
});

const topLevel = (store: Store, id: string | number, principal: Principal | undefined) => {
  const group = readableGroup(store, id, principal);
  if (!group) return GROUP_NOT_FOUND;
  return group.parent_id === null ? group : TOP_LEVEL_ONLY;
};

const listBillableMembers =
  (store: Store): Handler<'members/list-billable-members', Principal> =>
  ({ params, query }, { principal, request }) => {
    const group = topLevel(store, params.id, principal);
    if ('status' in group) return group;
    const search = query.search?.toLowerCase();
    const list = billable(store, group)
      .filter((e) => !search || `${e.user.name}\n${e.user.username}`.toLowerCase().includes(search))
      .sort(query.sort && Object.hasOwn(sorts, query.sort) ? sorts[query.sort] : (a, b) => a.user.id - b.user.id);
    const page = paginate(list, query, request);
    return { status: 200, body: page.items.map((item) => record(store, item)), headers: page.headers };
  };

const listBillableMemberMemberships =
  (store: Store): Handler<'members/list-billable-member-memberships', Principal> =>
  ({ params }, { principal }) => {
    const group = topLevel(store, params.id, principal);
    if ('status' in group) return group;
    if (groupLevel(store, group, principal) < 50) return FORBIDDEN;
    const mine = memberships(store, group).filter((m) => m.member.user_id === params.user_id);
    if (!store.user(params.user_id) || mine.length === 0) return USER_NOT_FOUND;
    const created = store.data.now ?? '2025-01-01T00:00:00.000Z';
    return {
      status: 200,
      body: mine.map(({ member: _member, ...m }) => ({ ...m, created_at: created, expires_at: null })),
    };
  };

export function billableHandlers(store: Store): Handlers<Principal> {
  return {
    'members/list-billable-members': listBillableMembers(store),
    'members/list-billable-member-memberships': listBillableMemberMemberships(store),
  };
}
