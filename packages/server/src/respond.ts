/**
 * Answers: a handler's result sent as the operation documents it (JSON text, a file, a stream or nothing), checked
 * against the document first when asked.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FastifyReply } from 'fastify';
import { sendJsonText } from './answer.js';
import { errorBody } from './errors.js';
import { responseJson } from './json.js';
import type { RouteDescriptor } from './route.js';

export interface HandlerResultShape {
  status: number | string;
  body?: unknown;
  headers?: Record<string, unknown>;
}

/** A check of a response body against the document (undefined: nothing to check it with). */
export type ResponseCheck = (
  operationId: string,
  status: number,
  body: unknown,
) => { valid: boolean; errors: string[] } | undefined;

/** Sends a handler's result; synchronous except for a Blob body, which is read first. */
export function send(
  route: RouteDescriptor,
  reply: FastifyReply,
  result: HandlerResultShape,
  check: ResponseCheck | undefined,
): FastifyReply | Promise<FastifyReply> {
  const status = Number(result.status);
  if (result.headers)
    for (const [name, value] of Object.entries(result.headers))
      if (value !== undefined) void reply.header(name, Array.isArray(value) ? value.map(String) : String(value));
  const body = result.body;
  const broken = check && route.json && body !== undefined ? brokenContract(route, status, body, check) : undefined;
  if (broken) return sendJsonText(reply, 500, JSON.stringify(errorBody(500, broken)));
  void reply.code(status);
  if (body === undefined || body === null || route.method === 'HEAD') return reply.send();
  return sendBody(route, reply, status, body);
}

/** What a JSON response breaks of the contract, if anything. */
function brokenContract(route: RouteDescriptor, status: number, body: unknown, check: ResponseCheck) {
  const result = check(route.id, status, body);
  if (!result || result.valid) return undefined;
  return `the ${route.id} ${status} response breaks the contract: ${result.errors.slice(0, 20).join('; ')}`;
}

function sendBody(
  route: RouteDescriptor,
  reply: FastifyReply,
  status: number,
  body: unknown,
): FastifyReply | Promise<FastifyReply> {
  if (body instanceof Blob) {
    if (!reply.hasHeader('content-type')) void reply.type(body.type || 'application/octet-stream');
    return body.arrayBuffer().then((content) => reply.send(Buffer.from(content)));
  }
  if (body instanceof Uint8Array)
    return reply.type(String(reply.getHeader('content-type') ?? 'application/octet-stream')).send(Buffer.from(body));
  if (body instanceof ReadableStream) return reply.send(Readable.fromWeb(body as NodeReadableStream));
  if (body instanceof Readable) return reply.send(body);
  if (typeof body === 'string' && !route.json)
    return reply.type(String(reply.getHeader('content-type') ?? 'text/plain; charset=utf-8')).send(body);
  return sendJsonText(reply, status, responseJson(body));
}

/** Nothing once sent; a promise of nothing while a Blob body is read (never the reply: it is a thenable). */
export function settled(sent: FastifyReply | Promise<FastifyReply>): Promise<void> | undefined {
  return sent instanceof Promise ? sent.then(() => undefined) : undefined;
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
