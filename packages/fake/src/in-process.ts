/**
 * The fake without a port: a `fetch` that hands each request to the fake's Fastify app in the same process (Fastify's
 * `inject`), so it takes the server package's one input path (routing, limits, credentials, parsing, CORS) and answers
 * exactly as over HTTP. The client (`createServiceApi({ fetch })`), openapi-fetch and MSW handlers take it as their
 * fetch.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

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
  url: URL;
  method: string;
  headers: Headers;
  body: Buffer | undefined;
  signal: AbortSignal | undefined;
}

/**
 * The request as `fetch` would send it. A URL with no body or a text body is read from `init` directly (most calls,
 * and the cheapest: no `Request`, no signal of its own, no promise); anything else goes through `Request`, which gives
 * every other body its bytes and its `Content-Type` as `fetch` does.
 */
function outgoing(input: string | URL | Request, init: RequestInit | undefined): Outgoing | Promise<Outgoing> {
  if (!(input instanceof Request) && (init?.body == null || typeof init.body === 'string')) {
    const headers = new Headers(init?.headers);
    const text = init?.body;
    if (typeof text === 'string' && !headers.has('content-type'))
      headers.set('content-type', 'text/plain;charset=UTF-8');
    return {
      url: new URL(input),
      method: (init?.method ?? 'GET').toUpperCase(),
      headers,
      body: typeof text === 'string' ? Buffer.from(text) : undefined,
      signal: init?.signal ?? undefined,
    };
  }
  return fromRequest(new Request(input, init));
}

async function fromRequest(request: Request): Promise<Outgoing> {
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  return { url: new URL(request.url), method: request.method, headers: request.headers, body, signal: request.signal };
}

/** Fastify's `inject` in its callback form: no chain object and no extra tick per call. */
function inject(app: FastifyInstance, options: InjectOptions): Promise<LightMyRequestResponse> {
  return new Promise((resolve, reject) => {
    app.inject(options, (error, answer) => (error || !answer ? reject(error) : resolve(answer)));
  });
}

/** A `fetch` answered by `app` in this process, as the same request over HTTP would be. */
export function inProcessFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = await outgoing(input, init);
    request.signal?.throwIfAborted();
    const url = request.url;
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`fetch failed: the fake answers http: and https: URLs, not ${url.protocol}`);
    // No prototype: a header named `__proto__` (a valid token) is a header here, as over HTTP, not a prototype write.
    const headers: Record<string, string> = Object.create(null);
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    headers.host = url.host;
    headers['x-forwarded-proto'] = url.protocol.slice(0, -1);
    const answer = await inject(app, {
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(request.body ? { payload: request.body } : {}),
      remoteAddress: IN_PROCESS_ADDRESS,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    // Pairs, not a Headers: the Response fills its own list from them once, instead of copying a Headers built here.
    const answerHeaders: [string, string][] = [];
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const one of value) answerHeaders.push([name, String(one)]);
      else answerHeaders.push([name, String(value)]);
    }
    const empty = NULL_BODY.has(answer.statusCode) || request.method === 'HEAD' || answer.rawPayload.length === 0;
    const answerInit = { status: answer.statusCode, statusText: answer.statusMessage, headers: answerHeaders };
    const response = empty
      ? new Response(null, answerInit)
      : new BufferedResponse(bytesOf(answer.rawPayload), answerInit);
    Object.defineProperty(response, 'url', { value: url.href });
    return response;
  };
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
