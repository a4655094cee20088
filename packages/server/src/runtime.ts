/**
 * The runtime of the server stubs: registers every operation on a Fastify scope and runs each request through its
 * stages, each in its own module: admission before any body is read (`admission.ts`, with the credentials of
 * `credentials.ts`), the body parsers (`parsers.ts`), the Service's tolerances or strict refusals (`tolerance.ts`),
 * validation and the handler, the answer (`respond.ts`), errors in the API's shape (`errors.ts`) and the access log
 * (`access-log.ts`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  addAccessLog,
  reportTolerances,
  type AccessLog,
  type OnTolerated,
  type ToleranceReport,
} from './access-log.js';
import { admissionRoute, admit, admitBody, type AdmissionRoute, type Verdict } from './admission.js';
import { corsHeaders, corsPolicy } from './cors.js';
import type { AuthenticateContext, Credential, SchemeLocation } from './credentials.js';
import { errorMapper, refuser, type Refuse } from './errors.js';
import { essence } from './input.js';
import { registerBodyParsers, sourceOf } from './parsers.js';
import { filePathProblem } from './repository-path.js';
import { isThenable, send, settled, type HandlerResultShape, type ResponseCheck } from './respond.js';
import { defaultLimits, type RouteDescriptor, type ServiceApiLimits } from './route.js';
import { fastifyPath, unroutedRequests } from './routing.js';
import { normalizeInput, Tolerances } from './tolerance.js';

// The generated routes import their types from here.
export type { RouteDescriptor } from './route.js';
export type { SchemeLocation } from './credentials.js';

export interface RequestCheck {
  valid: boolean;
  errors: string[];
  problems: { in: string; field: string; problem: string }[];
  value: {
    params: Record<string, unknown>;
    query: Record<string, unknown>;
    headers: Record<string, unknown>;
    body?: unknown;
  };
}

export interface RuntimeHooks {
  validateRequest(
    operationId: string,
    request: { params: unknown; query: unknown; headers: unknown; body?: unknown },
  ): RequestCheck;
  validateResponse?: ResponseCheck;
}

type HandlerInputShape = { params: unknown; query: unknown; headers: unknown; body: unknown };

export type AnyHandler = (
  input: HandlerInputShape,
  context: HandlerContextShape,
) => HandlerResultShape | Promise<HandlerResultShape>;

export interface HandlerContextShape {
  operationId: string;
  principal: unknown;
  credentials: Credential[];
  request: FastifyRequest;
  reply: FastifyReply;
}

/** The runtime's options besides the handlers and `authenticate`, as the plugin takes them. */
export interface RuntimeOptions {
  /** Check JSON responses against the document (a mismatch answers 500 naming it); for tests and development. */
  validateResponses?: boolean;
  /**
   * Bounds on every input (see `defaultLimits`): JSON and form bodies 16 MiB, multipart bodies 100 MiB (a file
   * with a documented maximum, such as the 200 KiB avatar, gets 400 above it), query string 16 KiB and 1000
   * parameters, 1000 body fields, 20 problems listed per 400.
   */
  limits?: Partial<ServiceApiLimits>;
  /** Refuse what the Service tolerates (string booleans, writes in the query, forms, unknown fields) with a 400 naming the field. */
  strict?: boolean;
  /** Called with what a request's tolerated input was (at most `limits.errors` entries and their count); also logged at `info`. */
  onTolerated?: OnTolerated;
  /**
   * CORS for browsers: `true` lets any origin read the answers without credentials (`*`); a list of origins
   * (`['http://localhost:5173']`) lets exactly those, with credentials. Every answer exposes the API's headers; a
   * preflight (`OPTIONS`) on a known path answers 204 with its methods.
   */
  cors?: boolean | readonly string[];
  /** Called once per answer under the prefix (401, 404 and 405 included) with `{ method, url, status, operationId, ms, tolerated }`, for an access log. */
  accessLog?: AccessLog;
}

export interface MountOptions extends RuntimeOptions {
  handlers: Record<string, AnyHandler | undefined>;
  /** Decides who a caller that sent credentials is (see `ServiceApiOptions.authenticate`). */
  authenticate?: (context: AuthenticateContext) => unknown;
}

/** An admitted request: its route, query and credentials, and who the caller is. */
interface RequestState {
  query: Record<string, unknown>;
  credentials: Credential[];
  route: RouteDescriptor;
  principal: unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    serviceApi: unknown;
  }
}

/** Registers every operation on a Fastify scope (the caller sets the `/api/v4` prefix). */
export async function mountOperations(
  scope: FastifyInstance,
  routes: RouteDescriptor[],
  schemes: Record<string, SchemeLocation>,
  hooks: RuntimeHooks,
  options: MountOptions,
): Promise<void> {
  const limits: ServiceApiLimits = { ...defaultLimits, ...options.limits };
  const refuse = refuser(limits);
  scope.decorateRequest('serviceApi', null);
  const cors = corsPolicy(options.cors);
  if (cors) {
    scope.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      void reply.headers(corsHeaders(request.headers, cors));
      done();
    });
  }
  const toleratedOf = options.accessLog ? addAccessLog(scope, routes, options.accessLog) : undefined;
  registerBodyParsers(scope, limits, (request) => (request.serviceApi as RequestState | null)?.route.files);
  scope.setErrorHandler(errorMapper(limits, refuse));
  await scope.register(unroutedRequests(routes, refuse, cors !== undefined));
  // A GET answers HEAD as itself without a body (as Grape does), unless the path documents its own HEAD operation.
  const heads = new Set(routes.filter((route) => route.method === 'HEAD').map((route) => route.path));
  const context = { schemes, hooks, options, limits, refuse, toleratedOf };
  for (const route of routes) {
    const operation = new MountedOperation(route, context);
    scope.route({
      method: route.method,
      url: fastifyPath(route.path),
      exposeHeadRoute: route.method === 'GET' && !heads.has(route.path),
      bodyLimit: operation.admission.limit,
      ...(operation.admission.readsBody ? { onRequest: operation.onRequest } : {}),
      handler: operation.handle,
    });
  }
}

interface MountContext {
  schemes: Record<string, SchemeLocation>;
  hooks: RuntimeHooks;
  options: MountOptions;
  limits: ServiceApiLimits;
  refuse: Refuse;
  /** Set when an access log wants each request's tolerance report. */
  toleratedOf?: WeakMap<FastifyRequest, ToleranceReport>;
}

/** Admitted, or undefined once answered; a promise only while `authenticate`'s promise is pending. */
type Admission = RequestState | undefined | Promise<RequestState | undefined>;

/** One operation: its admission (before the body is read), then tolerances, validation, the handler and the answer. */
class MountedOperation {
  readonly admission: AdmissionRoute;

  constructor(
    private readonly route: RouteDescriptor,
    private readonly context: MountContext,
  ) {
    this.admission = admissionRoute(route, context.schemes, context.limits);
  }

  // Callback style, and no promise unless `authenticate` returns one: an async hook costs a promise per request.
  // An admission that answered (401, 413, 415…) leaves `done` uncalled: the reply is sent.
  readonly onRequest = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    const admission = this.admit(request, reply);
    if (admission instanceof Promise) {
      admission.then((admitted) => {
        if (!admitted) return;
        request.serviceApi = admitted;
        done();
      }, done);
      return;
    }
    if (!admission) return;
    request.serviceApi = admission;
    done();
  };

  // Synchronous (no promise, no thenable to resolve) unless `authenticate`, the handler or a Blob body is
  // asynchronous; a throw or a rejection reaches the error handler either way. A promise resolves to the reply:
  // Fastify then waits for the reply's end, where a promise of nothing would make it end a reply still streaming
  // (or still reading a body before a refusal) with an empty body.
  readonly handle = (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | undefined => {
    // A route without a body has nothing to read: it is admitted here, which spares a hook per request.
    const admission = this.admission.readsBody ? (request.serviceApi as RequestState) : this.admit(request, reply);
    const answered =
      admission instanceof Promise
        ? admission.then((admitted) => (admitted ? this.respond(request, reply, admitted) : undefined))
        : admission
          ? this.respond(request, reply, admission)
          : undefined;
    return answered?.then(() => reply);
  };

  /** Before the body is read: the query, the caller, the handler, the media type and the declared length. */
  private admit(request: FastifyRequest, reply: FastifyReply): Admission {
    const { refuse, limits, options } = this.context;
    const verdict = admit(request.raw.url ?? '', request.headers, this.admission, limits);
    if (verdict.refusal) return refuse(request, reply, verdict.refusal);
    const authenticate = options.authenticate;
    // An anonymous caller is never passed to `authenticate`: the operation lets it in or answers 401.
    if (verdict.credentials.length === 0 || !authenticate)
      return this.route.authenticated
        ? refuse(request, reply, { status: 401 })
        : this.admitted(request, reply, verdict);
    const principal = authenticate({
      operationId: this.route.id,
      credentials: verdict.credentials as [Credential, ...Credential[]],
      request,
    });
    // Credentials that `authenticate` refuses are 401, also on an operation open to anonymous callers.
    if (isThenable(principal))
      return Promise.resolve(principal).then((resolved) =>
        resolved ? this.admitted(request, reply, verdict, resolved) : refuse(request, reply, { status: 401 }),
      );
    return principal ? this.admitted(request, reply, verdict, principal) : refuse(request, reply, { status: 401 });
  }

  /** A known caller: a handler to answer (501), then the body's media type and declared length. */
  private admitted(
    request: FastifyRequest,
    reply: FastifyReply,
    admitted: Verdict,
    principal?: unknown,
  ): RequestState | undefined {
    const { refuse, limits, options } = this.context;
    if (!options.handlers[this.route.id])
      return refuse(request, reply, { status: 501, detail: `no handler for ${this.route.id}` });
    const refusal = admitBody(request.headers, this.admission, limits);
    if (refusal) return refuse(request, reply, refusal);
    return { route: this.route, query: admitted.query, credentials: admitted.credentials, principal };
  }

  /** The handler's input, validated, and its answer. */
  private respond(request: FastifyRequest, reply: FastifyReply, admitted: RequestState): Promise<void> | undefined {
    const input = this.input(request, reply, admitted.query);
    if (!input) return undefined;
    const { hooks, options } = this.context;
    const returned = options.handlers[this.route.id]!(input, {
      operationId: this.route.id,
      principal: admitted.principal,
      credentials: admitted.credentials,
      request,
      reply,
    });
    const check = options.validateResponses === true ? hooks.validateResponse : undefined;
    if (isThenable(returned))
      return Promise.resolve(returned).then((result) => settled(send(this.route, reply, result, check)));
    return settled(send(this.route, reply, returned, check));
  }

  /** Tolerances (or their refusal), the file path, then validation: the handler's input, or undefined once refused. */
  private input(
    request: FastifyRequest,
    reply: FastifyReply,
    query: Record<string, unknown>,
  ): HandlerInputShape | undefined {
    const { refuse, limits, options } = this.context;
    const params = request.params as Record<string, unknown>;
    const tolerances = new Tolerances(limits.errors);
    const body = request.body === null ? undefined : request.body;
    const source = body === undefined ? undefined : sourceOf(request.headers['content-type']);
    const documented = this.route.body ? essence(this.route.body.type) : undefined;
    const shape = { method: this.route.method, shape: this.route.input, params, query, body, source, documented };
    const input = normalizeInput(shape, tolerances);
    if (tolerances.count > 0) {
      if (options.strict)
        return refuse(request, reply, { status: 400, problems: tolerances.list, total: tolerances.count });
      const report = reportTolerances(this.route, request, tolerances, options.onTolerated);
      this.context.toleratedOf?.set(request, report);
    }
    const pathProblem = filePathProblem(this.route.method, params);
    if (pathProblem) return refuse(request, reply, { status: 400, problems: [pathProblem] });
    return this.validated(request, reply, input);
  }

  /** The input checked against the document; only the documented headers are validated (and coerced). */
  private validated(
    request: FastifyRequest,
    reply: FastifyReply,
    input: { query: Record<string, unknown>; body: unknown },
  ): HandlerInputShape | undefined {
    const documentedHeaders: Record<string, unknown> = {};
    let sentDocumented = false;
    for (const name of this.route.headers ?? []) {
      const value = request.headers[name];
      if (value === undefined) continue;
      documentedHeaders[name] = value;
      sentDocumented = true;
    }
    const check = this.context.hooks.validateRequest(this.route.id, {
      params: request.params,
      query: input.query,
      headers: documentedHeaders,
      body: input.body,
    });
    if (!check.valid) return this.context.refuse(request, reply, { status: 400, problems: check.problems });
    // A copy only when a documented header was sent (its validated, coerced value replaces the raw one); the handler
    // gets them over all the others.
    const headers = sentDocumented ? { ...request.headers, ...check.value.headers } : request.headers;
    return { params: check.value.params, query: check.value.query, headers, body: check.value.body };
  }
}
