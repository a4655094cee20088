/** What the proxy does to bytes in passing: a bounded copy for checking, the headers it forwards, its own JSON answers. */
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
]);

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response
    .writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    .end(text);
}

/** The upstream's raw headers without hop-by-hop ones, as `[name, value, name, value…]`. */
export function forwardedHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  return out;
}

/** A copy of a stream's first `max` bytes; `over` once it went past them. */
export class Tee {
  chunks: Buffer[] = [];
  size = 0;
  over = false;
  constructor(private readonly max: number) {}
  add(chunk: Buffer): void {
    if (this.over) return;
    this.size += chunk.length;
    if (this.size > this.max) {
      this.over = true;
      this.chunks = [];
    } else this.chunks.push(chunk);
  }
  bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
  }
}

/** A body at least this large (or of unknown length) is sent only once the upstream said it wants it. */
const EARLY_ANSWER_BYTES = 1024 * 1024;
/** How long the upstream's `100 Continue` is waited for before the body is sent anyway (RFC 9110, 10.1.1). */
const CONTINUE_WAIT_MS = 1000;

/** Whether a request's body is large enough that the upstream is asked first (`Expect: 100-continue`). */
export function asksFirst(headers: IncomingMessage['headers']): boolean {
  if (headers.expect !== undefined) return false;
  if (headers['transfer-encoding'] !== undefined) return true;
  return Number(headers['content-length']) >= EARLY_ANSWER_BYTES;
}

/**
 * Sends the client's body to the upstream. A large one waits for the upstream's `100 Continue`: an upstream that
 * refuses it (too large, no credentials, no such path) answers first, and that answer is forwarded, instead of the
 * failure of an upload it stopped reading (EPIPE) while its answer was lost with the connection.
 */
export function forwardBody(
  request: IncomingMessage,
  outgoing: ClientRequest,
  askedFirst: boolean,
  answered: () => boolean,
): void {
  if (!askedFirst) return void request.pipe(outgoing);
  request.pause(); // nothing flows (to the copy checked either) until it is known where the body goes
  outgoing.flushHeaders(); // the headers go now, alone: the body waits for the upstream's word
  let sent = false;
  const send = () => {
    clearTimeout(timer);
    if (sent) return;
    sent = true;
    // The answer may sit in the same packet as the `100 Continue`: it is read before the body goes.
    setImmediate(() => {
      if (answered() || outgoing.destroyed) request.resume();
      else request.pipe(outgoing);
    });
  };
  const timer = setTimeout(send, CONTINUE_WAIT_MS);
  outgoing.once('continue', send);
  outgoing.once('response', () => {
    clearTimeout(timer);
    if (!sent) {
      sent = true;
      request.resume();
    }
  });
  outgoing.once('close', () => clearTimeout(timer));
}
