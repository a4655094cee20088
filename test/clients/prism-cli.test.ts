/**
 * What a team does with the published description: `prism mock generated/openapi/openapi.json`. Every list
 * operation's answer is followed through `Link: rel="next"` (and `x-next-page`) the way paginating clients do; since
 * each example describes the single page it comes with, every client stops after one page: nothing loops.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listOperations } from '../../generators/lib/document.ts';
import { BIN, PUBLISHED_JSON } from '../../scripts/lib/paths.ts';
import { publishedDocument } from '../support/documents.ts';
import { buildRequest, credentialsFor } from '../support/requests.ts';

const doc = publishedDocument();
const lists = listOperations(doc).filter((entry) => entry.operation['x-pagination'] !== undefined);
const MAX_PAGES = 10;

let prism: ChildProcess | undefined;
let root = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  root = `http://127.0.0.1:${port}`;
  prism = spawn(BIN('prism'), ['mock', PUBLISHED_JSON, '-h', '127.0.0.1', '-p', String(port), '--errors', 'false'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on/i.test(output)) resolve();
    };
    prism!.stdout!.on('data', onData);
    prism!.stderr!.on('data', onData);
    prism!.once('exit', (code) => reject(new Error(`prism exited with ${code}: ${output.slice(-2000)}`)));
  });
}, 60_000);

afterAll(() => {
  prism?.kill();
});

it('the document has paginated list operations', () => {
  expect(lists.length).toBeGreaterThan(20);
});

/** The next page a paginating client would request: `Link: rel="next"`, else a non-empty `x-next-page`. */
function nextPage(response: Response, current: URL): URL | undefined {
  const link = response.headers.get('link') ?? '';
  const next = /<([^>]+)>\s*;\s*rel="next"/.exec(link)?.[1];
  if (next) return new URL(next, current);
  const page = response.headers.get('x-next-page');
  if (page) {
    const url = new URL(current);
    url.searchParams.set('page', page);
    return url;
  }
  return undefined;
}

it('no list makes a paginating client loop', async () => {
  const report: string[] = [];
  let answered = 0;
  for (const entry of lists) {
    const request = buildRequest(doc, entry);
    const credentials = credentialsFor(doc, entry);
    let url: URL | undefined = new URL(
      `${root}${request.url}${credentials.query ? `${request.url.includes('?') ? '&' : '?'}${credentials.query}` : ''}`,
    );
    let pages = 0;
    while (url && pages < MAX_PAGES) {
      const response: Response = await fetch(url, {
        method: request.method,
        headers: { ...request.headers, ...credentials.headers },
      });
      await response.arrayBuffer();
      pages += 1;
      if (pages === 1 && response.ok) answered += 1;
      url = response.ok ? nextPage(response, url) : undefined;
    }
    if (url) report.push(`${entry.operationId}: still a next page after ${MAX_PAGES} pages`);
    else if (pages > 1) report.push(`${entry.operationId}: ${pages} pages of the same example`);
  }
  console.log(
    `plain Prism CLI: ${answered} of ${lists.length} list operations answered 2xx; ${report.length} would make a client loop`,
  );
  expect(report).toEqual([]);
  expect(answered).toBeGreaterThan(0);
}, 120_000);
