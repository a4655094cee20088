/**
 * The runtime of the server stubs: a Fastify plugin that registers every operation,
 * authenticates before any body is read, parses bodies with bounded, prototype-safe parsers, applies the Service's
 * tolerances (or refuses them in strict mode), validates requests and sends typed handler results.
 *
 */
import { Readable } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { DISCARD_BYTES, DISCARD_FACTOR, JSON_TYPE, refuseAfterBody, sendJsonText } from './answer.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import { bytes, essence, hasBody, InputError, parseCookies, parseQuery, shown } from './input.js';
import { responseJson } from './json.js';
import { registerBodyParsers, sourceOf, tooBig } from './parsers.js';
import { normalizeInput, Tolerances, type InputShape, type Tolerated } from './tolerance.js';
import { filePathProblem } from './repository-path.js';

export { DISCARD_BYTES, DISCARD_FACTOR, JSON_TYPE } from './answer.js';
export { filePathProblem, INVALID_FILE_PATH, isValidFilePath } from './repository-path.js';
export { parseBody, parseJsonBody, sourceOf } from './parsers.js';
export { assignField, essence, formFields, InputError, parseCookies, parseForm, parseQuery } from './input.js';
export {
  coerce,
  normalizeInput,
  Tolerances,
  type InputShape,
  type Shape,
  type Source,
  type Tolerated,
} from './tolerance.js';

/** Where a security scheme carries its credential. */
export interface SchemeLocation {
  in: 'header' | 'query' | 'cookie' | 'bearer';
  name: string;
}

/** A credential found in a request, with the security scheme (of `components.securitySchemes`) that carried it. */
export interface Credential {
  scheme: string;
  value: string;
}

export interface RouteDescriptor {
  id: string;
  method: string;
  path: string;
  /** Query parameters not sent as plain or repeated names: `deep` is `name[key]=v`, `csv` is `name=a,b`. */
  query?: Record<string, 'deep' | 'csv'>;
  /** The security alternatives: scheme ids that must all be present. */
  security: string[][];
  authenticated: boolean;
  /** Whether the success body is JSON (else a file, or nothing). */
  json: boolean;
  /** The documented request body. */
  body?: { kind: 'json' | 'multipart'; type: string; required: boolean };
  /** The documented input, to coerce values and drop unknown fields. */
  input: InputShape;
  /** Documented header parameters, in lower case. */
  headers?: string[];
  /** Multipart file fields with their documented maximum size in bytes (null: none documented). */
  files?: Record<string, number | null>;
}

/**
 * What `authenticate` is called with: only for a request that sent at least one credential of the schemes the
 * operation accepts. An anonymous request never reaches it (401 where the operation requires authentication).
 */
export interface AuthenticateContext {
  operationId: string;
  /** The credentials found in the request, of the schemes this operation accepts: never empty. */
  credentials: [Credential, ...Credential[]];
  request: FastifyRequest;
}

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
  validateResponse?(
    operationId: string,
    status: number,
    body: unknown,
  ): { valid: boolean; errors: string[] } | undefined;
}

export interface HandlerResultShape {
  status: number | string;
  body?: unknown;
  headers?: Record<string, unknown>;
}

export type AnyHandler = (
  input: { params: unknown; query: unknown; headers: unknown; body: unknown },
  context: HandlerContextShape,
) => HandlerResultShape | Promise<HandlerResultShape>;

export interface HandlerContextShape {
  operationId: string;
  principal: unknown;
  credentials: Credential[];
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Bounds on every input; each has a default that fits the API's documented limits. */
export interface ServiceApiLimits {
  /** Largest JSON or form body in bytes (default 16 MiB: a 1,048,576-character description or a repository file's content, escaped). */
  jsonBody: number;
  /** Largest multipart body in bytes where the operation documents no file maximum (default 100 MiB, for imports). */
  multipartBody: number;
  /** Longest query string in bytes (default 16 KiB, Node's default header size). */
  queryLength: number;
  /** Most query parameters (default 1000). */
  queryParameters: number;
  /** Most fields of a form or multipart body (default 1000). */
  bodyFields: number;
  /** Most values (objects, arrays, scalars) in a JSON body (default 100,000). */
  jsonValues: number;
  /** Violations listed in a 400 and tolerances in a report (default 20); the total is counted. */
  errors: number;
}

export const defaultLimits: ServiceApiLimits = {
  jsonBody: 16 * 1024 * 1024,
  multipartBody: 100 * 1024 * 1024,
  queryLength: 16 * 1024,
  queryParameters: 1000,
  bodyFields: 1000,
  jsonValues: 100_000,
  errors: 20,
};

/** What a request sent that the contract does not describe in that form, and the server tolerated. */
export interface ToleranceReport {
  operationId: string;
  method: string;
  url: string;
  /** The first `limits.errors` tolerances. */
  tolerated: Tolerated[];
  /** How many there were in all. */
  count: number;
}

export interface MountOptions {
  handlers: Record<string, AnyHandler | undefined>;
  /**
   * Decides who a caller that sent credentials is; a falsy result is 401, also on an operation open to anonymous
   * callers. Never called without a credential. Without it, every authenticated operation answers 401.
   */
  authenticate?: (context: AuthenticateContext) => unknown;
  /** Check each JSON response against the document; a mismatch becomes a 500 naming the problem. */
  validateResponses?: boolean;
  /** Bounds on inputs (see `defaultLimits`). */
  limits?: Partial<ServiceApiLimits>;
  /** Refuse every tolerance with a 400 naming the field, instead of accepting and reporting it. */
  strict?: boolean;
  /** Called with what a request's tolerated input was (bounded); the server also logs it at `info`. */
  onTolerated?: (report: ToleranceReport, request: FastifyRequest) => void;
  /** CORS for browsers: every answer allows the calling origin and exposes the API's headers; preflights are answered. */
  cors?: boolean;
  /** Called once per answer under the prefix (including 401, 404 and 405), for an access log. */
  accessLog?: (entry: AccessLogEntry, request: FastifyRequest) => void;
}

/** One answered request, as `accessLog` receives it. */
export interface AccessLogEntry {
  method: string;
  /** The request's path and query as sent (at most 512 characters). */
  url: string;
  status: number;
  /** The operation the request reached (absent for a 404, a 405 or a preflight). */
  operationId?: string;
  /** From the request's arrival to the answer's end. */
  ms: number;
  /** What was tolerated (the report `onTolerated` receives), if anything. */
  tolerated?: ToleranceReport;
}

/** The credentials of every scheme present in a request (a session cookie only when a scheme reads one). */
export function extractCredentials(
  headers: Record<string, string | string[] | undefined>,
  query: Record<string, unknown>,
  schemes: Record<string, SchemeLocation>,
): Credential[] {
  return credentialReader(schemes)(headers, query);
}

/** A reader of the credentials of these schemes, prepared once per operation. */
function credentialReader(
  schemes: Record<string, SchemeLocation>,
): (headers: Record<string, string | string[] | undefined>, query: Record<string, unknown>) => Credential[] {
  const locations = Object.entries(schemes).map(([scheme, location]) => ({
    scheme,
    in: location.in,
    name: location.in === 'header' ? location.name.toLowerCase() : location.name,
  }));
  return (headers, query) => {
    const found: Credential[] = [];
    let cookies: Record<string, string> | undefined;
    for (const location of locations) {
      let value: unknown;
      if (location.in === 'header') value = first(headers[location.name]);
      else if (location.in === 'query') value = first(query[location.name]);
      else if (location.in === 'cookie') {
        const cookie = first(headers.cookie);
        if (typeof cookie === 'string' && cookie !== '') value = (cookies ??= parseCookies(cookie))[location.name];
      } else {
        const authorization = first(headers.authorization);
        if (typeof authorization === 'string') value = /^Bearer\s+(.+)$/i.exec(authorization)?.[1];
      }
      if (typeof value === 'string' && value !== '') found.push({ scheme: location.scheme, value });
    }
    return found;
  };
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

/** An operation a method and path reach, with its path parameters (decoded). */
export interface MatchedOperation {
  route: RouteDescriptor;
  params: Record<string, string>;
}

/**
 * A matcher of a method and a path (below the prefix, without the query) to its operation, routed as the server routes
 * it: a literal segment wins over a parameter at the same place. For tools that read requests without answering them
 * (a checking proxy); a path with a malformed percent-escape matches nothing.
 */
export function operationMatcher(
  routes: RouteDescriptor[],
): (method: string, path: string) => MatchedOperation | undefined {
  // Routes by method and segment count, the most literal first at the first segment where two differ.
  const buckets = new Map<string, { route: RouteDescriptor; names: string[]; pattern: RegExp; rank: string }[]>();
  for (const route of routes) {
    const segments = route.path.split('/');
    const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const segmentPattern = (segment: string) =>
      segment
        .split(/\{[^}]+\}/)
        .map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('([^/]+?)');
    const pattern = new RegExp(`^${segments.map(segmentPattern).join('/')}$`);
    const rank = literalRank(route.path);
    const key = `${route.method} ${segments.length}`;
    const bucket = buckets.get(key) ?? [];
    bucket.push({ route, names, pattern, rank });
    buckets.set(key, bucket);
  }
  for (const bucket of buckets.values()) bucket.sort((x, y) => (x.rank < y.rank ? -1 : x.rank > y.rank ? 1 : 0));
  return (method, path) => {
    let segments = 1;
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) segments++;
    for (const candidate of buckets.get(`${method} ${segments}`) ?? []) {
      const found = candidate.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      try {
        candidate.names.forEach((name, i) => {
          params[name] = decodeURIComponent(found[i + 1]!);
        });
      } catch {
        return undefined;
      }
      return { route: candidate.route, params };
    }
    return undefined;
  };
}

/** `/projects/{id}/jobs` → `/projects/:id/jobs` (Fastify's syntax; a literal `:` is doubled). */
export function fastifyPath(path: string): string {
  return path.replace(/:/g, '::').replace(/\{([^}]+)\}/g, ':$1');
}

const REASONS: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
};

interface Problem {
  in: string;
  field: string;
  problem: string;
}

/** The API's error body: `{ message }`, and for a 400 the listed problems (at most `max`) and, when cut, their count. */
export function errorBody(
  status: number,
  detail: string | undefined,
  problems: Problem[] = [],
  max = defaultLimits.errors,
  total = problems.length,
): Record<string, unknown> {
  const reason = REASONS[status] ?? 'Error';
  const listed = problems.slice(0, max).map((p) => ({
    in: p.in,
    field: shown(p.field),
    problem: p.problem.length > 300 ? `${p.problem.slice(0, 300)}…` : p.problem,
  }));
  const more = Math.max(total, problems.length) - listed.length;
  const text = detail ?? listed.map((p) => p.problem).join('; ');
  const body: Record<string, unknown> = {
    message: `${status} ${reason}${text ? ` - ${text}${more > 0 ? ` (and ${more} more)` : ''}` : ''}`,
  };
  if (status === 400) {
    body.errors = listed.length > 0 ? listed : [{ in: 'request', field: '', problem: text }];
    if (more > 0) body.error_count = listed.length + more;
  }
  return body;
}

/**
 * Fastify server options for an app that serves the API: prototype poisoning in JSON refused, path parameters up to
 * 4096 characters (file paths), a request timeout, and the router's own errors (a malformed URL escape, an overlong
 * parameter) answered in the API's `{ message }` shape. Pass your own options to override.
 */
export function serviceApiServerOptions(options: FastifyServerOptions = {}): FastifyServerOptions {
  return {
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    requestTimeout: 300_000,
    clientErrorHandler,
    ...options,
    routerOptions: { maxParamLength: 4096, ...options.routerOptions },
    frameworkErrors:
      options.frameworkErrors ??
      ((error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
        const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : error.code === 'FST_ERR_BAD_URL' ? 400 : 500;
        void sendJsonText(
          reply,
          status,
          JSON.stringify(errorBody(status, status === 400 ? 'the URL has a malformed percent-escape' : undefined)),
        );
      }),
  };
}

/** Errors Node's HTTP parser raises before Fastify sees a request (headers too large, a timeout, garbage). */
function clientErrorHandler(error: Error & { code?: string }, socket: import('node:net').Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(
    status === 400
      ? errorBody(400, 'the request is malformed')
      : { message: `${status} ${status === 431 ? REASONS[431] : 'Request Timeout'}` },
  );
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? REASONS[431] : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nConnection: close\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

interface RequestState {
  route: RouteDescriptor;
  query: Record<string, unknown>;
  credentials: Credential[];
  principal: unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    serviceApi: unknown;
  }
}

/** The largest body an operation reads, and the file whose documented maximum a larger one breaks. */
function bodyLimitOf(route: RouteDescriptor, limits: ServiceApiLimits): { limit: number; file?: [string, number] } {
  if (route.body?.kind !== 'multipart') return { limit: limits.jsonBody };
  const files = Object.entries(route.files ?? {});
  const bounded = files.filter((f): f is [string, number] => typeof f[1] === 'number');
  if (files.length === 0 || bounded.length < files.length) return { limit: limits.multipartBody };
  // Every file has a documented maximum: the body may hold them and 64 KiB of other fields.
  const sum = bounded.reduce((total, [, max]) => total + max, 0);
  return { limit: Math.min(limits.multipartBody, sum + 64 * 1024), file: bounded[0] };
}

interface Refusal {
  detail?: string;
  problems?: Problem[];
  /** How many problems there were, when `problems` is cut. */
  total?: number;
  /** How many bytes of an unread body are discarded before answering (default `DISCARD_BYTES`). */
  discard?: number;
}

/** Answers a refusal in the API's shape (after the unread body, if any); returns nothing, to end an admission. */
type Refuse = (request: FastifyRequest, reply: FastifyReply, status: number, refusal?: Refusal) => undefined;

function refuser(limits: ServiceApiLimits): Refuse {
  return (request, reply, status, refusal = {}) => {
    refuseAfterBody(
      request,
      reply,
      status,
      errorBody(status, refusal.detail, refusal.problems, limits.errors, refusal.total),
      refusal.discard ?? DISCARD_BYTES,
    );
    return undefined;
  };
}

/** A body above `limit`: the file's own message where the operation documents every file's maximum, else 413. */
function refuseOverLimit(
  refuse: Refuse,
  request: FastifyRequest,
  reply: FastifyReply,
  route: RouteDescriptor | undefined,
  limit: number,
  limits: ServiceApiLimits,
): undefined {
  const file = route ? bodyLimitOf(route, limits).file : undefined;
  const discard = DISCARD_FACTOR * limit;
  if (file)
    return refuse(request, reply, 400, {
      problems: [{ in: 'body', field: file[0], problem: tooBig(...file).message }],
      discard,
    });
  return refuse(request, reply, 413, { detail: `the body is larger than ${bytes(limit)}`, discard });
}

/** Fastify's and the parsers' errors as the API's answers; anything unexpected is a logged 500. */
function errorMapper(limits: ServiceApiLimits, refuse: Refuse) {
  return (error: FastifyError | InputError, request: FastifyRequest, reply: FastifyReply): undefined => {
    if (error instanceof InputError)
      return refuse(request, reply, error.statusCode, {
        problems: [{ in: error.part, field: error.field, problem: error.message }],
      });
    const route = (request.serviceApi as RequestState | null)?.route;
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return refuseOverLimit(
          refuse,
          request,
          reply,
          route,
          route ? bodyLimitOf(route, limits).limit : limits.jsonBody,
          limits,
        );
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return refuse(request, reply, 415, { detail: 'the operation does not read this media type' });
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return refuse(request, reply, 400, {
          problems: [
            { in: 'body', field: '', problem: 'body is not valid JSON (or names __proto__ or constructor.prototype)' },
          ],
        });
    }
    const status =
      typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (status >= 500) request.log.error(error);
    return refuse(request, reply, status, { detail: status === 400 ? `the request is malformed` : undefined });
  };
}

/**
 * Requests no operation takes: a known path with another method answers 405 with `Allow`, an unknown path 404. They
 * are answered in `onRequest` of their own scope, before any body is parsed or any credential read.
 */
function unroutedRequests(routes: RouteDescriptor[], refuse: Refuse, cors: boolean) {
  const templates = new Map<string, { pattern: RegExp; rank: string; methods: string[] }>();
  for (const route of routes) {
    const entry = templates.get(route.path) ?? {
      pattern: new RegExp(
        `^${route.path
          .split(/\{[^}]+\}/)
          .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
      rank: literalRank(route.path),
      methods: [],
    };
    entry.methods.push(route.method);
    templates.set(route.path, entry);
  }
  return async (unrouted: FastifyInstance) => {
    const prefix = unrouted.prefix;
    const answer = (request: FastifyRequest, reply: FastifyReply): undefined => {
      const url = request.raw.url ?? '';
      const at = url.indexOf('?');
      const path = (at < 0 ? url : url.slice(0, at)).slice(prefix.length) || '/';
      // The path as the router reads it: the most literal template that matches (`/runners/all`, not `/runners/{id}`).
      let matched: { rank: string; methods: string[] } | undefined;
      for (const template of templates.values())
        if (template.pattern.test(path) && (!matched || template.rank < matched.rank)) matched = template;
      if (!matched) return refuse(request, reply, 404);
      const allowed = allowedMethods(matched.methods);
      if (request.method === 'OPTIONS') {
        // As Grape answers OPTIONS on a known route: 204 and its methods in Allow (a preflight with CORS).
        const headers = cors ? preflightHeaders(request.headers, allowed) : { allow: allowed.join(', ') };
        return void reply.code(204).headers(headers).send();
      }
      return refuse(request, reply.header('allow', allowed.join(', ')), 405);
    };
    // The hook answers and never passes the request on: its body is not parsed.
    unrouted.addHook('onRequest', (request, reply, _done) => answer(request, reply));
    unrouted.setNotFoundHandler(answer);
  };
}

/**
 * The methods a path answers, as Grape lists them in `Allow`: its operations', `HEAD` beside `GET` (answered as the GET
 * without a body) and `OPTIONS` (Grape's `add_head_not_allowed_methods_and_options_methods` adds both to every route).
 */
function allowedMethods(methods: string[]): string[] {
  const all = new Set(methods);
  if (all.has('GET')) all.add('HEAD');
  all.add('OPTIONS');
  return [...all].sort();
}

/** How literal a template is, segment by segment: a literal segment sorts before one with a parameter in text (`archive.{format}`), which sorts before a parameter. */
function literalRank(path: string): string {
  return path
    .split('/')
    .map((s) => (!s.includes('{') ? 'a' : /^\{[^}]+\}$/.test(s) ? 'c' : 'b'))
    .join('');
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
  if (options.cors) {
    scope.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      void reply.headers(corsHeaders(request.headers));
      done();
    });
  }
  const toleratedOf = options.accessLog ? addAccessLog(scope, routes, options.accessLog) : undefined;
  registerBodyParsers(scope, limits, (request) => (request.serviceApi as RequestState | null)?.route.files);
  scope.setErrorHandler(errorMapper(limits, refuse));
  await scope.register(unroutedRequests(routes, refuse, options.cors === true));
  // A GET answers HEAD as itself without a body (as Grape does), unless the path documents its own HEAD operation.
  const heads = new Set(routes.filter((route) => route.method === 'HEAD').map((route) => route.path));
  for (const route of routes)
    mountRoute(scope, route, {
      schemes,
      hooks,
      options,
      limits,
      refuse,
      toleratedOf,
      answersHead: route.method === 'GET' && !heads.has(route.path),
    });
}

/** Calls `accessLog` once per answer; returns where a request's tolerance report is kept for its entry. */
function addAccessLog(
  scope: FastifyInstance,
  routes: RouteDescriptor[],
  accessLog: NonNullable<MountOptions['accessLog']>,
): WeakMap<FastifyRequest, ToleranceReport> {
  const toleratedOf = new WeakMap<FastifyRequest, ToleranceReport>();
  const operationOf = new Map<string, string>();
  for (const route of routes) {
    const url = `${scope.prefix}${fastifyPath(route.path)}`;
    operationOf.set(`${route.method} ${url}`, route.id);
    if (route.method === 'GET' && !operationOf.has(`HEAD ${url}`)) operationOf.set(`HEAD ${url}`, route.id);
  }
  scope.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const operationId = operationOf.get(`${request.method} ${request.routeOptions.url}`);
    const entry: AccessLogEntry = {
      method: request.method,
      url: (request.raw.url ?? '').slice(0, 512),
      status: reply.statusCode,
      operationId,
      ms: reply.elapsedTime,
      tolerated: toleratedOf.get(request),
    };
    try {
      accessLog(entry, request);
    } catch (error) {
      request.log.error(error);
    }
    done();
  });
  return toleratedOf;
}

interface MountContext {
  schemes: Record<string, SchemeLocation>;
  hooks: RuntimeHooks;
  options: MountOptions;
  limits: ServiceApiLimits;
  refuse: Refuse;
  /** Set when an access log wants each request's tolerance report. */
  toleratedOf?: WeakMap<FastifyRequest, ToleranceReport>;
  /** A GET that also answers HEAD (without its body). */
  answersHead: boolean;
}

/** One operation: its admission (before the body is read), then tolerances, validation, the handler and the answer. */
function mountRoute(
  scope: FastifyInstance,
  route: RouteDescriptor,
  { schemes, hooks, options, limits, refuse, toleratedOf, answersHead }: MountContext,
): void {
  const accepted = new Set(route.security.flat());
  const readCredentials = credentialReader(
    Object.fromEntries(Object.entries(schemes).filter(([id]) => accepted.has(id))),
  );
  const { limit } = bodyLimitOf(route, limits);
  const documented = route.body ? essence(route.body.type) : undefined;
  const readsBody = route.method !== 'GET' && route.method !== 'HEAD';
  const validateResponses = options.validateResponses === true;
  const headerNames = route.headers ?? [];
  const authenticate = options.authenticate;

  // Before the body is read: the query, the caller, the handler, the media type and the declared length. Returns
  // the state of an admitted request, or undefined once it has answered.
  // Synchronous unless `authenticate` returns a promise: each await is a turn of the event loop's microtasks.
  const admit = (request: FastifyRequest, reply: FastifyReply): Admission => {
    const rawUrl = request.raw.url ?? '';
    const at = rawUrl.indexOf('?');
    const rawQuery = at < 0 ? '' : rawUrl.slice(at + 1);
    if (rawQuery.length > limits.queryLength)
      return refuse(request, reply, 414, { detail: `the query string is longer than ${bytes(limits.queryLength)}` });
    const query = parseQuery(rawQuery, route.query, limits.queryParameters);
    const credentials = readCredentials(request.headers, query);
    // An anonymous caller is never passed to `authenticate`: the operation lets it in or answers 401.
    if (credentials.length === 0 || !authenticate)
      return route.authenticated
        ? refuse(request, reply, 401)
        : admitBody(request, reply, query, credentials, undefined);
    const principal = authenticate({
      operationId: route.id,
      credentials: credentials as [Credential, ...Credential[]],
      request,
    });
    // Credentials that `authenticate` refuses are 401, also on an operation open to anonymous callers.
    if (isThenable(principal))
      return Promise.resolve(principal).then((resolved) =>
        resolved ? admitBody(request, reply, query, credentials, resolved) : refuse(request, reply, 401),
      );
    return principal ? admitBody(request, reply, query, credentials, principal) : refuse(request, reply, 401);
  };
  const admitBody = (
    request: FastifyRequest,
    reply: FastifyReply,
    query: Record<string, unknown>,
    credentials: Credential[],
    principal: unknown,
  ): RequestState | undefined => {
    if (!options.handlers[route.id]) return refuse(request, reply, 501, { detail: `no handler for ${route.id}` });
    if (readsBody && hasBody(request.headers)) {
      const source = sourceOf(request.headers['content-type']);
      if (!source)
        return refuse(request, reply, 415, {
          detail: `the operation reads ${documented ?? 'application/json'} (or a form, multipart or JSON), not ${shown(essence(request.headers['content-type']) || 'a body without Content-Type')}`,
        });
      const sourceLimit = source === 'multipart' ? limit : Math.min(limit, limits.jsonBody);
      if (Number(request.headers['content-length']) > sourceLimit)
        return refuseOverLimit(refuse, request, reply, source === 'multipart' ? route : undefined, sourceLimit, limits);
    }
    return { route, query, credentials, principal };
  };
  // Callback style, and no promise unless `authenticate` returns one: an async hook costs a promise per request.
  // An admission that answered (401, 413, 415…) leaves `done` uncalled: the reply is sent.
  const onRequest = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const admission = admit(request, reply);
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
  const handle = (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> | undefined => {
    // A route without a body has nothing to read: it is admitted here, which spares a hook per request.
    const admission = readsBody ? (request.serviceApi as RequestState) : admit(request, reply);
    const answered =
      admission instanceof Promise
        ? admission.then((admitted) => (admitted ? respond(request, reply, admitted) : undefined))
        : admission
          ? respond(request, reply, admission)
          : undefined;
    return answered?.then(() => reply);
  };
  const respond = (request: FastifyRequest, reply: FastifyReply, admitted: RequestState): Promise<void> | undefined => {
    const { query: rawQuery, credentials, principal } = admitted;
    const handler = options.handlers[route.id]!;
    const tolerances = new Tolerances(limits.errors);
    const body = request.body === null ? undefined : request.body;
    const input = normalizeInput(
      {
        method: route.method,
        shape: route.input,
        params: request.params as Record<string, unknown>,
        query: rawQuery,
        body,
        source: body === undefined ? undefined : sourceOf(request.headers['content-type']),
        documented,
      },
      tolerances,
    );
    if (tolerances.count > 0) {
      if (options.strict) return refuse(request, reply, 400, { problems: tolerances.list, total: tolerances.count });
      const tolerated = report(route, request, tolerances, options.onTolerated);
      toleratedOf?.set(request, tolerated);
    }
    const pathProblem = filePathProblem(route.method, request.params as Record<string, unknown>);
    if (pathProblem) return refuse(request, reply, 400, { problems: [pathProblem] });
    // Only the documented headers are validated (and coerced); the handler gets them over all the others.
    const documentedHeaders: Record<string, unknown> = {};
    let sentDocumented = false;
    for (const name of headerNames) {
      const value = request.headers[name];
      if (value === undefined) continue;
      documentedHeaders[name] = value;
      sentDocumented = true;
    }
    const check = hooks.validateRequest(route.id, {
      params: request.params,
      query: input.query,
      headers: documentedHeaders,
      body: input.body,
    });
    if (!check.valid) return refuse(request, reply, 400, { problems: check.problems });
    // A copy only when a documented header was sent (its validated, coerced value replaces the raw one).
    const headers = sentDocumented ? { ...request.headers, ...check.value.headers } : request.headers;
    const returned = handler(
      { params: check.value.params, query: check.value.query, headers, body: check.value.body },
      { operationId: route.id, principal, credentials, request, reply },
    );
    if (isThenable(returned))
      return Promise.resolve(returned).then((result) => settled(send(route, reply, result, hooks, validateResponses)));
    return settled(send(route, reply, returned, hooks, validateResponses));
  };
  scope.route({
    method: route.method,
    url: fastifyPath(route.path),
    exposeHeadRoute: answersHead,
    bodyLimit: limit,
    ...(readsBody ? { onRequest } : {}),
    handler: handle,
  });
}

/** Logs a tolerant request at `info` and tells `onTolerated`. */
function report(
  route: RouteDescriptor,
  request: FastifyRequest,
  tolerances: Tolerances,
  onTolerated: MountOptions['onTolerated'],
): ToleranceReport {
  const report: ToleranceReport = {
    operationId: route.id,
    method: route.method,
    url: (request.raw.url ?? '').slice(0, 512),
    tolerated: tolerances.list,
    count: tolerances.count,
  };
  request.log.info({ serviceApi: report }, `${route.id}: tolerated ${tolerances.count} deviation(s) from the contract`);
  try {
    onTolerated?.(report, request);
  } catch (error) {
    request.log.error(error);
  }
  return report;
}

type Admission = RequestState | undefined | Promise<RequestState | undefined>;

/** Nothing once sent; a promise of nothing while a Blob body is read (never the reply: it is a thenable). */
function settled(sent: FastifyReply | Promise<FastifyReply>): Promise<void> | undefined {
  return sent instanceof Promise ? sent.then(() => undefined) : undefined;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** Sends a handler's result; synchronous except for a Blob body, which is read first. */
function send(
  route: RouteDescriptor,
  reply: FastifyReply,
  result: HandlerResultShape,
  hooks: RuntimeHooks,
  validate: boolean,
): FastifyReply | Promise<FastifyReply> {
  const status = Number(result.status);
  if (result.headers)
    for (const [name, value] of Object.entries(result.headers))
      if (value !== undefined) void reply.header(name, Array.isArray(value) ? value.map(String) : String(value));
  const body = result.body;
  if (validate && route.json && body !== undefined) {
    const check = hooks.validateResponse?.(route.id, status, body);
    if (check && !check.valid)
      return sendJsonText(
        reply,
        500,
        JSON.stringify(
          errorBody(
            500,
            `the ${route.id} ${status} response breaks the contract: ${check.errors.slice(0, 20).join('; ')}`,
          ),
        ),
      );
  }
  void reply.code(status);
  if (body === undefined || body === null || route.method === 'HEAD') return reply.send();
  if (body instanceof Blob) {
    if (!reply.hasHeader('content-type')) void reply.type(body.type || 'application/octet-stream');
    return body.arrayBuffer().then((content) => reply.send(Buffer.from(content)));
  }
  if (body instanceof Uint8Array)
    return reply.type(String(reply.getHeader('content-type') ?? 'application/octet-stream')).send(Buffer.from(body));
  if (body instanceof ReadableStream)
    return reply.send(Readable.fromWeb(body as import('node:stream/web').ReadableStream));
  if (body instanceof Readable) return reply.send(body);
  if (typeof body === 'string' && !route.json)
    return reply.type(String(reply.getHeader('content-type') ?? 'text/plain; charset=utf-8')).send(body);
  return sendJsonText(reply, status, responseJson(body));
}
