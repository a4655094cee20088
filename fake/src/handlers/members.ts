/**
 * Group and project members: direct members, and `/all` with inherited members at their highest access level.
 * Private groups and projects are visible to their members only (404 otherwise).
 */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../auth.ts';
import type { FakeGroup, FakeMember, FakeProject } from '../data.ts';
import { message, paginate, PROJECT_NOT_FOUND, readableProject, userBasic } from '../common.ts';
import type { Store } from '../store.ts';

const GROUP_NOT_FOUND = { status: 404 as const, body: message('404 Group Not Found') };
const MEMBER_NOT_FOUND = { status: 404 as const, body: message('404 Member Not Found') };

interface Filters {
  query?: string;
  user_ids?: number[];
  skip_users?: number[];
}

export function memberHandlers(store: Store): Handlers<Principal> {
  const readableGroup = (id: string | number, principal: Principal | undefined): FakeGroup | undefined => {
    const text = String(id);
    const group = /^\d+$/.test(text) ? store.group(Number(text)) : store.data.groups.find((g) => store.groupPath(g).toLowerCase() === text.toLowerCase());
    if (!group) return undefined;
    if (group.visibility === 'public' || (group.visibility === 'internal' && principal) || principal?.user.is_admin) return group;
    return principal && store.groupAccess(group, principal.user.id) > 0 ? group : undefined;
  };

  const ancestors = (group: FakeGroup | undefined): FakeGroup[] => {
    const out: FakeGroup[] = [];
    for (let g = group; g; g = g.parent_id === null ? undefined : store.group(g.parent_id)) out.push(g);
    return out;
  };

  /** Members with inherited ones, each user once at the highest level (nearest source first on ties). */
  const inherited = (direct: FakeMember[], groups: FakeGroup[]): FakeMember[] => {
    const best = new Map<number, FakeMember>();
    for (const member of [...direct, ...groups.flatMap((g) => g.members)]) {
      const seen = best.get(member.user_id);
      if (!seen || member.access_level > seen.access_level) best.set(member.user_id, member);
    }
    return [...best.values()];
  };

  const record = (member: FakeMember) => ({
    ...userBasic(store, store.user(member.user_id))!,
    created_at: store.data.now ?? '2025-01-01T00:00:00.000Z',
    created_by: userBasic(store, store.data.users.find((u) => u.is_admin) ?? store.user(member.user_id))!,
    expires_at: null,
    access_level: member.access_level,
  });

  const list = (members: FakeMember[], filters: Filters) =>
    members
      .filter((m) => store.user(m.user_id))
      .filter((m) => !filters.user_ids || filters.user_ids.includes(m.user_id))
      .filter((m) => !filters.skip_users || !filters.skip_users.includes(m.user_id))
      .filter((m) => {
        if (!filters.query) return true;
        const user = store.user(m.user_id)!;
        return `${user.username} ${user.name}`.toLowerCase().includes(filters.query.toLowerCase());
      })
      .sort((a, b) => a.user_id - b.user_id);

  const projectMembers = (project: FakeProject, all: boolean) => (all ? inherited(project.members, ancestors(store.group(project.namespace_id))) : project.members);
  const groupMembers = (group: FakeGroup, all: boolean) => (all ? inherited(group.members, ancestors(group).slice(1)) : group.members);

  return {
    'members/list-project-members': ({ params, query }, { principal, request }) => {
      const project = readableProject(store, params.id, principal);
      if (!project) return PROJECT_NOT_FOUND;
      const page = paginate(list(projectMembers(project, false), query), query, request);
      return { status: 200, body: page.items.map(record), headers: page.headers };
    },
    'members/list-all-project-members': ({ params, query }, { principal, request }) => {
      const project = readableProject(store, params.id, principal);
      if (!project) return PROJECT_NOT_FOUND;
      const page = paginate(list(projectMembers(project, true), query), query, request);
      return { status: 200, body: page.items.map(record), headers: page.headers };
    },
    'members/get-project-member': ({ params }, { principal }) => {
      const project = readableProject(store, params.id, principal);
      if (!project) return PROJECT_NOT_FOUND;
      const member = projectMembers(project, false).find((m) => m.user_id === params.user_id);
      return member && store.user(member.user_id) ? { status: 200, body: record(member) } : MEMBER_NOT_FOUND;
    },
    'members/get-inherited-project-member': ({ params }, { principal }) => {
      const project = readableProject(store, params.id, principal);
      if (!project) return PROJECT_NOT_FOUND;
      const member = projectMembers(project, true).find((m) => m.user_id === params.user_id);
      return member && store.user(member.user_id) ? { status: 200, body: record(member) } : MEMBER_NOT_FOUND;
    },
    'members/list-group-members': ({ params, query }, { principal, request }) => {
      const group = readableGroup(params.id, principal);
      if (!group) return GROUP_NOT_FOUND;
      const page = paginate(list(groupMembers(group, false), query), query, request);
      return { status: 200, body: page.items.map(record), headers: page.headers };
    },
    'members/list-all-group-members': ({ params, query }, { principal, request }) => {
      const group = readableGroup(params.id, principal);
      if (!group) return GROUP_NOT_FOUND;
      const page = paginate(list(groupMembers(group, true), query), query, request);
      return { status: 200, body: page.items.map(record), headers: page.headers };
    },
    'members/get-group-member': ({ params }, { principal }) => {
      const group = readableGroup(params.id, principal);
      if (!group) return GROUP_NOT_FOUND;
      const member = groupMembers(group, false).find((m) => m.user_id === params.user_id);
      return member && store.user(member.user_id) ? { status: 200, body: record(member) } : MEMBER_NOT_FOUND;
    },
    'members/get-inherited-group-member': ({ params }, { principal }) => {
      const group = readableGroup(params.id, principal);
      if (!group) return GROUP_NOT_FOUND;
      const member = groupMembers(group, true).find((m) => m.user_id === params.user_id);
      return member && store.user(member.user_id) ? { status: 200, body: record(member) } : MEMBER_NOT_FOUND;
    },
  };
}
