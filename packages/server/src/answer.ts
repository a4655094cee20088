/**
 * How the server answers: JSON says exactly `Content-Type: application/json`, as the Service does (some clients compare
 * the header exactly), and a refusal of a request whose body is still arriving is sent once that body is read and
 * discarded, so that clients that read an answer only after their upload (Node's fetch) get it.
 *
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasBody } from './input.js';

export const JSON_TYPE = 'application/json';

/**
 * How much of an unread body is read and discarded before a refusal (401, 404, 405, 415…) is answered. A body above
 * it is not read: the answer is sent at once and the connection closed, which a client still sending may see as a
 * reset.
 */
export const DISCARD_BYTES = 1024 * 1024;

/** A body above a limit is read and discarded up to this many times the limit before the 413 (or 400) is answered. */
export const DISCARD_FACTOR = 4;

const asIs = (text: string): string => text;

/** Sends JSON text as it is: Fastify would add `; charset=utf-8` to a JSON type without a serializer of the reply. */
export function sendJsonText(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).type(JSON_TYPE).serializer(asIs).send(text);
}

/**
 * Sends `body` once the request's unread body, if any, is read and discarded (at most `bound` bytes; a declared
 * length above it is not read), then closes the connection. A body already received is not waited for.
 */
export function refuseAfterBody(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: unknown,
  bound: number,
): void {
  const raw = request.raw;
  const answer = () => void sendJsonText(reply, status, JSON.stringify(body));
  // `complete`: Node's parser has the whole request; `readableEnded`: the body was read (also without a socket, as
  // Fastify's inject does).
  if (raw.complete || raw.readableEnded || !hasBody(request.headers)) {
    answer();
    return;
  }
  void reply.header('connection', 'close');
  if (Number(request.headers['content-length']) > bound || raw.destroyed) {
    answer();
    return;
  }
  let discarded = 0;
  const stop = () => {
    raw.off('data', onData);
    raw.off('end', onEnd);
    raw.off('close', onClose);
  };
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded <= bound) return;
    stop();
    answer();
  };
  const onEnd = () => {
    stop();
    answer();
  };
  // The client went away: there is no one to answer.
  const onClose = () => stop();
  raw.on('data', onData);
  raw.once('end', onEnd);
  raw.once('close', onClose);
  raw.resume();
}
