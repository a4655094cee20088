/**
 * The hand-written runtime of the generated server stubs: a Fastify plugin that registers every operation, parses the
 * API's query forms, extracts credentials, validates requests and sends typed handler results.
 * generators/server.ts copies it into the package as `src/runtime.ts`.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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
}

export interface AuthenticateContext {
  operationId: string;
  /** The credentials found in the request, of the schemes this operation accepts. */
  credentials: Credential[];
  request: FastifyRequest;
}

export interface RequestCheck {
  valid: boolean;
  errors: string[];
  problems: { in: string; field: string; problem: string }[];
  value: { params: Record<string, unknown>; query: Record<string, unknown>; headers: Record<string, unknown>; body?: unknown };
}

export interface RuntimeHooks {
  validateRequest(operationId: string, request: { params: unknown; query: unknown; headers: unknown; body?: unknown }): RequestCheck;
  validateResponse?(operationId: string, status: number, body: unknown): { valid: boolean; errors: string[] } | undefined;
}

export interface HandlerResultShape {
  status: number | string;
  body?: unknown;
  headers?: Record<string, unknown>;
}

export type AnyHandler = (input: { params: unknown; query: unknown; headers: unknown; body: unknown }, context: HandlerContextShape) => HandlerResultShape | Promise<HandlerResultShape>;

export interface HandlerContextShape {
  operationId: string;
  principal: unknown;
  credentials: Credential[];
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface MountOptions {
  handlers: Record<string, AnyHandler | undefined>;
  /** Decides who the caller is; a falsy result is 401. Without it, every authenticated operation answers 401. */
  authenticate?: (context: AuthenticateContext) => unknown;
  /** Check each JSON response against the document; a mismatch becomes a 500 naming the problem. */
  validateResponses?: boolean;
  /** Largest request body in bytes (default 100 MiB, for imports). */
  bodyLimit?: number;
}

/** Parses a raw query keeping names as sent (`scope[]`, `range[start]`); `deep` parameters become objects. */
export function parseQuery(raw: string, styles: Record<string, 'deep' | 'csv'> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const add = (target: Record<string, unknown>, name: string, value: string) => {
    const previous = target[name];
    target[name] = previous === undefined ? value : [previous, value].flat();
  };
  for (const [name, value] of new URLSearchParams(raw)) {
    const deep = /^([^[\]]+)\[([^[\]]+)\](\[\])?$/.exec(name);
    if (deep && styles[deep[1]!] === 'deep') {
      const holder = (out[deep[1]!] ??= {}) as Record<string, unknown>;
      add(holder, deep[2]!, value);
    } else if (styles[name] === 'csv') out[name] = value === '' ? [] : value.split(',');
    else add(out, name, value);
  }
  return out;
}

/** The credentials of every scheme present in a request. */
export function extractCredentials(headers: Record<string, string | string[] | undefined>, query: Record<string, unknown>, schemes: Record<string, SchemeLocation>): Credential[] {
  const found: Credential[] = [];
  const header = (name: string) => [headers[name.toLowerCase()]].flat()[0];
  const cookies = parseCookies(header('cookie') ?? '');
  for (const [scheme, location] of Object.entries(schemes)) {
    let value: unknown;
    if (location.in === 'header') value = header(location.name);
    else if (location.in === 'query') value = [query[location.name]].flat()[0];
    else if (location.in === 'cookie') value = cookies[location.name];
    else {
      const match = /^Bearer\s+(.+)$/i.exec(header('authorization') ?? '');
      value = match?.[1];
    }
    if (typeof value === 'string' && value !== '') found.push({ scheme, value });
  }
  return found;
}

function parseCookies(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) out[part.slice(0, at).trim()] = decodeURIComponent(part.slice(at + 1).trim());
  }
  return out;
}

/** `/projects/{id}/jobs` → `/projects/:id/jobs` (Fastify's syntax; a literal `:` is doubled). */
export function fastifyPath(path: string): string {
  return path.replace(/:/g, '::').replace(/\{([^}]+)\}/g, ':$1');
}

function message(status: number, text: string): { message: string } {
  return { message: `${status} ${text}` };
}

/**
 * The fields of a multipart form as an object: a repeated name becomes an array, and `name[key]` fields become a hash
 * (`override_params[visibility]=private` → `{ override_params: { visibility: 'private' } }`).
 */
export function formFields(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of form) {
    const [head = name, ...keys] = name.split(/\[|\]\[|\]$/).filter((part, i) => i === 0 || part !== '');
    let target = out;
    for (const key of [head, ...keys].slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
    const last = keys.length > 0 ? keys[keys.length - 1]! : head;
    target[last] = last in target ? [target[last], value].flat() : value;
  }
  return out;
}

/** Registers every operation on a Fastify scope (the caller sets the `/api/v4` prefix). */
export async function mountOperations(scope: FastifyInstance, routes: RouteDescriptor[], schemes: Record<string, SchemeLocation>, hooks: RuntimeHooks, options: MountOptions): Promise<void> {
  const bodyLimit = options.bodyLimit ?? 100 * 1024 * 1024;
  scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit }, async (request: FastifyRequest, body: Buffer) => {
    const form = await new Response(new Uint8Array(body), { headers: { 'content-type': String(request.headers['content-type']) } }).formData();
    return formFields(form);
  });
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, async (_request: FastifyRequest, body: Buffer) => body);
  scope.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error(error);
    void reply.code(status).send(message(status, status < 500 ? `Bad request - ${error.message}` : 'Internal Server Error'));
  });
  scope.setNotFoundHandler((_request, reply) => void reply.code(404).send(message(404, 'Not Found')));

  for (const route of routes) {
    const accepted = new Set(route.security.flat());
    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      const handler = options.handlers[route.id];
      if (!handler) return reply.code(501).send(message(501, `Not Implemented: no handler for ${route.id}`));
      const rawUrl = request.raw.url ?? '';
      const at = rawUrl.indexOf('?');
      const query = parseQuery(at < 0 ? '' : rawUrl.slice(at + 1), route.query);
      const credentials = extractCredentials(request.headers, query, schemes).filter((c) => accepted.has(c.scheme));
      let principal: unknown;
      if (options.authenticate && (route.authenticated || credentials.length > 0)) {
        principal = await options.authenticate({ operationId: route.id, credentials, request });
      }
      if (route.authenticated && !principal) return reply.code(401).send(message(401, 'Unauthorized'));
      const check = hooks.validateRequest(route.id, { params: request.params, query, headers: request.headers, body: request.body ?? undefined });
      if (!check.valid) return reply.code(400).send({ ...message(400, `Bad request - ${check.errors.join('; ')}`), errors: check.problems });
      const result = await handler({ ...check.value, body: check.value.body }, { operationId: route.id, principal, credentials, request, reply });
      return send(route, reply, result, hooks, options.validateResponses === true);
    };
    scope.route({ method: route.method, url: fastifyPath(route.path), exposeHeadRoute: false, handler: handle });
  }
}

async function send(route: RouteDescriptor, reply: FastifyReply, result: HandlerResultShape, hooks: RuntimeHooks, validate: boolean): Promise<FastifyReply> {
  const status = Number(result.status);
  for (const [name, value] of Object.entries(result.headers ?? {})) if (value !== undefined) void reply.header(name, Array.isArray(value) ? value.map(String) : String(value));
  const body = result.body;
  if (validate && route.json && body !== undefined) {
    const check = hooks.validateResponse?.(route.id, status, body);
    if (check && !check.valid) return reply.code(500).send(message(500, `Internal Server Error - the ${route.id} ${status} response breaks the contract: ${check.errors.join('; ')}`));
  }
  void reply.code(status);
  if (body === undefined || body === null || route.method === 'HEAD') return reply.send();
  if (body instanceof Blob) {
    if (!reply.hasHeader('content-type')) void reply.type(body.type || 'application/octet-stream');
    return reply.send(Buffer.from(await body.arrayBuffer()));
  }
  if (body instanceof Uint8Array) return reply.type(String(reply.getHeader('content-type') ?? 'application/octet-stream')).send(Buffer.from(body));
  if (body instanceof ReadableStream) return reply.send(Readable.fromWeb(body as import('node:stream/web').ReadableStream));
  if (typeof body === 'string' && !route.json) return reply.type(String(reply.getHeader('content-type') ?? 'text/plain; charset=utf-8')).send(body);
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
}
