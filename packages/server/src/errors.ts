/**
 * Errors in the API's shape: the catalogue of statuses the runtime answers itself, the `{ message, errors }` body,
 * refusals (sent once an unread body is discarded), Fastify's and the parsers' errors, and the Fastify server options
 * that answer the router's and Node's own errors in the same shape.
 */
import { maxHeaderSize, METHODS } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { bodyLimitOf, inputRefusal, overLimit, type Problem, type Refusal } from './admission.js';
import { DISCARD_BYTES, JSON_TYPE, refuseAfterBody, sendJsonText } from './answer.js';
import { InputError, shown } from './input.js';
import { defaultLimits, type RouteDescriptor, type ServiceApiLimits } from './route.js';

/** The reason phrase of each status the runtime answers itself. */
const REASONS: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
};

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

/** Answers a refusal in the API's shape (after the unread body, if any); returns nothing, to end an admission. */
export type Refuse = (request: FastifyRequest, reply: FastifyReply, refusal: Refusal) => undefined;

export function refuser(limits: ServiceApiLimits): Refuse {
  return (request, reply, refusal) => {
    const { status, detail, problems, total, discard } = refusal;
    refuseAfterBody(
      request,
      reply,
      status,
      errorBody(status, detail, problems, limits.errors, total),
      discard ?? DISCARD_BYTES,
    );
    return undefined;
  };
}

const INVALID_JSON: Refusal = {
  status: 400,
  problems: [
    { in: 'body', field: '', problem: 'body is not valid JSON (or names __proto__ or constructor.prototype)' },
  ],
};

/** Fastify's and the parsers' errors as the API's answers; anything unexpected is a logged 500. */
export function errorMapper(limits: ServiceApiLimits, refuse: Refuse) {
  return (error: FastifyError | InputError, request: FastifyRequest, reply: FastifyReply): undefined => {
    if (error instanceof InputError) return refuse(request, reply, inputRefusal(error));
    const route = (request.serviceApi as { route: RouteDescriptor } | null)?.route;
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return refuse(
          request,
          reply,
          overLimit(route, route ? bodyLimitOf(route, limits).limit : limits.jsonBody, limits),
        );
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return refuse(request, reply, { status: 415, detail: 'the operation does not read this media type' });
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return refuse(request, reply, INVALID_JSON);
    }
    const status =
      typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (status >= 500) request.log.error(error);
    return refuse(request, reply, { status, detail: status === 400 ? 'the request is malformed' : undefined });
  };
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
    frameworkErrors: options.frameworkErrors ?? routerError,
  };
}

function routerError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : error.code === 'FST_ERR_BAD_URL' ? 400 : 500;
  const detail = status === 400 ? 'the URL has a malformed percent-escape' : undefined;
  void sendJsonText(reply, status, JSON.stringify(errorBody(status, detail)));
}

/** The body of an answer to what Node's HTTP parser refuses. */
function parserErrorBody(status: number): string {
  return JSON.stringify(
    status === 400 ? errorBody(400, 'the request is malformed') : { message: `${status} ${REASONS[status]}` },
  );
}

/** Errors Node's HTTP parser raises before Fastify sees a request (headers too large, a timeout, garbage). */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = parserErrorBody(status);
  const phrase = status === 400 ? 'Bad Request' : REASONS[status];
  socket.end(
    `HTTP/1.1 ${status} ${phrase}\r\nConnection: close\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

const KNOWN_METHODS = new Set(METHODS);

/** What Node's parser answered (`parserRefusal`): status, headers and body. */
export interface ParserAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * What Node's HTTP parser answers a request before any server code sees it (`clientErrorHandler`), for a reader
 * without a parser (the fake's in-process `fetch`): a method it does not know (`BOGUS`, `patch`) 400, a head larger
 * than `maxHeaderSize` 431.
 */
export function parserRefusal(
  method: string,
  target: string,
  headers: Record<string, string>,
): ParserAnswer | undefined {
  let size = method.length + target.length + 12;
  for (const name in headers) size += name.length + headers[name]!.length + 4;
  const status = !KNOWN_METHODS.has(method) ? 400 : size > maxHeaderSize ? 431 : undefined;
  if (status === undefined) return undefined;
  const body = parserErrorBody(status);
  return {
    status,
    headers: { connection: 'close', 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(body)) },
    body,
  };
}
