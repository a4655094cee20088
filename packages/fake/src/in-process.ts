/**
 * The fake without a port: a `fetch` that hands each request to the fake's Fastify app in the same process (Fastify's
 * `inject`), so it takes the server package's one input path (routing, limits, credentials, parsing, CORS) and answers
 * exactly as over HTTP. The client (`createServiceApi({ fetch })`), openapi-fetch and MSW handlers take it as their
 * fetch.
 */
import type { FastifyInstance } from 'fastify';

/**
 * The `remoteAddress` of an in-process request: no socket has it, so only these requests are trusted to name the
 * protocol the caller used (`x-forwarded-proto`), which the fake's URLs (`Link`, `Location`, `web_url`) then carry.
 */
export const IN_PROCESS_ADDRESS = 'in-process';

/** Fastify's `trustProxy`: the forwarded protocol of in-process requests only. */
export const trustInProcess = (address: string): boolean => address === IN_PROCESS_ADDRESS;

/** Statuses whose answers have no body (the fetch standard's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** What `inject` needs of a request: its URL, method, headers, body and signal. */
interface Outgoing {
  url: string;
  method: string;
  headers: Headers;
  body: Buffer | undefined;
  signal: AbortSignal | undefined;
}

/**
 * The request as `fetch` would send it. A URL with no body or a text body is read from `init` directly (most calls,
 * and the cheapest: no `Request` and no signal of its own); anything else goes through `Request`, which gives every
 * other body its bytes and its `Content-Type` as `fetch` does.
 */
async function outgoing(input: string | URL | Request, init: RequestInit | undefined): Promise<Outgoing> {
  if (!(input instanceof Request) && (init?.body == null || typeof init.body === 'string')) {
    const headers = new Headers(init?.headers);
    const text = init?.body;
    if (typeof text === 'string' && !headers.has('content-type'))
      headers.set('content-type', 'text/plain;charset=UTF-8');
    const url = new URL(input).href;
    const method = (init?.method ?? 'GET').toUpperCase();
    return {
      url,
      method,
      headers,
      body: typeof text === 'string' ? Buffer.from(text) : undefined,
      signal: init?.signal ?? undefined,
    };
  }
  const request = new Request(input, init);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  return { url: request.url, method: request.method, headers: request.headers, body, signal: request.signal };
}

/** A `fetch` answered by `app` in this process, as the same request over HTTP would be. */
export function inProcessFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = await outgoing(input, init);
    request.signal?.throwIfAborted();
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`fetch failed: the fake answers http: and https: URLs, not ${url.protocol}`);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    headers.host = url.host;
    headers['x-forwarded-proto'] = url.protocol.slice(0, -1);
    const answer = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(request.body ? { payload: request.body } : {}),
      remoteAddress: IN_PROCESS_ADDRESS,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) answerHeaders.append(name, String(one));
    }
    const empty = NULL_BODY.has(answer.statusCode) || request.method === 'HEAD' || answer.rawPayload.length === 0;
    const response = new Response(empty ? null : bytesOf(answer.rawPayload), {
      status: answer.statusCode,
      statusText: answer.statusMessage,
      headers: answerHeaders,
    });
    Object.defineProperty(response, 'url', { value: request.url });
    return response;
  };
}

/** A Buffer's bytes as the `Uint8Array` a `Response` takes, without copying them. */
function bytesOf(buffer: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
}
