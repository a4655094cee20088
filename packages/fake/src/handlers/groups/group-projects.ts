/**
 * The project list of a group (`include_subgroups` for its descendants' projects too), with the filters of the
 * parameter table.
 */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeGroup } from '../../data.ts';
import { paginate } from '../../common.ts';
import type { Project, Store } from '../../store.ts';
import { GROUP_NOT_FOUND, groupDescendants, readableGroup } from '../group-access.ts';
import {
  filterProjects,
  orderProjects,
  projectSimple,
  withAttributes,
  type ProjectFilters,
} from '../projects/projects.ts';

interface GroupProjectFilters extends ProjectFilters {
  include_subgroups?: boolean;
  with_shared?: boolean;
}

export function groupProjectHandlers(store: Store): Handlers<Principal> {
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
      const page = paginate(orderProjects(store, filterProjects(store, inGroups, f, principal), f), query, request);
      const view = (p: Project) => (f.simple === true ? projectSimple(store, p) : groupProject(p));
      const body = page.items.map((p) => withAttributes(store, view(p), p, f, principal));
      return { status: 200, body, headers: page.headers };
    },
  };
}
