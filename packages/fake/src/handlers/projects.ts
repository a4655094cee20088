/**
 * Project lists: every project the caller can see (anonymous callers: public ones, simple view), with the filters the
 * data can answer (archived, id_after, id_before, membership, min_access_level, owned, search, simple, visibility,
 * order_by id/name/path/created_at, sort).
 */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../auth.ts';
import { paginate, webBase } from '../common.ts';
import type { Project, Store } from '../store.ts';

export interface ProjectFilters {
  archived?: boolean;
  id_after?: number;
  id_before?: number;
  membership?: boolean;
  min_access_level?: number;
  owned?: boolean;
  search?: string;
  simple?: boolean;
  visibility?: string;
  order_by?: string;
  sort?: string;
}

/** The project's namespace record: its group, or the personal namespace of its owner (named by its id when the data set names no owner). */
export function projectNamespace(store: Store, project: Project) {
  const group = store.group(project.namespace_id);
  if (group)
    return {
      id: group.id,
      name: group.name,
      path: group.path,
      kind: 'group',
      full_path: store.groupPath(group),
      parent_id: group.parent_id,
      avatar_url: null,
      web_url: `${webBase(store)}/groups/${store.groupPath(group)}`,
    };
  const owner = store.namespaceOwner(project);
  const name = owner?.name ?? `namespace-${project.namespace_id}`;
  const path = owner?.username ?? name;
  return {
    id: project.namespace_id,
    name,
    path,
    kind: 'user',
    full_path: path,
    parent_id: null,
    avatar_url: null,
    web_url: `${webBase(store)}/${path}`,
  };
}

/** When the project was last active: its newest commit, or its creation. */
export function projectLastActivity(store: Store, project: Project): string {
  return project.repository.commits.reduce(
    (latest, c) => (c.created_at > latest ? c.created_at : latest),
    store.projectIdentity(project).created_at,
  );
}

/** The simple view of a project. */
export function projectSimple(store: Store, project: Project) {
  const path = store.projectPath(project);
  return {
    ...store.projectIdentity(project),
    default_branch: project.default_branch,
    tag_list: [],
    topics: [],
    ssh_url_to_repo: `git@${new URL(webBase(store)).host}:${path}.git`,
    http_url_to_repo: `${webBase(store)}/${path}.git`,
    web_url: `${webBase(store)}/${path}`,
    avatar_url: null,
    star_count: 0,
    last_activity_at: projectLastActivity(store, project),
    namespace: projectNamespace(store, project),
  };
}

/** The full view of a project (authenticated callers). */
export function projectFull(store: Store, project: Project) {
  return {
    ...projectSimple(store, project),
    visibility: project.visibility,
    archived: false,
    empty_repo: (store.resolveRef(project, undefined)?.tree.size ?? 0) === 0,
    merge_requests_enabled: true,
  };
}

/** The projects a caller can see among `projects`, filtered and sorted (default: newest, that is highest id, first). */
export function filterProjects(
  store: Store,
  projects: Project[],
  f: ProjectFilters,
  principal: Principal | undefined,
): Project[] {
  const user = principal?.user;
  const access = (p: Project) => store.projectAccess(p, user);
  const out = projects.filter((p) => {
    if (!store.canRead(p, user)) return false;
    if (f.archived === true) return false; // no archived projects in the fake's model
    if (f.id_after !== undefined && !(p.id > f.id_after)) return false;
    if (f.id_before !== undefined && !(p.id < f.id_before)) return false;
    if (
      f.membership === true &&
      !(
        user &&
        (p.members.some((m) => m.user_id === user.id) ||
          store.namespaceOwner(p)?.id === user.id ||
          store.groupAccess(store.group(p.namespace_id), user.id) > 0)
      )
    )
      return false;
    if (f.min_access_level !== undefined && access(p) < f.min_access_level) return false;
    if (f.owned === true && access(p) < 50) return false;
    if (f.visibility !== undefined && p.visibility !== f.visibility) return false;
    if (
      f.search !== undefined &&
      !`${p.name} ${p.path} ${p.description ?? ''}`.toLowerCase().includes(f.search.toLowerCase())
    )
      return false;
    return true;
  });
  const key =
    f.order_by === 'name'
      ? (p: Project) => p.name.toLowerCase()
      : f.order_by === 'path'
        ? (p: Project) => p.path
        : (p: Project) => p.id;
  const direction = f.sort === 'asc' ? 1 : -1;
  return out.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -1 : x > y ? 1 : a.id - b.id) * direction;
  });
}

export function projectHandlers(store: Store): Handlers<Principal> {
  return {
    'projects/list-projects': ({ query }, { principal, request }) => {
      const f = query as ProjectFilters;
      const page = paginate(filterProjects(store, store.data.projects, f, principal), query, request);
      return {
        status: 200,
        body: page.items.map((p) => (principal && f.simple !== true ? projectFull(store, p) : projectSimple(store, p))),
        headers: page.headers,
      };
    },
  };
}
