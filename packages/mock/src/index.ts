/**
 * @service-api/mock: every operation of the Service HTTP API v4 answers its documented examples. Requests are read by
 * @service-api/server (routing, parameters from the query, forms, multipart and JSON, coercion, tolerance or strict
 * mode, limits, credentials, CORS, the access log); Prism only chooses and renders the documented answer.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import {
  apiPrefix,
  errorBody,
  registerServiceApi,
  routes,
  serviceApiServerOptions,
  type AccessLogEntry,
  type Handlers,
  type ServiceApiLimits,
  type ToleranceReport,
} from '@service-api/server';
import { isNamespaceReference, referencedRecord, sharedDereferencer } from '@service-api/server/internal';
import { loadDocument } from './document.ts';
import { listPage } from './pagination.ts';
import { parsePrefer, resolvePreference } from './prefer.ts';
import {
  documentedExamples,
  prismOperation,
  ResponseRenderer,
  type MockDocument,
  type PrismOperation,
  type Rendered,
} from './responses.ts';
import { toleranceLogLine, violationsHeader } from './violations.ts';

export type { MockDocument } from './responses.ts';
/** The version of the contract this package implements (that of the @service-api/server it runs on). */
export { contractVersion } from '@service-api/server';

export interface MockOptions {
  /** The bundled OpenAPI document, parsed (default: the contract's published `openapi.json`, shipped with this package). */
  document?: MockDocument;
  /** Refuse, with 400 naming the field, every request that is not in the contract's exact form. */
  strict?: boolean;
  /** Receives one access-log line per request (and one line of what was tolerated). */
  log?: (line: string) => void;
  /** Bounds on inputs (see `defaultLimits` of @service-api/server). */
  limits?: Partial<ServiceApiLimits>;
}

export interface StartOptions extends MockOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface RunningMock {
  /** The origin, e.g. `http://127.0.0.1:4010`; the API is under `/api/v4`. */
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

interface Prepared {
  prism: PrismOperation;
  /** Documented status → example names. */
  examples: Map<string, string[]>;
}

/** Any credential of a scheme the operation accepts is a caller. */
const caller = { user: 'mock' };

/** A Fastify app serving the mock (not listening). */
export async function createMock(options: MockOptions = {}): Promise<FastifyInstance> {
  const document = options.document ?? (await loadDocument());
  const renderer = new ResponseRenderer(document);
  const dereference = sharedDereferencer(document);
  const prepared = new Map<string, Prepared>();
  const prepare = (operationId: string): Prepared => {
    let found = prepared.get(operationId);
    if (!found) {
      const route = routes.find((r) => r.id === operationId)!;
      const prism = prismOperation(document, dereference, route.path, route.method.toLowerCase());
      prepared.set(operationId, (found = { prism, examples: documentedExamples(prism) }));
    }
    return found;
  };
  const tolerated = new WeakMap<FastifyRequest, ToleranceReport>();
  const examples = new WeakMap<FastifyRequest, string>();

  const answer = (request: FastifyRequest, rendered: Rendered | Error, origin: string) => {
    if (rendered instanceof Error) {
      const status = (rendered as Error & { status?: number }).status ?? 500;
      return { status, body: { message: `${status} ${rendered.message}` } };
    }
    if (rendered.example) examples.set(request, rendered.example);
    const headers: Record<string, string> = { ...rendered.headers };
    let body = rendered.body;
    if (headers.link && rendered.status < 300) {
      const items = jsonArray(body);
      const page = listPage(new URL(`${origin}${request.raw.url ?? '/'}`), items?.length ?? 1);
      Object.assign(headers, page.headers);
      if (items && page.slice && (page.slice[0] > 0 || page.slice[1] < items.length))
        body = Buffer.from(JSON.stringify(items.slice(...page.slice)));
    }
    if ((rendered.status === 429 || rendered.status === 503) && !headers['retry-after']) headers['retry-after'] = '1';
    const report = tolerated.get(request);
    if (report) headers['sl-violations'] = violationsHeader(report);
    return { status: rendered.status, headers, body };
  };

  // One handler answers every operation: its documented answer, chosen by the Prefer header.
  const handler = (
    input: { params?: Record<string, unknown> },
    context: { operationId: string; request: FastifyRequest },
  ) => {
    const { operationId, request } = context;
    const unknown = unknownReference(operationId, input.params);
    if (unknown) return unknown;
    const operation = prepare(operationId);
    const preferred = parsePrefer(request.headers.prefer);
    const preference = resolvePreference(preferred, operationId, operation.examples);
    if ('error' in preference)
      return { status: 400, body: { message: preference.error, examples: Object.fromEntries(operation.examples) } };
    const origin = requestOrigin(request.headers.host) ?? socketOrigin(request);
    // The Service ignores Accept: it never chooses the answer, and never makes a documented operation answer 406.
    const renderRequest = { code: preference.code, exampleKey: preference.exampleKey };
    if (preferred.dynamic)
      return renderer
        .renderDynamic(operation.prism, renderRequest, origin)
        .then((rendered) => answer(request, rendered, origin));
    return answer(request, renderer.render(operationId, operation.prism, renderRequest, origin), origin);
  };

  const log = options.log;
  const app = Fastify(serviceApiServerOptions({ logger: false }));
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).send(errorBody(404, `the API is served under ${apiPrefix}`)),
  );
  await registerServiceApi(app, {
    handlers: Object.fromEntries(routes.map((route) => [route.id, handler])) as Handlers,
    authenticate: ({ credentials }) => (credentials.length > 0 ? caller : null),
    strict: options.strict,
    limits: options.limits,
    cors: true,
    onTolerated: (report, request) => tolerated.set(request, report),
    accessLog: log ? (entry, request) => logRequest(log, entry, examples.get(request)) : undefined,
  });
  return app;
}

/** The record each operation's leading `{id}` names (`Project`, `Group`), by operationId. */
const referenced = new Map(routes.map((route) => [route.id, referencedRecord(route.path)]));

/**
 * The Service's 404 for a project or group reference that no project or group can have (a client that sent a class
 * name or a struct's text instead of the ID): neither digits nor a path of letters, digits, `_`, `-` and `.`.
 */
function unknownReference(operationId: string, params: Record<string, unknown> | undefined) {
  const record = referenced.get(operationId);
  const id = params?.id;
  if (record === undefined || id === undefined || isNamespaceReference(String(id))) return undefined;
  return { status: 404, body: { message: `404 ${record} Not Found` } };
}

/** The items of a JSON array body; undefined for any other body. */
function jsonArray(body: Buffer | undefined): unknown[] | undefined {
  if (body?.[0] !== 0x5b) return undefined;
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** `GET /api/v4/projects/42/jobs → 200 jobs/list-project-jobs ProjectJobs 3 ms`, and a `tolerated:` line. */
function logRequest(log: (line: string) => void, entry: AccessLogEntry, example: string | undefined): void {
  const path = entry.url
    .split('?', 1)[0]!
    .replace(/[^\x21-\x7e]/g, '?')
    .slice(0, 300);
  log(
    `${entry.method} ${path} → ${entry.status}${entry.operationId ? ` ${entry.operationId}` : ''}${example ? ` ${example}` : ''} ${Math.round(entry.ms)} ms`,
  );
  if (entry.tolerated) log(toleranceLogLine(entry.tolerated));
}

/** The origin the client used, from a well-formed Host header: example URLs point there. */
function requestOrigin(host: string | undefined): string | undefined {
  return host && /^[\w.-]+(:\d{1,5})?$|^\[[\da-f:.]+\](:\d{1,5})?$/i.test(host) ? `http://${host}` : undefined;
}

/** The address the request reached, for a request without a usable Host header. */
function socketOrigin(request: FastifyRequest): string {
  const { localAddress = '127.0.0.1', localPort } = request.socket;
  return `http://${localAddress.includes(':') ? `[${localAddress}]` : localAddress}:${localPort}`;
}

/** Starts the mock on `host:port` (default 127.0.0.1 and a free port). */
export async function startMock(options: StartOptions = {}): Promise<RunningMock> {
  const app = await createMock(options);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return { url: `http://${shown}:${port}`, app, close: () => app.close() };
}
