/**
 * Project lists: every project the caller can see (anonymous callers: public ones, simple view), and the projects of
 * a user's personal namespace (empty when the profile is private), with the filters of the parameter table (parameters.ts): what the data set keeps (archived, topics, features, stars, imports, custom
 * attributes, storage) and what the repository shows (activity, languages).
 */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import { message, paginate, webBase } from '../../common.ts';
import type { Project, Store } from '../../store.ts';
import { treePaths } from '../../tree.ts';
import { customAttributes, hasCustomAttributes } from '../custom-attributes.ts';

export interface ProjectFilters {
  archived?: boolean;
  starred?: boolean;
  topic?: string;
  topic_id?: number;
  imported?: boolean;
  with_issues_enabled?: boolean;
  with_merge_requests_enabled?: boolean;
  with_programming_language?: string;
  with_security_reports?: boolean;
  last_activity_after?: string;
  last_activity_before?: string;
  updated_after?: string;
  updated_before?: string;
  search_namespaces?: boolean;
  repository_storage?: string;
  custom_attributes?: unknown;
  with_custom_attributes?: boolean;
  statistics?: boolean;
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
    tag_list: [...(project.topics ?? [])],
    topics: [...(project.topics ?? [])],
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
    archived: project.archived === true,
    empty_repo: (store.resolveRef(project, undefined)?.tree.size ?? 0) === 0,
    issues_enabled: project.issues_enabled !== false,
    merge_requests_enabled: project.merge_requests_enabled !== false,
  };
}

/** The data set's topics numbered by first use (projects by id): what `topic_id` names. */
export function topicIds(store: Store): Map<number, string> {
  const names = [...new Set([...store.data.projects].sort((a, b) => a.id - b.id).flatMap((p) => p.topics ?? []))];
  return new Map(names.map((name, index) => [index + 1, name]));
}

/** Languages by file extension (what `with_programming_language` finds in a project's default branch). */
const LANGUAGES: Record<string, string> = {
  js: 'JavaScript',
  mjs: 'JavaScript',
  ts: 'TypeScript',
  rb: 'Ruby',
  py: 'Python',
  go: 'Go',
  java: 'Java',
  sh: 'Shell',
  c: 'C',
  rs: 'Rust',
  php: 'PHP',
};

/** The languages of the files on a project's default branch. */
export function projectLanguages(store: Store, project: Project): Set<string> {
  const tree = store.resolveRef(project, undefined)?.tree;
  const out = new Set<string>();
  for (const path of tree ? treePaths(tree) : []) {
    const language = LANGUAGES[path.slice(path.lastIndexOf('.') + 1).toLowerCase()];
    if (language) out.add(language.toLowerCase());
  }
  return out;
}

/** The projects a caller can see among `projects`, filtered and sorted (default: newest, that is highest id, first). */
export function filterProjects(
  store: Store,
  projects: Project[],
  f: ProjectFilters,
  principal: Principal | undefined,
): Project[] {
  const user = principal?.user;
  const admin = user?.is_admin === true;
  const access = (p: Project) => store.projectAccess(p, user);
  const activity = (p: Project) => Date.parse(projectLastActivity(store, p));
  const time = (text: string | undefined) => (text === undefined ? undefined : Date.parse(text));
  const [activeAfter, activeBefore] = [time(f.last_activity_after), time(f.last_activity_before)];
  const [updatedAfter, updatedBefore] = [time(f.updated_after), time(f.updated_before)];
  const topics =
    f.topic
      ?.split(',')
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean) ?? [];
  const topicById = f.topic_id === undefined ? undefined : (topicIds(store).get(f.topic_id) ?? '');
  const language = f.with_programming_language?.toLowerCase();
  const out = projects.filter((p) => {
    if (!store.canRead(p, user)) return false;
    if (f.archived !== undefined && (p.archived === true) !== f.archived) return false;
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
    if (f.search !== undefined) {
      const namespace = f.search_namespaces === true ? store.projectPath(p) : '';
      if (!`${p.name} ${p.path} ${p.description ?? ''} ${namespace}`.toLowerCase().includes(f.search.toLowerCase()))
        return false;
    }
    if (f.starred === true && !(user && (p.starred_by ?? []).includes(user.id))) return false;
    const own = (p.topics ?? []).map((t) => t.toLowerCase());
    if (!topics.every((t) => own.includes(t))) return false;
    if (topicById !== undefined && !(p.topics ?? []).includes(topicById)) return false;
    if (f.imported === true && !Object.hasOwn(store.data.project_imports ?? {}, String(p.id))) return false;
    if (f.with_issues_enabled === true && p.issues_enabled === false) return false;
    if (f.with_merge_requests_enabled === true && p.merge_requests_enabled === false) return false;
    if (language !== undefined && !projectLanguages(store, p).has(language)) return false;
    if (f.with_security_reports === true && !(store.data.dependencies ?? []).some((d) => d.project_id === p.id))
      return false;
    if (activeAfter !== undefined && !(activity(p) > activeAfter)) return false;
    if (activeBefore !== undefined && !(activity(p) < activeBefore)) return false;
    if (updatedAfter !== undefined && !(activity(p) > updatedAfter)) return false;
    if (updatedBefore !== undefined && !(activity(p) < updatedBefore)) return false;
    if (admin && f.repository_storage !== undefined && (p.repository_storage ?? 'default') !== f.repository_storage)
      return false;
    return !admin || hasCustomAttributes(p.custom_attributes, f.custom_attributes);
  });
  const key =
    f.order_by === 'name'
      ? (p: Project) => p.name.toLowerCase()
      : f.order_by === 'path'
        ? (p: Project) => p.path
        : f.order_by === 'created_at'
          ? (p: Project) => store.projectIdentity(p).created_at
          : f.order_by === 'updated_at' || f.order_by === 'last_activity_at'
            ? (p: Project) => projectLastActivity(store, p)
            : (p: Project) => p.id;
  const direction = f.sort === 'asc' ? 1 : -1;
  return out.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -1 : x > y ? 1 : a.id - b.id) * direction;
  });
}

/**
 * Storage statistics of projects: their repositories' bytes (each blob once) and commits; the fake stores no wiki,
 * LFS objects, artifacts, packages, snippets or uploads, so those sizes are 0.
 */
export function storageStatistics(projects: Project[]) {
  let repository = 0;
  let commits = 0;
  for (const project of projects) {
    commits += project.repository.commits.length;
    for (const content of Object.values(project.repository.blobs)) repository += Math.floor((content.length * 3) / 4);
  }
  return {
    commit_count: commits,
    storage_size: repository,
    repository_size: repository,
    wiki_size: 0,
    lfs_objects_size: 0,
    job_artifacts_size: 0,
    pipeline_artifacts_size: 0,
    packages_size: 0,
    snippets_size: 0,
    uploads_size: 0,
  };
}

/**
 * A project record with what the caller asked to add: custom attributes (administrators) and storage statistics (from
 * Reporter up).
 */
export function withAttributes<T extends object>(
  store: Store,
  record: T,
  project: Project,
  f: ProjectFilters,
  principal: Principal | undefined,
): T {
  const admin = principal?.user.is_admin === true;
  return {
    ...record,
    ...(f.with_custom_attributes === true && admin
      ? { custom_attributes: customAttributes(project.custom_attributes) }
      : {}),
    ...(f.statistics === true && store.projectAccess(project, principal?.user) >= 20
      ? { statistics: storageStatistics([project]) }
      : {}),
  };
}

/** Orders the ids of `filterProjects` do not know: by name (similarity without search), by last activity. */
export function orderProjects(store: Store, projects: Project[], f: ProjectFilters): Project[] {
  const lastActivity = (project: Project) => projectLastActivity(store, project);
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
}

export function projectHandlers(store: Store): Handlers<Principal> {
  return {
    'projects/list-projects': ({ query }, { principal, request }) => {
      const f = query as ProjectFilters;
      const page = paginate(filterProjects(store, store.data.projects, f, principal), query, request);
      return {
        status: 200,
        body: page.items.map((p) =>
          withAttributes(
            store,
            principal && f.simple !== true ? projectFull(store, p) : projectSimple(store, p),
            p,
            f,
            principal,
          ),
        ),
        headers: page.headers,
      };
    },
    'projects/list-user-projects': ({ params, query }, { principal, request }) => {
      const f = query as ProjectFilters;
      const user = store.findUser(params.user_id);
      if (!user) return { status: 404, body: message('404 User Not Found') };
      const namespaces = (store.data.user_namespaces ?? []).filter((n) => n.user_id === user.id);
      const own = namespaces.some((n) => n.private_profile === true)
        ? []
        : store.data.projects.filter((p) => namespaces.some((n) => n.id === p.namespace_id));
      const page = paginate(orderProjects(store, filterProjects(store, own, f, principal), f), query, request);
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
