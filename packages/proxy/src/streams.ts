/** What the proxy does to bytes in passing: a bounded copy for checking, the headers it forwards, its own JSON answers. */
import type { ServerResponse } from 'node:http';

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
