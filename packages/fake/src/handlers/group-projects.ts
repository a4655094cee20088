/**
 * Project lists of a group (`include_subgroups` for its descendants' projects too) and of a user (the projects of the
 * user's personal namespace; empty when the profile is private), with the documented filters the data can answer.
 * The fake has no stars, topics or archived projects: `starred`, `topic` and `archived=true` select nothing.
 */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../auth.ts';
import type { FakeGroup } from '../data.ts';
import { message, paginate } from '../common.ts';
import type { Project, Store } from '../store.ts';
import { GROUP_NOT_FOUND, groupDescendants, readableGroup } from './group-access.ts';
import { filterProjects, projectFull, projectLastActivity, projectSimple, type ProjectFilters } from './projects.ts';

interface GroupProjectFilters extends ProjectFilters {
  starred?: boolean;
  topic?: string;
  include_subgroups?: boolean;
}

interface UserProjectFilters extends ProjectFilters {
  starred?: boolean;
  updated_after?: string;
  updated_before?: string;
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
    archived: false,
    visibility: project.visibility,
    issues_enabled: true,
    merge_requests_enabled: true,
    wiki_enabled: true,
    jobs_enabled: true,
    snippets_enabled: true,
    shared_runners_enabled: true,
    creator_id: creatorId(project),
  });

  const descendants = (group: FakeGroup) => groupDescendants(store, group);

  /** Orders the ids of `filterProjects` do not know: by name (similarity without search), by last activity. */
  const ordered = (projects: Project[], f: GroupProjectFilters | UserProjectFilters): Project[] => {
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
      const inGroups = store.data.projects.filter((p) => groupIds.has(p.namespace_id));
      const selected =
        f.starred === true || f.topic !== undefined ? [] : ordered(filterProjects(store, inGroups, f, principal), f);
      const page = paginate(selected, query, request);
      return { status: 200, body: page.items.map(groupProject), headers: page.headers };
    },
    'projects/list-user-projects': ({ params, query }, { principal, request }) => {
      const f = query as UserProjectFilters;
      const user = store.findUser(params.user_id);
      if (!user) return { status: 404, body: message('404 User Not Found') };
      const namespaces = (store.data.user_namespaces ?? []).filter((n) => n.user_id === user.id);
      const own = namespaces.some((n) => n.private_profile === true)
        ? []
        : store.data.projects.filter((p) => namespaces.some((n) => n.id === p.namespace_id));
      const updated = store.data.now ?? '2025-01-01T00:00:00.000Z';
      const outOfRange =
        (f.updated_after !== undefined && !(updated > f.updated_after)) ||
        (f.updated_before !== undefined && !(updated < f.updated_before));
      const selected = f.starred === true || outOfRange ? [] : ordered(filterProjects(store, own, f, principal), f);
      const page = paginate(selected, query, request);
      return {
        status: 200,
        body: page.items.map((p) => (f.simple === true ? projectSimple(store, p) : projectFull(store, p))),
        headers: page.headers,
      };
    },
  };
}
