/**
 * Group and project members: direct members, and `/all` with inherited members at their highest access level.
 * Private groups and projects are visible to their members only (404 otherwise).
 */
import type { Handler, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { AccessLevel, FakeGroup, FakeMember } from '../../data.ts';
import { message, paginate, PROJECT_NOT_FOUND, readableProject, userBasic } from '../../common.ts';
import type { Project, Store } from '../../store.ts';
import { GROUP_NOT_FOUND, groupAncestors, readableGroup as readableGroupOf } from '../group-access.ts';

const MEMBER_NOT_FOUND = { status: 404 as const, body: message('404 Member Not Found') };

interface Filters {
  query?: string;
  state?: string;
  show_seat_info?: boolean;
  'user_ids[]'?: number[];
  'skip_users[]'?: number[];
}

const readableGroup = (store: Store, id: string | number, principal: Principal | undefined) =>
  readableGroupOf(store, id, principal);

const ancestors = (store: Store, group: FakeGroup | undefined) => groupAncestors(store, group);

/** Members with inherited ones, each user once at the highest level (nearest source first on ties). */
const inherited = (direct: FakeMember[], groups: FakeGroup[]): FakeMember[] => {
  const best = new Map<number, FakeMember>();
  for (const member of [...direct, ...groups.flatMap((g) => g.members)]) {
    const seen = best.get(member.user_id);
    if (!seen || member.access_level > seen.access_level) best.set(member.user_id, member);
  }
  return [...best.values()];
};

/** A page of members as the list answers them: with `is_using_seat` when asked (every human member takes a seat). */
const records = (store: Store, members: FakeMember[], filters: Filters) =>
  filters.show_seat_info === true
    ? members.map((m) => ({
        ...record(store, m),
        is_using_seat: (store.user(m.user_id)?.user_type ?? 'human') === 'human',
      }))
    : members.map((item) => record(store, item));

const record = (store: Store, member: FakeMember) => ({
  ...userBasic(store, store.user(member.user_id))!,
  created_at: store.data.now ?? '2025-01-01T00:00:00.000Z',
  created_by: userBasic(store, store.data.users.find((u) => u.is_admin) ?? store.user(member.user_id))!,
  expires_at: null,
  access_level: member.access_level,
});

const list = (store: Store, members: FakeMember[], filters: Filters) =>
  members
    .filter((m) => store.user(m.user_id))
    .filter((m) => !filters['user_ids[]'] || filters['user_ids[]'].includes(m.user_id))
    .filter((m) => !filters['skip_users[]']?.includes(m.user_id))
    .filter((m) => filters.state === undefined || (m.state ?? 'active') === filters.state)
    .filter((m) => {
      if (!filters.query) return true;
      const user = store.user(m.user_id)!;
      return `${user.username} ${user.name}`.toLowerCase().includes(filters.query.toLowerCase());
    })
    .sort((a, b) => a.user_id - b.user_id);

/**
 * Members of the groups that `group` or an ancestor is shared with, at most at the share's access level; shown when
 * the invited group is public, or the caller belongs to it or to the shared group or project (`belongs`).
 */
const invited = (
  store: Store,
  group: FakeGroup | undefined,
  principal: Principal | undefined,
  belongs: boolean,
): FakeMember[] =>
  ancestors(store, group).flatMap((shared) =>
    store.activeShares(shared).flatMap((share) => {
      const other = store.group(share.shared_with_group_id);
      if (!other) return [];
      const user = principal?.user;
      const seen =
        other.visibility === 'public' ||
        belongs ||
        user?.is_admin === true ||
        (user !== undefined &&
          (store.groupAccess(other, user.id, false) > 0 || store.groupAccess(shared, user.id, false) > 0));
      if (!seen || share.group_access === 0) return [];
      return inherited(other.members, ancestors(store, other).slice(1)).map((m) => ({
        user_id: m.user_id,
        access_level: Math.min(m.access_level, share.group_access) as AccessLevel,
      }));
    }),
  );

const projectMembers = (store: Store, project: Project, all: boolean, principal?: Principal) => {
  if (!all) return project.members;
  const group = store.group(project.namespace_id);
  const belongs = principal !== undefined && project.members.some((m) => m.user_id === principal.user.id);
  return inherited([...project.members, ...invited(store, group, principal, belongs)], ancestors(store, group));
};
const groupMembers = (store: Store, group: FakeGroup, all: boolean, principal?: Principal) =>
  all
    ? inherited([...group.members, ...invited(store, group, principal, false)], ancestors(store, group).slice(1))
    : group.members;

const listProjectMembers =
  (store: Store): Handler<'members/list-project-members', Principal> =>
  ({ params, query }, { principal, request }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const page = paginate(list(store, projectMembers(store, project, false), query), query, request);
    return { status: 200, body: records(store, page.items, query), headers: page.headers };
  };

const listAllProjectMembers =
  (store: Store): Handler<'members/list-all-project-members', Principal> =>
  ({ params, query }, { principal, request }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const page = paginate(list(store, projectMembers(store, project, true, principal), query), query, request);
    return { status: 200, body: records(store, page.items, query), headers: page.headers };
  };

const getProjectMember =
  (store: Store): Handler<'members/get-project-member', Principal> =>
  ({ params }, { principal }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const member = projectMembers(store, project, false).find((m) => m.user_id === params.user_id);
    return member && store.user(member.user_id) ? { status: 200, body: record(store, member) } : MEMBER_NOT_FOUND;
  };

const getInheritedProjectMember =
  (store: Store): Handler<'members/get-inherited-project-member', Principal> =>
  ({ params }, { principal }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const member = projectMembers(store, project, true, principal).find((m) => m.user_id === params.user_id);
    return member && store.user(member.user_id) ? { status: 200, body: record(store, member) } : MEMBER_NOT_FOUND;
  };

const listGroupMembers =
  (store: Store): Handler<'members/list-group-members', Principal> =>
  ({ params, query }, { principal, request }) => {
    const group = readableGroup(store, params.id, principal);
    if (!group) return GROUP_NOT_FOUND;
    const page = paginate(list(store, groupMembers(store, group, false), query), query, request);
    return { status: 200, body: records(store, page.items, query), headers: page.headers };
  };

const listAllGroupMembers =
  (store: Store): Handler<'members/list-all-group-members', Principal> =>
  ({ params, query }, { principal, request }) => {
    const group = readableGroup(store, params.id, principal);
    if (!group) return GROUP_NOT_FOUND;
    const page = paginate(list(store, groupMembers(store, group, true, principal), query), query, request);
    return { status: 200, body: records(store, page.items, query), headers: page.headers };
  };

const getGroupMember =
  (store: Store): Handler<'members/get-group-member', Principal> =>
  ({ params }, { principal }) => {
    const group = readableGroup(store, params.id, principal);
    if (!group) return GROUP_NOT_FOUND;
    const member = groupMembers(store, group, false).find((m) => m.user_id === params.user_id);
    return member && store.user(member.user_id) ? { status: 200, body: record(store, member) } : MEMBER_NOT_FOUND;
  };

const getInheritedGroupMember =
  (store: Store): Handler<'members/get-inherited-group-member', Principal> =>
  ({ params }, { principal }) => {
    const group = readableGroup(store, params.id, principal);
    if (!group) return GROUP_NOT_FOUND;
    const member = groupMembers(store, group, true, principal).find((m) => m.user_id === params.user_id);
    return member && store.user(member.user_id) ? { status: 200, body: record(store, member) } : MEMBER_NOT_FOUND;
  };

export function memberHandlers(store: Store): Handlers<Principal> {
  return {
    'members/list-project-members': listProjectMembers(store),
    'members/list-all-project-members': listAllProjectMembers(store),
    'members/get-project-member': getProjectMember(store),
    'members/get-inherited-project-member': getInheritedProjectMember(store),
    'members/list-group-members': listGroupMembers(store),
    'members/list-all-group-members': listAllGroupMembers(store),
    'members/get-group-member': getGroupMember(store),
    'members/get-inherited-group-member': getInheritedGroupMember(store),
  };
}
