import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HTTP_METHODS, type OpenApiDocument, type PathItem } from '../../generators/lib/openapi.ts';
import { validateRequest, type RequestOperationId } from '../../generated/validators/dist/index.js';
import { checkCredentials } from './auth.ts';
import { bodyKind, DEFAULT_LIMITS, hasBody, parseForm, parseJson, parseMultipart, readLimited, type BodyLimits, type ParseResult } from './body.ts';
import { corsHeaders, preflightHeaders } from './cors.ts';
import { operationModel, type OperationModel } from './model.ts';
import { MAX_MISMATCHES, normalizeRequest, type RawRequest } from './normalize.ts';
import { singlePageHeaders } from './pagination.ts';
import { parsePrefer, resolvePreference } from './prefer.ts';
import { parseQuery } from './query.ts';
import { sharedDereferencer } from './prepare.ts';
import { prismOperation, renderDynamic, ResponseRenderer, type PrismOperation, type Rendered } from './responses.ts';
import { Router } from './router.ts';
import { describeViolations, IssueList, toleranceLogLine, violationsHeader, type Issue } from './violations.ts';

export const API_PREFIX = '/api/v4';

export interface MockOptions {
  /** The bundled OpenAPI document (an object, not a path): the published `generated/openapi/openapi.json`. */
  document: object;
  host?: string;
  port?: number;
  /** Refuse, with 400 naming the field, every request that is not in the contract's exact form. */
  strict?: boolean;
  /** Receives one access-log line per request (and one line of what was tolerated). */
  log?: (line: string) => void;
  /** Log each request to stderr (the same lines as `log`). */
  verbose?: boolean;
  /** Body size limits in bytes per media type. */
  limits?: Partial<BodyLimits>;
  /** Most query parameters read from one request (default 1000). */
  maxQueryParameters?: number;
}

export interface RunningMock {
  /** Origin of the server, e.g. `http://127.0.0.1:4010`; the API is under `${origin}/api/v4`. */
  origin: string;
  close(): Promise<void>;
}

interface Entry {
  index: number;
  path: string;
  method: string;
  /** What the mock and Prism know of the operation, prepared the first time it is called. */
  prepared?: { model: OperationModel; prism?: PrismOperation };
}

/** Slack for the text fields of a multipart body whose files all have a documented size. */
const MULTIPART_FIELDS_SLACK = 1024 * 1024;

/**
 * Starts the mock: our router, credential check, body limits, tolerant reading (or strict) and the generated
 * standalone validators in front of Prism, which picks and renders the documented responses.
 */
export async function startMock(options: MockOptions): Promise<RunningMock> {
  const document = options.document as OpenApiDocument;
  const dereference = sharedDereferencer(document);
  const router = new Router<Entry>();
  let count = 0;
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) if ((item as PathItem)[method]) router.add(method, path, { index: count++, path, method });
  }
  /** The operation's path item, dereferenced, with only that operation: what both models are read from. */
  const prepare = (entry: Entry) => {
    if (entry.prepared) return entry.prepared;
    const item = dereference(document.paths[entry.path]) as PathItem;
    const single = { parameters: item.parameters, [entry.method]: item[entry.method] } as PathItem;
    return (entry.prepared ??= { model: operationModel(document, entry.path, entry.method, single) });
  };
  const prismOf = (entry: Entry) => {
    const prepared = prepare(entry);
    return (prepared.prism ??= prismOperation({ ...document, paths: { [entry.path]: dereference(document.paths[entry.path]) as PathItem } }, entry.path, entry.method));
  };
  const renderer = new ResponseRenderer(document);
  const limits: BodyLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const maxQuery = options.maxQueryParameters ?? 1000;
  const strict = options.strict ?? false;
  const log = options.log ?? (options.verbose ? (line: string) => process.stderr.write(`${line}\n`) : undefined);
  let ownOrigin = '';

  const server = createServer((req, res) => {
    const started = performance.now();
    const context: LogContext = {};
    handle(req, res, context)
      .catch((error: unknown) => {
        if (res.headersSent) return void res.destroy();
        sendJson(res, 500, { message: `500 Mock failure: ${error instanceof Error ? error.message : String(error)}` });
      })
      .finally(() => {
        if (!log) return;
        const path = (req.url ?? '/').split('?', 1)[0]!.replace(/[^\x21-\x7e]/g, '?').slice(0, 300);
        log(`${req.method} ${path} → ${res.statusCode}${context.example ? ` ${context.example}` : ''} ${Math.round(performance.now() - started)} ms`);
        if (context.tolerated?.total) log(toleranceLogLine(context.tolerated));
      });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, context: LogContext): Promise<void> {
    const rawUrl = req.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const rawPath = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    const rawQuery = queryAt < 0 ? '' : rawUrl.slice(queryAt + 1);
    for (const [name, value] of corsHeaders(req)) res.setHeader(name, value);
    const early = (status: number, body: object, headers: Record<string, string> = {}) => {
      if (hasBody(req)) {
        res.setHeader('Connection', 'close');
        req.resume();
      }
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      sendJson(res, status, body);
    };

    if (rawPath !== API_PREFIX && !rawPath.startsWith(`${API_PREFIX}/`)) return early(404, { message: `404 Not Found: the API is served under ${API_PREFIX}` });
    const path = rawPath.slice(API_PREFIX.length) || '/';
    const method = (req.method ?? 'GET').toUpperCase();

    if (method === 'OPTIONS') {
      const allow = router.allowed(path);
      if (!allow) return early(404, { message: '404 Not Found: no operation has this path' });
      for (const [name, value] of preflightHeaders(req, allow)) res.setHeader(name, value);
      res.setHeader('Allow', allow.join(', '));
      res.statusCode = 204;
      return void res.end();
    }
    const route = router.match(method, path);
    if (route.kind === 'not-found') return early(404, { message: '404 Not Found: no operation has this path' });
    if (route.kind === 'bad-escape') return early(400, { message: `400 Bad request - the path segment ${JSON.stringify(route.segment.slice(0, 100))} is not correctly escaped` });
    if (route.kind === 'method-not-allowed') {
      return early(405, { message: `405 Method Not Allowed: ${path.slice(0, 200)} accepts ${route.allow.join(', ')}` }, { Allow: route.allow.join(', ') });
    }
    const entry = route.value;
    const { index } = entry;
    const { model } = prepare(entry);

    const query = parseQuery(rawQuery, maxQuery);
    if (!(query instanceof Map)) {
      const problem = 'tooMany' in query ? `${query.tooMany} query parameters; at most ${maxQuery} are read` : `the query parameter ${JSON.stringify(query.malformed)} is not correctly escaped`;
      return early(400, { message: `400 Bad request - ${problem}` });
    }

    const credentials = checkCredentials(model.requirements, req.headers, query);
    if (!credentials.ok) return early(credentials.status, { message: credentials.message });

    const preference = resolvePreference(parsePrefer(req.headers.prefer), model.id, model.examples);
    if ('error' in preference) {
      return early(400, { message: preference.error, examples: Object.fromEntries(model.examples) });
    }

    const raw: RawRequest = { params: route.params, query, headers: req.headers };
    if (hasBody(req)) {
      const body = await readRequestBody(req, model);
      if ('status' in body) return early(body.status, { message: body.message });
      if (body.parsed) raw.body = body.parsed;
    }

    const tolerated = new IssueList();
    const errors = new IssueList();
    context.tolerated = tolerated;
    const tolerate = strict ? (issue: Issue) => (tolerated.add(issue), errors.add(issue)) : (issue: Issue) => tolerated.add(issue);
    const { mismatches, ...request } = normalizeRequest(model, raw, tolerate, (issue) => errors.add(issue));
    if (mismatches < MAX_MISMATCHES) {
      const validation = validateRequest(model.id as RequestOperationId, request);
      if (!validation.valid) errors.addAll(validation.problems);
    }
    if (tolerated.total > 0) res.setHeader('sl-violations', violationsHeader(tolerated));
    if (errors.total > 0) return sendJson(res, 400, describeViolations(errors));

    const origin = requestOrigin(req) ?? ownOrigin;
    const accept = typeof req.headers.accept === 'string' && req.headers.accept !== '*/*' ? req.headers.accept.split(',').map((s) => s.split(';', 1)[0]!.trim()).filter(Boolean).slice(0, 20) : undefined;
    const renderRequest = { code: preference.code, exampleKey: preference.exampleKey, mediaTypes: accept, head: method === 'HEAD' };
    const preferred = parsePrefer(req.headers.prefer);
    const prism = prismOf(entry);
    const rendered = preferred.dynamic ? await renderDynamic(prism, { ...renderRequest, url: { path } }) : renderer.render(index, prism, renderRequest, origin);
    if (rendered instanceof Error) {
      const status = (rendered as Error & { status?: number }).status ?? 500;
      return sendJson(res, status, { message: `${status} ${rendered.message}` });
    }
    context.example = rendered.example;
    send(res, rendered, req, origin + rawUrl);
  }

  async function readRequestBody(req: IncomingMessage, model: OperationModel): Promise<{ parsed?: RawRequest['body'] } | { status: number; message: string }> {
    const contentType = req.headers['content-type'];
    const kind = bodyKind(contentType);
    if (kind === 'none' || kind === 'other') {
      req.resume();
      if (!model.body) return {};
      const media = contentType ? contentType.split(';', 1)[0]!.slice(0, 100) : 'none';
      return { status: 415, message: `415 Unsupported Media Type - ${media}; ${model.id} reads ${model.body.mediaType} (or a form)` };
    }
    const files = model.body?.files ?? new Map<string, number | undefined>();
    const bounded = files.size > 0 && [...files.values()].every((limit) => limit !== undefined);
    const limit = kind === 'multipart' ? Math.min(limits.multipart, bounded ? [...files.values()].reduce<number>((sum, l) => sum + l!, 0) + MULTIPART_FIELDS_SLACK : limits.multipart) : limits[kind];
    const read = await readLimited(req, limit);
    if (!read.ok) {
      const [field, max] = files.size === 1 ? [...files][0]! : [];
      if (kind === 'multipart' && field && max !== undefined) return { status: 400, message: tooBig(field, max) };
      return { status: 413, message: `413 Payload Too Large - the request body is above ${read.limit} bytes` };
    }
    const parsed: ParseResult = kind === 'json' ? parseJson(read.bytes) : kind === 'form' ? parseForm(read.bytes) : await parseMultipart(read.bytes, contentType!);
    if (!parsed.ok) return { status: 400, message: parsed.message };
    if (kind === 'multipart') {
      const value = parsed.parsed.value as Record<string, unknown>;
      for (const [field, max] of files) {
        const file = value[field];
        if (max !== undefined && file instanceof Blob && file.size > max) return { status: 400, message: tooBig(field, max) };
      }
    }
    return { parsed: { kind, parsed: parsed.parsed } };
  }

  function requestOrigin(req: IncomingMessage): string | undefined {
    const host = req.headers.host;
    return host && /^[\w.-]+(:\d{1,5})?$|^\[[\da-f:.]+\](:\d{1,5})?$/i.test(host) ? `http://${host}` : undefined;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  ownOrigin = `http://${hostPart}:${address.port}`;
  return {
    origin: ownOrigin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

interface LogContext {
  example?: string;
  tolerated?: IssueList;
}

function tooBig(field: string, max: number): string {
  const size = max % 1024 === 0 ? `${max / 1024} KiB` : `${max} bytes`;
  return `400 Bad request - ${field} is too big (should be at most ${size})`;
}

function send(res: ServerResponse, rendered: Rendered, req: IncomingMessage, requestUrl: string): void {
  res.statusCode = rendered.status;
  for (const [name, value] of rendered.headers) res.setHeader(name, value);
  if (res.hasHeader('link') && rendered.status < 300) {
    for (const [name, value] of Object.entries(singlePageHeaders(new URL(requestUrl)))) res.setHeader(name, value);
  }
  if ((rendered.status === 429 || rendered.status === 503) && !res.hasHeader('retry-after')) res.setHeader('Retry-After', '1');
  if (req.method === 'HEAD' || rendered.body === undefined || rendered.status === 204 || rendered.status === 304) return void res.end();
  res.setHeader('Content-Length', rendered.body.length);
  res.end(rendered.body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
