/**
 * Project lists of a group (`include_subgroups` for its descendants' projects too) and of a user (the projects of the
 * user's personal namespace; empty when the profile is private), with the filters of the parameter table.
 */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../auth.ts';
import type { FakeGroup } from '../data.ts';
import { message, paginate } from '../common.ts';
import type { Project, Store } from '../store.ts';
import { GROUP_NOT_FOUND, groupDescendants, readableGroup } from './group-access.ts';
import {
  filterProjects,
  projectFull,
  projectLastActivity,
  projectSimple,
  withAttributes,
  type ProjectFilters,
} from './projects.ts';

interface GroupProjectFilters extends ProjectFilters {
  include_subgroups?: boolean;
  with_shared?: boolean;
}

export function groupProjectHandlers(store: Store): Handlers<Principal> {
  /** The last activity of a project: its newest commit. */
  const lastActivity = (project: Project) => projectLastActivity(store, project);
  const creatorId = (project: Project) => {
    const first = project.repository.commits[0];
    const author = store.data.users.find((u) => u.email === first?.author_email);
    return author?.id ?? store.namespaceOwner(project)?.id ?? store.data.users.find((u) => u.is_admin)?.id ?? 0;
  };

  /** The group project list record. */
  const groupProject = (project: Project) => ({
    ...projectSimple(store, project),
    archived: project.archived === true,
    visibility: project.visibility,
    issues_enabled: project.issues_enabled !== false,
    merge_requests_enabled: project.merge_requests_enabled !== false,
    wiki_enabled: true,
    jobs_enabled: true,
    snippets_enabled: true,
    shared_runners_enabled: true,
    creator_id: creatorId(project),
  });

  const descendants = (group: FakeGroup) => groupDescendants(store, group);

  /** Orders the ids of `filterProjects` do not know: by name (similarity without search), by last activity. */
  const ordered = (projects: Project[], f: ProjectFilters): Project[] => {
    const direction = f.sort === 'asc' ? 1 : -1;
    if (f.order_by === 'similarity') {
      const search = (f.search ?? '').toLowerCase();
      const rank = (p: Project) =>
        search === '' ? 0 : p.name.toLowerCase() === search ? 0 : p.name.toLowerCase().startsWith(search) ? 1 : 2;
      return [...projects].sort(
        (a, b) => rank(a) - rank(b) || a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id,
      );
    }
    if (f.order_by === 'last_activity_at')
      return [...projects].sort(
        (a, b) =>
          (lastActivity(a) < lastActivity(b) ? -1 : lastActivity(a) > lastActivity(b) ? 1 : a.id - b.id) * direction,
      );
    return projects;
  };

  return {
    'groups/list-projects': ({ params, query }, { principal, request }) => {
      const f = query as GroupProjectFilters;
      const group = readableGroup(store, params.id, principal);
      if (!group) return GROUP_NOT_FOUND;
      const groupIds = new Set([
        group.id,
        ...(f.include_subgroups === true ? descendants(group).map((g) => g.id) : []),
      ]);
      const shared = (p: Project) => f.with_shared !== false && (p.shared_with_group_ids ?? []).includes(group.id);
      const inGroups = store.data.projects.filter((p) => groupIds.has(p.namespace_id) || shared(p));
      const page = paginate(ordered(filterProjects(store, inGroups, f, principal), f), query, request);
      const body = page.items.map((p) => withAttributes(store, groupProject(p), p, f, principal));
      return { status: 200, body, headers: page.headers };
    },
    'projects/list-user-projects': ({ params, query }, { principal, request }) => {
      const f = query as ProjectFilters;
      const user = store.findUser(params.user_id);
      if (!user) return { status: 404, body: message('404 User Not Found') };
      const namespaces = (store.data.user_namespaces ?? []).filter((n) => n.user_id === user.id);
      const own = namespaces.some((n) => n.private_profile === true)
        ? []
        : store.data.projects.filter((p) => namespaces.some((n) => n.id === p.namespace_id));
      const page = paginate(ordered(filterProjects(store, own, f, principal), f), query, request);
      return {
        status: 200,
        body: page.items.map((p) =>
          withAttributes(store, f.simple === true ? projectSimple(store, p) : projectFull(store, p), p, f, principal),
        ),
        headers: page.headers,
      };
    },
  };
}
