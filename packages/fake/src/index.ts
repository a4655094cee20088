/**
 * @service-api/fake: a stateful fake of the Service HTTP API v4 on @service-api/server. Operations with a handler here
 * behave as the seeds state over in-memory state; every other operation answers the server's 501 (after
 * authentication), never invented data.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { registerServiceApi, routes, serviceApiServerOptions, type Handlers } from '@service-api/server';
import { corsPolicy, originListed, type CorsPolicy } from '@service-api/server/internal';
import { createAuthenticate, type Principal } from './auth.ts';
import type { FakeData } from './data.ts';
import { defaultData } from './default-data.ts';
import { planLimitHandlers } from './handlers/application/plan-limits.ts';
import { settingsHandlers } from './handlers/application/settings.ts';
import { approvalHandlers } from './handlers/approvals/approvals.ts';
import { groupApprovalHandlers } from './handlers/approvals/group-approvals.ts';
import { badgeHandlers } from './handlers/badges/badges.ts';
import { bulkImportHandlers } from './handlers/bulk-imports/bulk-imports.ts';
import { dependencyHandlers } from './handlers/dependencies/dependencies.ts';
import { errorTrackingHandlers } from './handlers/error-tracking/error-tracking.ts';
import { groupHookHandlers } from './handlers/groups/group-hooks.ts';
import { groupLinkHandlers } from './handlers/groups/group-links.ts';
import { groupProjectHandlers } from './handlers/groups/group-projects.ts';
import { groupHandlers } from './handlers/groups/groups.ts';
import { integrationHandlers } from './handlers/integrations/integrations.ts';
import { invitationHandlers } from './handlers/invitations/invitations.ts';
import { bridgeHandlers } from './handlers/jobs/bridges.ts';
import { jobHandlers } from './handlers/jobs/jobs.ts';
import { billableHandlers } from './handlers/members/billable.ts';
import { memberHandlers } from './handlers/members/members.ts';
import { mergeRequestHandlers } from './handlers/merge-requests/merge-requests.ts';
import { analyticsHandlers } from './handlers/product-analytics/analytics.ts';
import { exportHandlers } from './handlers/project-import-export/export.ts';
import { importHandlers } from './handlers/project-import-export/imports.ts';
import { projectHandlers } from './handlers/projects/projects.ts';
import { archiveHandlers } from './handlers/repository/archives.ts';
import { blameHandlers } from './handlers/repository/blame.ts';
import { changelogHandlers } from './handlers/repository/changelog.ts';
import { compareHandlers } from './handlers/repository/compare.ts';
import { repositoryHandlers } from './handlers/repository/repository.ts';
import { runnerHandlers } from './handlers/runners/runners.ts';
import { userListHandlers } from './handlers/users/list-users.ts';
import { tokenHandlers } from './handlers/users/tokens.ts';
import { userAccountHandlers } from './handlers/users/user-accounts.ts';
import { userHandlers } from './handlers/users/users.ts';
import { inProcessFetch, trustInProcess } from './in-process.ts';
import { Store } from './store.ts';

export type * from './data.ts';
export type { Principal } from './auth.ts';
export { defaultData } from './default-data.ts';
/** The version of the contract this package implements (that of the @service-api/server it runs on). */
export { contractVersion } from '@service-api/server';

export interface FakeOptions {
  /** The data set (default: `defaultData()`); `reset()` restores it. */
  data?: FakeData;
  /** Every token is the data set's administrator (with the `sudo` and `create_runner` scopes). */
  anyToken?: boolean;
  /** Check every JSON response against the contract (a mismatch answers 500 naming it); for tests. */
  validateResponses?: boolean;
  /** Refuse what the Service tolerates (see @service-api/server). */
  strict?: boolean;
  /** Fastify's logger (default off). */
  logger?: boolean;
  /**
   * Answer browsers on other origins (a front-end dev server): `true` lets any page read the answers without
   * credentials (`Access-Control-Allow-Origin: *`); a list (`['http://localhost:5173']`) lets exactly those origins,
   * with credentials. The control routes (`/__fake/reset`, `/__fake/state`) answer only the fake's own origin and the
   * listed ones (403 for any other page).
   */
  cors?: boolean | string[];
}

/** The fake in this process: its app, its state, and a `fetch` it answers without a port. */
export interface Fake {
  app: FastifyInstance;
  /** Restores the data set. */
  reset(): void;
  /** The current state, as JSON. */
  state(): FakeData;
  /**
   * A `fetch` the fake answers in this process, with no socket: the same input path and the same answers as over
   * HTTP, at whatever origin the URL names (`https://service.example/api/v4/…`). Pass it to
   * `createServiceApi({ fetch })` or openapi-fetch, or use the MSW handlers of `@service-api/fake/msw`.
   */
  fetch: typeof fetch;
}

export interface StartOptions extends FakeOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface RunningFake extends Fake {
  /** The origin, e.g. `http://127.0.0.1:4010`; the API is under `/api/v4`. */
  url: string;
  close(): Promise<void>;
}

/** The handlers of one store, keyed by operationId: the operations the fake implements. */
function handlersOf(store: Store): Handlers<Principal> {
  return {
    ...jobHandlers(store),
    ...repositoryHandlers(store),
    ...mergeRequestHandlers(store),
    ...memberHandlers(store),
    ...groupHandlers(store),
    ...invitationHandlers(store),
    ...exportHandlers(store),
    ...errorTrackingHandlers(store),
    ...userHandlers(store),
    ...projectHandlers(store),
    ...approvalHandlers(store),
    ...planLimitHandlers(store),
    ...userListHandlers(store),
    ...badgeHandlers(store),
    ...billableHandlers(store),
    ...groupApprovalHandlers(store),
    ...settingsHandlers(store),
    ...dependencyHandlers(store),
    ...analyticsHandlers(store),
    ...userAccountHandlers(store),
    ...tokenHandlers(store),
    ...runnerHandlers(store),
    ...bridgeHandlers(store),
    ...importHandlers(store),
    ...bulkImportHandlers(store),
    ...integrationHandlers(store),
    ...groupProjectHandlers(store),
    ...groupHookHandlers(store),
    ...groupLinkHandlers(store),
    ...blameHandlers(store),
    ...archiveHandlers(store),
    ...compareHandlers(store),
    ...changelogHandlers(store),
  };
}

/** The operationIds the fake implements, sorted (docs/fake.md's list is checked against it). */
export const implementedOperations: string[] = Object.keys(
  handlersOf(
    new Store({ users: [], tokens: [], groups: [], projects: [], pipelines: [], jobs: [], merge_requests: [] }),
  ),
).sort();

/**
 * Every handler first answers a refused sudo (403/403/404 with the API's bodies) and an invalid credential on an
 * operation that also allows anonymous callers (401), then runs against the store of the moment.
 */
function guarded(current: () => { handlers: Handlers<Principal>; store: Store }): Handlers<Principal> {
  const out: Record<string, unknown> = {};
  for (const id of implementedOperations) {
    const route = routes.find((r) => r.id === id);
    const projectScoped = route?.path.startsWith('/projects/{id}') === true;
    const writes = route?.method !== 'GET' && route?.method !== 'HEAD';
    out[id] = (
      input: { params: { id?: unknown } },
      context: { principal: Principal | undefined; credentials: unknown[]; request: FastifyRequest },
    ) => {
      if (context.principal?.refusal) return context.principal.refusal;
      if (!context.principal && context.credentials.length > 0)
        return { status: 401, body: { message: '401 Unauthorized' } };
      const { handlers, store } = current();
      if (writes) store.revision += 1;
      if (context.principal) context.principal.user.last_activity_on = store.now().slice(0, 10); // API use is activity
      if (projectScoped && typeof input.params.id === 'string') {
        const moved = store.movedProject(input.params.id);
        if (moved && store.canRead(moved, context.principal?.user))
          return { status: 301, headers: { location: movedUrl(context.request, moved.id) } };
      }
      const handler = handlers[id as keyof Handlers<Principal>] as (input: never, context: never) => unknown;
      return handler(input as never, context as never);
    };
  }
  return out as Handlers<Principal>;
}

/** The request's URL with the project's old path replaced by its numeric id (Part 1 §7 rule 3). */
function movedUrl(request: FastifyRequest, id: number): string {
  const url = request.raw.url ?? '/';
  const rest = url.replace(/^(.*?\/projects\/)[^/?]+/, `$1${id}`);
  return `${request.protocol}://${request.headers.host ?? 'localhost'}${rest}`;
}

/**
 * The control routes refuse a page of another origin (403): its `Origin` is not the fake's own nor a listed one, or
 * the browser says the call is not same-origin (`Sec-Fetch-Site`). A page a developer opens cannot reset or read
 * their fake; curl, tests and the in-process `fetch` send neither header.
 */
function sameSiteOnly(policy: CorsPolicy | undefined) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const { origin } = request.headers;
    const site = request.headers['sec-fetch-site'];
    const foreign =
      (origin !== undefined && origin !== `${request.protocol}://${request.headers.host}`) ||
      (site !== undefined && site !== 'same-origin' && site !== 'none');
    if (!foreign || originListed(request.headers, policy)) {
      done();
      return;
    }
    void reply.code(403).send({ message: "403 Forbidden - the control routes answer only the fake's own origin" });
  };
}

/** The fake, not listening: its Fastify app (with `/__fake/reset` and `/__fake/state`) and its in-process `fetch`. */
export async function createFake(options: FakeOptions = {}): Promise<Fake> {
  const data = structuredClone(options.data ?? defaultData());
  let store = new Store(data);
  let handlers = handlersOf(store);
  const reset = () => {
    store = new Store(data);
    handlers = handlersOf(store);
  };
  const state = () => store.snapshot();
  const app = Fastify(serviceApiServerOptions({ logger: options.logger ?? false, trustProxy: trustInProcess }));
  await registerServiceApi(app, {
    handlers: guarded(() => ({ handlers, store })),
    authenticate: (context) => createAuthenticate(store, { anyToken: options.anyToken === true })(context),
    validateResponses: options.validateResponses,
    strict: options.strict,
    cors: options.cors,
  });
  const control = { onRequest: sameSiteOnly(corsPolicy(options.cors)) };
  app.post('/__fake/reset', control, async (_request, reply) => {
    reset();
    return reply.code(200).send({ message: 'reset' });
  });
  app.get('/__fake/state', control, async (_request, reply) => reply.code(200).send(state()));
  return { app, reset, state, fetch: inProcessFetch(app) };
}

/** Starts the fake on `host:port` (default 127.0.0.1 and a free port). */
export async function startFake(options: StartOptions = {}): Promise<RunningFake> {
  const fake = await createFake(options);
  const { app } = fake;
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return { ...fake, url: `http://${shown}:${port}`, close: () => app.close() };
}
