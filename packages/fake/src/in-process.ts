/**
 * The fake without a port: a `fetch` that hands each request to the fake's Fastify app in the same process (Fastify's
 * `inject`), so it takes the server package's one input path (routing, limits, credentials, parsing, CORS) and answers
 * exactly as over HTTP: what `fetch` itself refuses throws the same `TypeError`, what Node's HTTP parser refuses gets
 * the server package's answer (`parserRefusal`), the body is streamed (a body above its limit is refused without
 * being read whole), and the request's `AbortSignal` is honoured until the answer is in. The client
 * (`createServiceApi({ fetch })`), openapi-fetch and MSW handlers take it as their fetch.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { parserRefusal } from '@service-api/server/internal';

/**
 * The `remoteAddress` of an in-process request: no socket has it, so only these requests are trusted to name the
 * protocol the caller used (`x-forwarded-proto`), which the fake's URLs (`Link`, `Location`, `web_url`) then carry.
 */
export const IN_PROCESS_ADDRESS = 'in-process';

/** Fastify's `trustProxy`: the forwarded protocol of in-process requests only. */
export const trustInProcess = (address: string): boolean => address === IN_PROCESS_ADDRESS;

/** Statuses whose answers have no body (the fetch standard's null body statuses). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** What `inject` needs of a request: its URL, method, headers, body (bytes, or a stream of unknown length) and signal. */
interface Outgoing {
  url: URL;
  method: string;
  headers: Headers;
  body: Buffer | Readable | undefined;
  signal: AbortSignal | undefined;
}

/** Methods `fetch` writes in upper case whatever case they are given in; any other keeps its case. */
const NORMALIZED = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
const TOKEN = /^[!#$%&'*+\-.^_`|~\dA-Za-z]+$/;

/** The method as `fetch` sends it, or the `TypeError` it throws (not a token; CONNECT, TRACE, TRACK). */
function methodOf(method: string | undefined): string {
  if (method === undefined) return 'GET';
  if (!TOKEN.test(method)) throw new TypeError(`'${method}' is not a valid HTTP method.`);
  const upper = method.toUpperCase();
  if (upper === 'CONNECT' || upper === 'TRACE' || upper === 'TRACK')
    throw new TypeError(`'${method}' HTTP method is unsupported.`);
  return NORMALIZED.has(upper) ? upper : method;
}

/** The URL, or the `TypeError` of `fetch` for one with credentials. */
function urlOf(input: string | URL): URL {
  const url = new URL(input);
  if (url.username || url.password)
    throw new TypeError(`Request cannot be constructed from a URL that includes credentials: ${url.href}`);
  return url;
}

/** Bytes in memory as a Buffer, without copying them. */
function bufferOf(body: ArrayBuffer | ArrayBufferView): Buffer {
  return ArrayBuffer.isView(body) ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : Buffer.from(body);
}

/**
 * The request as `fetch` would send it. A URL with a body of text or bytes (or none) is read from `init` directly
 * (most calls, and the cheapest: no `Request`, no copy); anything else goes through `Request`, which gives every other
 * body its `Content-Type` as `fetch` does, and is streamed.
 */
function outgoing(input: string | URL | Request, init: RequestInit | undefined): Outgoing {
  const body = init?.body;
  const direct = typeof body === 'string' || body instanceof ArrayBuffer || ArrayBuffer.isView(body);
  if (input instanceof Request || !(body == null || direct)) return fromRequest(new Request(input, init));
  const method = methodOf(init?.method);
  if (body != null && (method === 'GET' || method === 'HEAD'))
    throw new TypeError('Request with GET/HEAD method cannot have body.');
  const headers = new Headers(init?.headers);
  if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
  return {
    url: urlOf(input),
    method,
    headers,
    body: body == null ? undefined : typeof body === 'string' ? Buffer.from(body) : bufferOf(body),
    signal: init?.signal ?? undefined,
  };
}

/** A `Request`'s parts; its body streamed as it is read (never read whole here). */
function fromRequest(request: Request): Outgoing {
  const body = request.body ? Readable.fromWeb(request.body as never) : undefined;
  return { url: urlOf(request.url), method: request.method, headers: request.headers, body, signal: request.signal };
}

/** Fastify's `inject` in its callback form, given up (and the body stream stopped) once `signal` aborts. */
function inject(
  app: FastifyInstance,
  options: InjectOptions,
  body: Readable | undefined,
  signal: AbortSignal | undefined,
): Promise<LightMyRequestResponse> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      body?.destroy();
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
    app.inject(options, (error, answer) => {
      signal?.removeEventListener('abort', abort);
      // An answer that came before the whole body was read (an early 413): the rest is not read, as over HTTP.
      if (body && !body.readableEnded) body.destroy();
      if (error || !answer) reject(error);
      else resolve(answer);
    });
  });
}

/** The request's headers as `inject` takes them, in an object without a prototype (`__proto__` is a header name). */
function headersOf(request: Outgoing): Record<string, string> {
  const headers: Record<string, string> = Object.create(null);
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers.host = request.url.host;
  headers['x-forwarded-proto'] = request.url.protocol.slice(0, -1);
  if (Buffer.isBuffer(request.body)) headers['content-length'] = String(request.body.length);
  else if (request.body) headers['transfer-encoding'] = 'chunked';
  return headers;
}

/** A `fetch` answered by `app` in this process, as the same request over HTTP would be. */
export function inProcessFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = outgoing(input, init);
    request.signal?.throwIfAborted();
    const url = request.url;
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`fetch failed: the fake answers http: and https: URLs, not ${url.protocol}`);
    const headers = headersOf(request);
    const target = url.pathname + url.search;
    const refused = parserRefusal(request.method, target, headers);
    if (refused) {
      if (request.body instanceof Readable) request.body.destroy();
      return answerOf(refused.status, refused.headers, Buffer.from(refused.body), url, request.method);
    }
    const stream = request.body instanceof Readable ? request.body : undefined;
    const answer = await inject(
      app,
      {
        method: request.method as 'GET',
        url: target,
        headers,
        ...(request.body ? { payload: request.body } : {}),
        remoteAddress: IN_PROCESS_ADDRESS,
        ...(request.signal ? { signal: request.signal } : {}),
      },
      stream,
      request.signal,
    );
    return answerOf(answer.statusCode, answer.headers, answer.rawPayload, url, request.method, answer.statusMessage);
  };
}

/** The `Response` of an answer. */
function answerOf(
  status: number,
  headers: Record<string, string | string[] | number | undefined>,
  payload: Buffer,
  url: URL,
  method: string,
  statusText?: string,
): Response {
  // Pairs, not a Headers: the Response fills its own list from them once, instead of copying a Headers built here.
  const answerHeaders: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const one of value) answerHeaders.push([name, String(one)]);
    else answerHeaders.push([name, String(value)]);
  }
  const empty = NULL_BODY.has(status) || method === 'HEAD' || payload.length === 0;
  const answerInit = { status, statusText, headers: answerHeaders };
  const response = empty ? new Response(null, answerInit) : new BufferedResponse(bytesOf(payload), answerInit);
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}

/** A Buffer's bytes as the `Uint8Array` a `Response` takes, without copying them. */
function bytesOf(buffer: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
}

/**
 * A `Response` whose body is bytes already in memory. Node's `Response` wraps every body in a web `ReadableStream` and
 * reads it back chunk by chunk, which costs more than the fake's whole answer; this one hands `arrayBuffer()`, `bytes()`,
 * `text()` and `json()` the bytes directly. `body`, `blob()`, `formData()` and `clone()` go through a real `Response`
 * of the same bytes, made when first needed, which then owns the body: reading twice fails as `fetch`'s does.
 */
class BufferedResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  readonly #init: ResponseInit;
  #streamed: Response | undefined;
  #used = false;

  constructor(bytes: Uint8Array<ArrayBuffer>, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
    this.#init = init;
  }

  /** The real `Response` that owns the body once a stream, a `Blob`, a form or a clone has been asked for. */
  #real(): Response {
    if (this.#streamed) return this.#streamed;
    this.#streamed = new Response(this.#bytes, this.#init);
    // The bytes were read already: so is its body (a disturbed stream; a read or a clone then fails).
    if (this.#used) this.#streamed.arrayBuffer().catch(() => undefined);
    return this.#streamed;
  }

  /** The bytes, once: `undefined` when the real `Response` owns the body. */
  #take(): Uint8Array<ArrayBuffer> | undefined {
    if (this.#streamed) return undefined;
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#real().body;
  }

  override get bodyUsed(): boolean {
    return this.#streamed ? this.#streamed.bodyUsed : this.#used;
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#take();
    return bytes ? bytes.slice().buffer : this.#streamed!.arrayBuffer();
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const bytes = this.#take();
    return bytes ? bytes.slice() : new Uint8Array(await this.#streamed!.arrayBuffer());
  }

  override async text(): Promise<string> {
    const bytes = this.#take();
    return bytes ? new TextDecoder().decode(bytes) : this.#streamed!.text();
  }

  override async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  override async blob(): Promise<Blob> {
    return this.#real().blob();
  }

  override async formData(): Promise<FormData> {
    return this.#real().formData();
  }

  override clone(): Response {
    const copy = this.#real().clone();
    Object.defineProperty(copy, 'url', { value: this.url });
    return copy;
  }
}
