/**
 * A deliberately wrong upstream for the proxy's tests: a node:http server whose answers break the contract in known
 * ways (and a few that keep it), built from the document's own examples.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

interface Examples {
  components: { examples: Record<string, { value: unknown }> };
  paths: Record<
    string,
    Record<
      string,
      { responses: Record<string, { content?: Record<string, { examples?: Record<string, { $ref: string }> }> }> }
    >
  >;
}
const document = JSON.parse(
  readFileSync(new URL('../../generated/openapi/openapi.json', import.meta.url), 'utf8'),
) as Examples;

/** The first documented example of an answer, as a fresh copy. */
export function example(path: string, method: string, status: string): unknown {
  const examples = document.paths[path]![method]!.responses[status]!.content!['application/json']!.examples!;
  const ref = Object.values(examples)[0]!.$ref;
  return structuredClone(document.components.examples[ref.slice(ref.lastIndexOf('/') + 1)]!.value);
}

/** Size of the streamed download, and its chunk: large enough that no copy of it is kept whole. */
export const DOWNLOAD_BYTES = 24 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 7);
for (let i = 0; i < CHUNK.length; i++) CHUNK[i] = (i * 31) % 251;

export interface WrongUpstream {
  url: string;
  /** Requests received, by `METHOD path`. */
  received: string[];
  /** SHA-256 of each request body received, by `METHOD path`. */
  bodyHashes: Map<string, string>;
  close(): Promise<void>;
}

function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  type = 'application/json',
): void {
  response.writeHead(status, { 'content-type': type, ...headers }).end(JSON.stringify(body));
}

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

const job = () => example('/projects/{id}/jobs/{job_id}', 'get', '200') as Record<string, unknown>;
const pages = { 'x-page': '1', 'x-next-page': '', 'x-per-page': '20' };
const link = '<http://upstream.example/api/v4/projects/3/jobs?page=1>; rel="first"';

/** What each path answers. The comment says how it breaks the contract (or that it keeps it). */
export const answers: Record<string, Answer> = {
  // Undocumented status.
  'GET /api/v4/projects/1/jobs/7': (_q, r) => json(r, 418, { message: "418 I'm a teapot" }),
  // A field of the wrong type.
  'GET /api/v4/projects/4/jobs': (_q, r) => json(r, 200, [job(), { ...job(), id: '8' }], { ...pages, link }),
  // The same wrong field, gzip-encoded (the proxy decodes a copy to check it, and forwards the compressed bytes).
  'GET /api/v4/projects/6/jobs': (_q, r) =>
    void r
      .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', ...pages, link })
      .end(gzipSync(JSON.stringify([job(), { ...job(), id: '8' }]))),
  // A content type the operation does not document.
  'GET /api/v4/projects/5/jobs': (_q, r) => json(r, 200, [job()], { ...pages, link }, 'text/html; charset=utf-8'),
  // A list without Link.
  'GET /api/v4/projects/1/jobs': (_q, r) => json(r, 200, [job()], pages),
  // A 301 without Location.
  'GET /api/v4/projects/2/jobs': (_q, r) => void r.writeHead(301).end(),
  // Keeps the contract: a list with Link.
  'GET /api/v4/projects/3/jobs': (_q, r) => json(r, 200, [job(), job()], { ...pages, link }),
  // Keeps the contract: a large download, streamed in chunks.
  'GET /api/v4/projects/1/repository/files/big.bin/raw': (_q, r) => {
    r.writeHead(200, { 'content-type': 'application/octet-stream' });
    let sent = 0;
    const more = () => {
      while (sent < DOWNLOAD_BYTES) {
        sent += CHUNK.length;
        if (!r.write(CHUNK)) return void r.once('drain', more);
      }
      r.end();
    };
    more();
  },
  // Keeps the contract: an upload, answered once read.
  'POST /api/v4/projects/import': (_q, r) => json(r, 201, example('/projects/import', 'post', '201')),
};

/** The first bytes of the download's chunk, for a test that hashes what it expects. */
export function expectedDownloadHash(): string {
  const hash = createHash('sha256');
  for (let sent = 0; sent < DOWNLOAD_BYTES; sent += CHUNK.length) hash.update(CHUNK);
  return hash.digest('hex');
}

export async function startWrongUpstream(options: { hold?: boolean } = {}): Promise<WrongUpstream> {
  const received: string[] = [];
  const bodyHashes = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?', 1)[0];
    const key = `${request.method} ${path}`;
    received.push(key);
    const hash = createHash('sha256');
    request.on('data', (chunk: Buffer) => hash.update(chunk));
    request.on('end', () => {
      bodyHashes.set(key, hash.digest('hex'));
      const answer =
        answers[key] ?? ((_q: IncomingMessage, r: ServerResponse) => json(r, 404, { message: '404 Not Found' }));
      // A held request is never answered (until close): the proxy's timeout is the only way it ends.
      if (!options.hold) answer(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    bodyHashes,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
