/**
 * How the server answers: JSON says exactly `Content-Type: application/json`, as the Service does (some clients compare
 * the header exactly), and a refusal of a request whose body is still arriving is sent once that body is read and
 * discarded, so that clients that read an answer only after their upload (Node's fetch) get it.
 *
 */
import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
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

/** How long a connection whose upload was refused early stays open to read and drop the rest of the upload. */
const LINGER_MS = 30_000;

/**
 * Closes a connection whose upload is refused before it is read, in the order HTTP clients read: the answer, then the
 * server's FIN (`Connection: close`), then whatever the client still sends read and dropped until it closes (or for
 * `LINGER_MS`). Closing at once, with unread bytes, sends a reset, which can destroy the answer before the client
 * read it: Node's fetch and curl read while they send, but a client that reads only once its upload is written (or
 * one that got the reset first) saw a reset instead of the 400 or 413.
 */
function lingerAfterAnswer(raw: IncomingMessage): void {
  const socket = raw.socket;
  // In process (Fastify's inject) there is no connection to close, and a body stream is stopped by its reader.
  if (!(socket instanceof Socket) || socket.destroyed) return;
  // Node closes a `Connection: close` connection with `destroySoon`, which destroys it (a reset, with bytes unread)
  // once its FIN is sent: this one half-closes and keeps reading instead.
  socket.destroySoon = function lingeringClose() {
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    // The client closed its side: nothing more to drop; the answer is flushed before the connection goes.
    this.once('end', () => Socket.prototype.destroySoon.call(this));
  };
  raw.resume();
}

/**
 * Sends `body` once the request's unread body, if any, is read and discarded (at most `bound` bytes; past it, or with
 * a declared length above it, at once), then closes the connection the way clients read it (`lingerAfterAnswer`).
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
    lingerAfterAnswer(raw);
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
    lingerAfterAnswer(raw);
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
