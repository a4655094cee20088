/**
 * CI runners: creation by the caller (a token with `create_runner`; instance runners for administrators, group and
 * project runners for owners; the authentication token shown once), the caller's runners, all runners
 * (administrators), one runner (instance runners for everyone, others from Maintainer up), update, the jobs of a
 * runner and of one of its managers (only projects where the caller is at least Reporter), and the runners of a
 * project (its own, its groups' and the instance's) and of a group. Lists filter and paginate, ordered by id.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Handler, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeGroup, FakeRunner, FakeUser } from '../../data.ts';
import { FORBIDDEN, message, paginate, PROJECT_NOT_FOUND, readableProject } from '../../common.ts';
import type { Store } from '../../store.ts';
import { GROUP_NOT_FOUND, groupAncestors, readableGroup } from '../group-access.ts';
import { jobRecord } from '../jobs/jobs.ts';
import { parameterTables, twinQuery } from '../parameters.ts';
import { runnerSummary } from './runner-summary.ts';

const RUNNER_NOT_FOUND = { status: 404 as const, body: message('404 Runner Not Found') };

/** The documented filters of the runner lists (`scope`, `type`, `status`, `paused`, `tag_list`, `version_prefix`). */
interface Filters {
  scope?: string;
  type?: string;
  status?: string;
  paused?: boolean;
  'tag_list[]'?: string[];
  version_prefix?: string;
}

function matches(runner: FakeRunner, f: Filters): boolean {
  const paused = runner.paused === true;
  const scope: Record<string, boolean> = {
    active: !paused,
    paused,
    online: runner.status === 'online',
    offline: runner.status === 'offline',
    specific: runner.runner_type !== 'instance_type',
    shared: runner.runner_type === 'instance_type',
  };
  if (f.scope !== undefined && scope[f.scope] !== true) return false;
  if (f.type !== undefined && runner.runner_type !== f.type) return false;
  if (
    f.status === 'active'
      ? paused
      : f.status === 'paused'
        ? !paused
        : f.status !== undefined && runner.status !== f.status
  )
    return false;
  if (f.paused !== undefined && paused !== f.paused) return false;
  const tags = (f['tag_list[]'] ?? [])
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter(Boolean);
  if (!tags.every((t) => (runner.tag_list ?? []).includes(t))) return false;
  if (f.version_prefix !== undefined && !(runner.managers ?? []).some((m) => m.version.startsWith(f.version_prefix!)))
    return false;
  return true;
}

/**
 * Filters of the project and group lists, which document only some of them: the others (their table's `undocumented`)
 * are read from the URL and validated as the instance list validates them, else its 400.
 */
function filtersOf(
  request: FastifyRequest,
  operationId: string,
  documented: Filters,
): { filters: Filters } | TwinRefusal {
  const { twin, names } = parameterTables[operationId]!.undocumented!;
  const read = twinQuery(request, twin, names);
  if (!('values' in read)) return read;
  return { filters: { ...(read.values as Filters), ...documented } };
}

type TwinRefusal = { status: 400; body: Record<string, unknown> };

const runners = (store: Store) => (store.data.runners ??= []);
const findRunner = (store: Store, id: number) => runners(store).find((r) => r.id === id);
const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

const ancestors = (store: Store, group: FakeGroup | undefined) => groupAncestors(store, group);

/** Administrators manage every runner; Maintainers their groups' and projects' runners. */
const canManage = (store: Store, runner: FakeRunner, user: FakeUser): boolean => {
  if (user.is_admin) return true;
  if (runner.runner_type === 'group_type') return store.groupAccess(store.group(runner.group_id ?? -1), user.id) >= 40;
  if (runner.runner_type === 'project_type') {
    return (runner.project_ids ?? []).some((id) => {
      const project = store.project(id);
      return project !== undefined && store.hasAccess(project, user, 40);
    });
  }
  return false;
};
const canRead = (store: Store, runner: FakeRunner, user: FakeUser) =>
  runner.runner_type === 'instance_type' || canManage(store, runner, user);

// The four deprecated fields: empty strings, or null (what the Service sends) for a runner without a manager.
const deprecated = (runner: FakeRunner) => (runner.status === 'never_contacted' ? null : '');
const details = (store: Store, runner: FakeRunner) => ({
  ...runnerSummary(runner),
  architecture: deprecated(runner),
  platform: deprecated(runner),
  version: deprecated(runner),
  revision: deprecated(runner),
  contacted_at: runner.status === 'never_contacted' ? null : (runner.contacted_at ?? null),
  maintenance_note: runner.maintenance_note ?? null,
  projects: (runner.project_ids ?? []).flatMap((id) => {
    const project = store.project(id);
    if (!project) return [];
    const { id: pid, name, name_with_namespace, path, path_with_namespace } = store.projectIdentity(project);
    return [{ id: pid, name, name_with_namespace, path, path_with_namespace }];
  }),
  tag_list: [...(runner.tag_list ?? [])],
  access_level: runner.access_level ?? 'not_protected',
  maximum_timeout: runner.maximum_timeout ?? null,
});

/** Jobs of a runner in projects where the caller is at least Reporter. */
const visibleJobs = (store: Store, runner: FakeRunner, user: FakeUser) =>
  store.data.jobs.filter((j) => {
    if (j.runner_id !== runner.id) return false;
    const project = store.project(j.project_id);
    return project !== undefined && store.hasAccess(project, user, 20);
  });

const listPage = (items: FakeRunner[], query: { page?: number; per_page?: number }, request: FastifyRequest) => {
  const page = paginate([...items].sort(byId), query, request);
  return { status: 200 as const, body: page.items.map(runnerSummary), headers: page.headers };
};

// The body of a token without a needed scope, as for sudo (the error body is an open object).
const scopeError: Record<string, string> = {
  error: 'insufficient_scope',
  error_description: 'The request requires higher privileges than provided by the access token.',
  scope: 'create_runner',
};
const insufficientScope = { status: 403 as const, body: scopeError };
const registrationAllowed = (store: Store, kind: 'group' | 'project') => {
  const registrars = store.data.application_settings?.valid_runner_registrars;
  return !Array.isArray(registrars) || registrars.includes(kind);
};

const createUserRunner =
  (store: Store): Handler<'runners/create-user-runner', Principal> =>
  ({ body }, { principal }) => {
    if (!(principal.token.scopes ?? []).includes('create_runner')) return insufficientScope;
    const user = principal.user;
    const admin = user.is_admin === true;
    let owner: Pick<FakeRunner, 'group_id' | 'project_ids'> = {};
    if (body.runner_type === 'instance_type') {
      if (!admin) return FORBIDDEN;
    } else if (body.runner_type === 'group_type') {
      const group = readableGroup(store, body.group_id!, principal);
      if (!group) return GROUP_NOT_FOUND;
      if (!admin && (store.groupAccess(group, user.id) < 50 || !registrationAllowed(store, 'group'))) return FORBIDDEN;
      owner = { group_id: group.id };
    } else {
      const project = readableProject(store, body.project_id!, principal);
      if (!project) return PROJECT_NOT_FOUND;
      if (!admin && (store.projectAccess(project, user) < 50 || !registrationAllowed(store, 'project')))
        return FORBIDDEN;
      owner = { project_ids: [project.id] };
    }
    const runner: FakeRunner = {
      id: store.nextId('runners', runners(store)),
      runner_type: body.runner_type,
      ...owner,
      description: body.description ?? null,
      name: null,
      status: 'never_contacted',
      paused: body.paused === true,
      locked: body.locked === true,
      run_untagged: body.run_untagged ?? true,
      tag_list: [...new Set(body.tag_list ?? [])],
      access_level: body.access_level ?? 'not_protected',
      maximum_timeout: body.maximum_timeout ?? null,
      maintenance_note: body.maintenance_note ?? null,
      contacted_at: null,
      managers: [],
      creator_id: user.id,
      created_at: store.now(true),
    };
    runners(store).push(runner);
    const token = createHash('sha256')
      .update(`runner\n${runner.id}\n${user.id}\n${runner.created_at}`)
      .digest('hex')
      .slice(0, 24);
    return { status: 201, body: { id: runner.id, token, token_expires_at: null } };
  };

const listRunners =
  (store: Store): Handler<'runners/list-runners', Principal> =>
  ({ query }, { principal, request }) =>
    listPage(
      runners(store).filter(
        (r) => r.runner_type !== 'instance_type' && canManage(store, r, principal.user) && matches(r, query),
      ),
      query,
      request,
    );

const listAllRunners =
  (store: Store): Handler<'runners/list-all-runners', Principal> =>
  ({ query }, { principal, request }) => {
    if (!principal.user.is_admin) return FORBIDDEN;
    return listPage(
      runners(store).filter((r) => matches(r, query)),
      query,
      request,
    );
  };

const getRunner =
  (store: Store): Handler<'runners/get-runner', Principal> =>
  ({ params }, { principal }) => {
    const runner = findRunner(store, params.id);
    if (!runner) return RUNNER_NOT_FOUND;
    if (!canRead(store, runner, principal.user)) return FORBIDDEN;
    return { status: 200, body: details(store, runner) };
  };

const updateRunner =
  (store: Store): Handler<'runners/update-runner', Principal> =>
  ({ params, body }, { principal }) => {
    const runner = findRunner(store, params.id);
    if (!runner) return RUNNER_NOT_FOUND;
    if (!canManage(store, runner, principal.user)) return FORBIDDEN;
    const input = body ?? {};
    if (input.description !== undefined) runner.description = input.description;
    if (input.active !== undefined) runner.paused = !input.active;
    if (input.paused !== undefined) runner.paused = input.paused;
    if (input.tag_list !== undefined) runner.tag_list = [...new Set(input.tag_list)];
    if (input.run_untagged !== undefined) runner.run_untagged = input.run_untagged;
    if (input.locked !== undefined) runner.locked = input.locked;
    if (input.access_level !== undefined) runner.access_level = input.access_level;
    if (input.maximum_timeout !== undefined) runner.maximum_timeout = input.maximum_timeout;
    if (input.maintenance_note !== undefined) runner.maintenance_note = input.maintenance_note;
    store.now(true);
    return { status: 200, body: details(store, runner) };
  };

const listRunnerJobs =
  (store: Store): Handler<'runners/list-runner-jobs', Principal> =>
  ({ params, query }, { principal, request }) => {
    const runner = findRunner(store, params.id);
    if (!runner) return RUNNER_NOT_FOUND;
    if (!canRead(store, runner, principal.user)) return FORBIDDEN;
    const jobs = visibleJobs(store, runner, principal.user)
      .filter(
        (j) =>
          (query.status === undefined || j.status === query.status) &&
          (query.system_id === undefined || j.runner_system_id === query.system_id),
      )
      .sort((a, b) => (query.sort === 'asc' ? a.id - b.id : b.id - a.id));
    const page = paginate(jobs, query, request);
    return { status: 200, body: page.items.map((j) => jobRecord(store, j)), headers: page.headers };
  };

const listRunnerManagerJobs =
  (store: Store): Handler<'runners/list-runner-manager-jobs', Principal> =>
  ({ params, query }, { principal, request }) => {
    const runner = findRunner(store, params.id);
    if (!runner) return RUNNER_NOT_FOUND;
    if (!canRead(store, runner, principal.user)) return FORBIDDEN;
    if (!(runner.managers ?? []).some((m) => m.system_id === params.system_id))
      return { status: 404, body: message('404 Runner Manager Not Found') };
    const jobs = visibleJobs(store, runner, principal.user)
      .filter((j) => j.runner_system_id === params.system_id)
      .sort((a, b) => b.id - a.id);
    const page = paginate(jobs, query, request);
    return { status: 200, body: page.items.map((j) => jobRecord(store, j)), headers: page.headers };
  };

const listProjectRunners =
  (store: Store): Handler<'runners/list-project-runners', Principal> =>
  ({ params, query }, { principal, request }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    if (!store.hasAccess(project, principal.user, 40)) return FORBIDDEN;
    const groups = new Set(ancestors(store, store.group(project.namespace_id)).map((g) => g.id));
    const available = runners(store).filter(
      (r) =>
        r.runner_type === 'instance_type' ||
        (r.runner_type === 'group_type' && groups.has(r.group_id ?? -1)) ||
        (r.runner_type === 'project_type' && (r.project_ids ?? []).includes(project.id)),
    );
    const read = filtersOf(request, 'runners/list-project-runners', { scope: query.scope, type: query.type });
    if (!('filters' in read)) return read;
    const { filters } = read;
    return listPage(
      available.filter((r) => matches(r, filters)),
      query,
      request,
    );
  };

const listGroupRunners =
  (store: Store): Handler<'runners/list-group-runners', Principal> =>
  ({ params, query }, { principal, request }) => {
    const group = readableGroup(store, params.id, principal);
    if (!group) return GROUP_NOT_FOUND;
    if (!principal.user.is_admin && store.groupAccess(group, principal.user.id) < 40) return FORBIDDEN;
    const groups = new Set(ancestors(store, group).map((g) => g.id));
    const read = filtersOf(request, 'runners/list-group-runners', {});
    if (!('filters' in read)) return read;
    const { filters } = read;
    return listPage(
      runners(store).filter(
        (r) => r.runner_type === 'group_type' && groups.has(r.group_id ?? -1) && matches(r, filters),
      ),
      query,
      request,
    );
  };

export function runnerHandlers(store: Store): Handlers<Principal> {
  return {
    'runners/create-user-runner': createUserRunner(store),
    'runners/list-runners': listRunners(store),
    'runners/list-all-runners': listAllRunners(store),
    'runners/get-runner': getRunner(store),
    'runners/update-runner': updateRunner(store),
    'runners/list-runner-jobs': listRunnerJobs(store),
    'runners/list-runner-manager-jobs': listRunnerManagerJobs(store),
    'runners/list-project-runners': listProjectRunners(store),
    'runners/list-group-runners': listGroupRunners(store),
  };
}
