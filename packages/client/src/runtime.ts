/**
 * The runtime of the client: URLs, query forms, credentials, timeouts, retries (429/503, and network failures and
 * timeouts of idempotent requests), the 301 of a renamed project, pagination, files and typed errors. It runs in
 * Node >= 20 and in browsers: only web platform APIs (fetch, Headers, FormData, Blob), no Node modules.
 */

/** A token, or a function that returns one (called before every request, so it may refresh). */
export type TokenSource = string | (() => string | Promise<string>);

/** The credential kinds of Part 1 §5 that a client sends in a header. */
export type Credentials = { privateToken: TokenSource } | { oauthToken: TokenSource } | { jobToken: TokenSource };

/** Header name and value prefix of each credential kind, read from the document's security schemes. */
export type CredentialTransport = Record<
  'privateToken' | 'oauthToken' | 'jobToken',
  { header: string; prefix: string }
>;

export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 disables retries). */
  attempts?: number;
  /** Upper bound of one wait, whatever `Retry-After` says (default 30 000 ms). */
  maxDelayMs?: number;
  /**
   * Wait before the first retry when the response has no usable `Retry-After`; doubled each retry (default 500 ms),
   * with equal jitter: half of it fixed, half random, so that clients dropped together do not retry together.
   */
  baseDelayMs?: number;
  /** How to wait; tests inject a fake. `signal` is the call's: the default stops waiting when it aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter (default `Math.random`); tests inject a fixed one. */
  random?: () => number;
  /** Called before each retry's wait. */
  onRetry?: (info: RetryInfo) => void;
}

/** Why and when a request is retried. */
export interface RetryInfo {
  /** The attempt about to be made: 2 for the first retry. */
  attempt: number;
  /** The wait before it. */
  delayMs: number;
  /** `status`: a 429 or 503; `network`: the connection failed or dropped; `timeout`: the attempt timed out. */
  reason: 'status' | 'network' | 'timeout';
  /** The status, for `reason: 'status'`. */
  status?: number;
  /** The failure, for `network` and `timeout`. */
  error?: ServiceApiError;
}

export interface RuntimeOptions {
  /** The API root, e.g. `https://service.example/api/v4`. */
  baseUrl: string;
  auth?: Credentials;
  /** Act as this user (ID or username) on every request (Part 1 §5 rule 4); a call's `sudo` wins. */
  sudo?: string | number;
  /** Headers sent on every request. */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  retry?: RetryOptions;
  /**
   * Milliseconds one attempt may take, reading the response body included (a stream too), before it fails with a
   * `ServiceApiError` of `kind: 'timeout'`; a call's `timeout` wins. Default: none, as `fetch` has none, because
   * archives, exports and long lists legitimately take minutes; Node's fetch still gives up on a server that sends
   * no headers for 300 s.
   */
  timeout?: number;
  /**
   * `manual` (default): a 301 with `Location` on the API's origin is followed by repeating the same method and body
   * (Part 1 §7 rule 3). Browsers hide manual redirects (an opaque response): pass `follow` there, which lets the
   * browser follow the redirect itself (a 301 after a POST then becomes a GET, as the fetch standard says).
   */
  redirect?: 'manual' | 'follow';
  /** Redirects followed for one call (default 5). */
  maxRedirects?: number;
  /** Pages read by `all()` and iteration unless the call says otherwise (default 100). */
  maxPages?: number;
}

/** What the generated code knows about each operation. */
export interface OperationDescriptor {
  id: string;
  method: string;
  path: string;
  response: 'json' | 'binary' | 'headers';
  body?: 'json' | 'multipart' | 'binary';
  /** Query parameters not written as repeated `name=v`: `deep` is `name[key]=v`, `csv` is `name=a,b`. */
  query?: Record<string, 'deep' | 'csv'>;
  /** Documented response headers and how to read them (HEAD operations return them). */
  headers?: Record<string, 'string' | 'number' | 'boolean'>;
  /** Documented error statuses: `isServiceApiError(error, operationId)` holds for these only. */
  errors?: number[];
  /**
   * `x-variants`: the method of each other view (`simple`) and the query it adds (`{ view: 'simple' }`); the plain
   * method gets the record of a call without it.
   */
  views?: Record<string, Record<string, string | boolean>>;
}

/** Per-call options. */
export interface CallOptions {
  /** Act as this user for this call only. */
  sudo?: string | number;
  headers?: Record<string, string>;
  /** Aborting rejects with the signal's reason, as `fetch` does; an abort is never retried. */
  signal?: AbortSignal;
  /** Milliseconds each attempt of this call may take (see `RuntimeOptions.timeout`). */
  timeout?: number;
  /**
   * `withResponse(…)` also resolves to the body's text as received (`text`), for a caller that passes the answer on
   * as text (an MCP server's text content) instead of serialising `data` again.
   */
  keepText?: boolean;
}

/** The input of a call, as generated per operation: path, query and header parameters, the body, and `extra`. */
export interface CallInput {
  path?: object;
  query?: object;
  headers?: object;
  body?: unknown;
  /** Parameters the contract does not list, sent after the documented ones. */
  extra?: { query?: object; body?: object };
}

/** The input a view's method sends (\`x-variants\`): the caller's, with the view's parameter (\`{ view: 'simple' }\`). */
export function withView(input: CallInput | undefined, view: object): CallInput {
  return { ...input, query: { ...input?.query, ...view } };
}

/** Pagination headers of a response (Part 1 §8), as numbers, and the URL of the next page from `Link`. */
export interface Pagination {
  page?: number;
  perPage?: number;
  nextPage?: number;
  prevPage?: number;
  total?: number;
  totalPages?: number;
  /** The `rel="next"` URL of the `Link` header (offset and keyset pagination). */
  next?: string;
}

/** What `.withResponse(...)` resolves to: the body with the status, the documented headers and the pagination. */
export interface ApiResponse<Data, DocumentedHeaders = Record<string, never>> {
  data: Data;
  status: number;
  /** The operation's documented success headers, numbers and booleans converted (absent ones undefined). */
  headers: DocumentedHeaders;
  /** Every header of the response (rate limits, request ids …). */
  rawHeaders: Headers;
  pagination: Pagination;
  url: string;
  /** The body's text as received, when the call passed `keepText: true` and the answer is not a file or headers. */
  text?: string;
}

/**
 * `http`: a response outside 2xx; `network`: no response (refused, reset, DNS …); `timeout`: `timeout` ran out;
 * `off-origin`: a redirect (`Location`) or a next page (`Link`, with no `x-next-page` to page by instead) pointed
 * off the API's origin, and the client refused to send the credentials there.
 */
export type ServiceApiErrorKind = 'http' | 'network' | 'timeout' | 'off-origin';

/** What ended a call without an answer the client takes: the kind, and the original error or the refused URL. */
type Failure = { kind: 'network' | 'timeout'; cause: unknown } | { kind: 'off-origin'; what: string; target: string };

/**
 * A response outside 2xx (`kind: 'http'`), or a call that got no answer the client takes (`kind: 'network'`,
 * `'timeout'` or `'off-origin'`, with `status` 0; the original error as `cause` of a network failure or timeout, the
 * refused URL as `target` of an off-origin one). `isServiceApiError(error, operationId)` narrows it to the union of
 * the operation's documented errors, so that `error.status === 409` narrows `error.body`.
 */
export class ServiceApiError<
  Body = unknown,
  Status extends number = number,
  Operation extends string = string,
> extends Error {
  readonly name = 'ServiceApiError';
  readonly kind: ServiceApiErrorKind;
  /** `kind: 'off-origin'`: the URL the client refused to follow. */
  readonly target?: string;
  constructor(
    readonly operationId: Operation,
    readonly status: Status,
    readonly body: Body,
    readonly headers: Headers,
    readonly url: string,
    /** Whether the operation documents this status (and so its body). */
    readonly documented = false,
    failure?: Failure,
  ) {
    super(
      failureMessage(operationId, failure) ?? `${operationId} answered ${status}${messageOf(body)}`,
      failure && 'cause' in failure ? { cause: failure.cause } : undefined,
    );
    this.kind = failure?.kind ?? 'http';
    if (failure?.kind === 'off-origin') this.target = failure.target;
  }
}

function failureMessage(operationId: string, failure: Failure | undefined): string | undefined {
  if (!failure) return undefined;
  if (failure.kind === 'off-origin')
    return `${operationId}: refused to follow a ${failure.what} off the API origin to ${failure.target}`;
  return `${operationId} ${failure.kind === 'timeout' ? 'timed out' : 'failed'}: ${causeText(failure.cause)}`;
}

/** A network failure or timeout of a call to `url`, as a `ServiceApiError` with `status` 0. */
function failureError(
  operationId: string,
  url: string,
  kind: 'network' | 'timeout',
  cause: unknown,
): ServiceApiError<undefined, 0> {
  return new ServiceApiError(operationId, 0, undefined, new Headers(), url, false, { kind, cause });
}

/** A redirect or next page off the API's origin, refused: a `ServiceApiError` of kind `off-origin`, `status` 0. */
function offOriginError(
  operationId: string,
  response: Response,
  url: string,
  what: 'redirect' | 'next page',
  target: string,
): ServiceApiError<undefined, 0> {
  return new ServiceApiError(operationId, 0, undefined, response.headers, url, false, {
    kind: 'off-origin',
    what,
    target,
  });
}

/** `fetch failed (connect ECONNREFUSED 127.0.0.1:9)`: Node's fetch puts the reason in `cause`. */
function causeText(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? cause.cause.message : undefined;
  return inner ? `${cause.message} (${inner})` : cause.message;
}

function messageOf(body: unknown): string {
  if (typeof body === 'string' && body) return `: ${body.slice(0, 200)}`;
  if (body && typeof body === 'object') {
    const { message, error } = body as { message?: unknown; error?: unknown };
    const text = message ?? error;
    if (text !== undefined) return `: ${typeof text === 'string' ? text : JSON.stringify(text)}`;
  }
  return '';
}

/**
 * Milliseconds to wait before retry number `retry` (1-based): `Retry-After` seconds or HTTP-date, else exponential
 * backoff with equal jitter (between half and all of `baseDelayMs * 2 ** (retry - 1)`); capped at `maxDelayMs`.
 */
export function retryDelay(
  retryAfter: string | null,
  retry: number,
  options: RetryOptions = {},
  now = Date.now(),
): number {
  const max = options.maxDelayMs ?? 30_000;
  const backoff = Math.min((options.baseDelayMs ?? 500) * 2 ** (retry - 1), max);
  let delay = backoff / 2 + (backoff / 2) * (options.random ?? Math.random)();
  const value = retryAfter?.trim();
  if (value && /^\d+$/.test(value)) delay = Number(value) * 1000;
  else if (value) {
    const date = Date.parse(value);
    if (!Number.isNaN(date)) delay = Math.max(0, date - now);
  }
  return Math.round(Math.min(Math.max(0, delay), max));
}

/** The URL of `rel="next"` in a `Link` header, if any. */
export function nextLink(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2]!)) return match[1];
  }
  return undefined;
}

/** Encodes the query as the API reads it: arrays as repeated names (`scope[]=a&scope[]=b`), `name[key]=v`, `a,b`. */
export function serializeQuery(query: object | undefined, styles: Record<string, 'deep' | 'csv'> = {}): string {
  if (!query) return '';
  const parts: string[] = [];
  const add = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    parts.push(
      `${encodeName(name)}=${encodeURIComponent(value instanceof Date ? value.toISOString() : String(value))}`,
    );
  };
  for (const [name, value] of Object.entries(query)) {
    const style = styles[name];
    if (style === 'deep' && value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) for (const one of [item].flat()) add(`${name}[${key}]`, one);
    } else if (Array.isArray(value)) {
      if (style === 'csv') add(name, value.join(','));
      else for (const item of value) add(name, item);
    } else add(name, value);
  }
  return parts.join('&');
}

function encodeName(name: string): string {
  return encodeURIComponent(name).replace(/%5B/gi, '[').replace(/%5D/gi, ']');
}

/** Fills `{name}` with URL-encoded values, so that `group/project` and file paths travel as one segment. */
export function fillPath(template: string, values: object | undefined): string {
  const given = (values ?? {}) as Record<string, unknown>;
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = given[name];
    if (value === undefined || value === null || value === '')
      throw new TypeError(`Missing path parameter ${name} for ${template}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * A multipart body from a plain object: files (`Blob`/`File`) as they are, arrays as repeated fields, and hashes as
 * one field per key, `name[key]` (`override_params[visibility]=private`), as the API reads forms.
 */
export function toFormData(body: unknown): FormData {
  if (body instanceof FormData) return body;
  const form = new FormData();
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value))
      value.forEach((item) => {
        add(name, item);
      });
    else if (value instanceof Blob) form.append(name, value, (value as { name?: string }).name || name);
    else if (typeof value === 'object') for (const [key, item] of Object.entries(value)) add(`${name}[${key}]`, item);
    else form.append(name, String(value));
  };
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) add(name, value);
  return form;
}

/** The pagination headers of a response as numbers (an empty `x-next-page` on the last page is no next page). */
export function readPagination(headers: Headers, url: string): Pagination {
  const number = (name: string): number | undefined => {
    const value = headers.get(name)?.trim();
    return value && /^\d+$/.test(value) ? Number(value) : undefined;
  };
  const link = nextLink(headers.get('link'));
  const out: Pagination = {
    page: number('x-page'),
    perPage: number('x-per-page'),
    nextPage: number('x-next-page'),
    prevPage: number('x-prev-page'),
    total: number('x-total'),
    totalPages: number('x-total-pages'),
    next: link ? new URL(link, url).href : undefined,
  };
  for (const key of Object.keys(out) as (keyof Pagination)[]) if (out[key] === undefined) delete out[key];
  return out;
}

/** `documented` and `extra` together; a name in both is a mistake the caller should see. */
function withExtra(documented: object | undefined, extra: object | undefined, part: string): object | undefined {
  if (!extra) return documented;
  if (documented instanceof FormData)
    throw new TypeError(`extra.${part} cannot be merged into a FormData: append the fields to it`);
  for (const name of Object.keys(extra)) {
    if (documented && Object.hasOwn(documented, name))
      throw new TypeError(`extra.${part}.${name} is also in ${part}: pass it once`);
  }
  return { ...documented, ...extra };
}

/** Reads the documented headers of a response into an object, converting numbers and booleans. */
export function readHeaders(
  headers: Headers,
  types: Record<string, 'string' | 'number' | 'boolean'> = {},
): Record<string, string | number | boolean | undefined> {
  const out: Record<string, string | number | boolean | undefined> = {};
  for (const [name, type] of Object.entries(types)) {
    const value = headers.get(name);
    if (value === null) out[name] = undefined;
    else if (type === 'number') out[name] = value.trim() === '' ? undefined : Number(value);
    else if (type === 'boolean') out[name] = value === 'true';
    else out[name] = value;
  }
  return out;
}

interface PreparedRequest {
  url: string;
  method: string;
  headers: Headers;
  body?: BodyInit;
  signal?: AbortSignal;
  /** Milliseconds per attempt. */
  timeout?: number;
}

/** Waits `ms`, or less when `signal` aborts: the next fetch then rejects with the abort's reason. */
function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });
}

/** Methods that may be repeated after a failure that may have reached the server (RFC 9110 §9.2.2). */
const idempotent = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** The signal of one attempt: the caller's, combined with a fresh timeout when there is one. */
function attemptSignal(signal: AbortSignal | undefined, timeout: number | undefined): AbortSignal | undefined {
  if (timeout === undefined) return signal;
  const timer = AbortSignal.timeout(timeout);
  return signal ? AbortSignal.any([signal, timer]) : timer;
}

/**
 * What a failed fetch or body read becomes: the caller's abort is rethrown as it is; a timeout or a network failure
 * becomes a `ServiceApiError` of that kind, the original error as its `cause`.
 */
function toFailure(error: unknown, request: PreparedRequest, operationId: string): unknown {
  if (error instanceof ServiceApiError || request.signal?.aborted) return error;
  const timedOut = (error as { name?: unknown } | null)?.name === 'TimeoutError';
  return failureError(operationId, request.url, timedOut ? 'timeout' : 'network', error);
}

/** Reads a response body; a dropped connection or timeout on the way is a `ServiceApiError` too. */
async function readBody<T>(read: Promise<T>, request: PreparedRequest, operationId: string): Promise<T> {
  try {
    return await read;
  } catch (error) {
    throw toFailure(error, request, operationId);
  }
}

/** The request pipeline shared by the typed methods and the low-level openapi-fetch client. */
export class Transport {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly fetchImpl: typeof fetch;

  constructor(
    readonly options: RuntimeOptions,
    private readonly credentialHeaders: CredentialTransport,
  ) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Adds credentials, sudo and default headers; a header the caller set explicitly is kept. */
  async authorize(headers: Headers, sudo?: string | number): Promise<void> {
    for (const [name, value] of Object.entries(this.options.headers ?? {}))
      if (!headers.has(name)) headers.set(name, value);
    const auth = this.options.auth;
    if (auth) {
      const kind = 'privateToken' in auth ? 'privateToken' : 'oauthToken' in auth ? 'oauthToken' : 'jobToken';
      const source = (auth as Record<string, TokenSource>)[kind]!;
      const { header, prefix } = this.credentialHeaders[kind];
      if (!headers.has(header)) headers.set(header, prefix + (typeof source === 'function' ? await source() : source));
    }
    const who = sudo ?? this.options.sudo;
    if (who !== undefined && !headers.has('Sudo')) headers.set('Sudo', String(who));
  }

  /**
   * Sends a request: retries 429 and 503 (bounded, honouring `Retry-After`), and network failures and timeouts of
   * idempotent methods; follows a 301 on the same origin. A stream body cannot be sent twice: never retried.
   */
  async send(request: PreparedRequest, operationId = 'request'): Promise<Response> {
    const retry = this.options.retry ?? {};
    const attempts = request.body instanceof ReadableStream ? 1 : Math.max(1, retry.attempts ?? 3);
    const sleep = retry.sleep ?? defaultSleep;
    const manual = (this.options.redirect ?? 'manual') === 'manual';
    let url = request.url;
    let redirects = 0;
    for (let attempt = 1; ; ) {
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          signal: attemptSignal(request.signal, request.timeout),
          redirect: manual ? 'manual' : 'follow',
        });
      } catch (thrown) {
        const error = toFailure(thrown, { ...request, url }, operationId);
        if (!(error instanceof ServiceApiError) || attempt >= attempts || !idempotent.has(request.method)) throw error;
        const delayMs = retryDelay(null, attempt, retry);
        attempt += 1;
        retry.onRetry?.({ attempt, delayMs, reason: error.kind as 'network' | 'timeout', error });
        await sleep(delayMs, request.signal);
        continue;
      }
      if (response.status === 301 && manual) {
        const location = response.headers.get('location');
        if (!location) return response;
        const target = new URL(location, url);
        if (target.origin !== this.origin) {
          discard(response);
          throw offOriginError(operationId, response, url, 'redirect', target.href);
        }
        if (++redirects > (this.options.maxRedirects ?? 5)) return response;
        discard(response);
        url = target.href;
        continue;
      }
      if ((response.status === 429 || response.status === 503) && attempt < attempts) {
        discard(response);
        const delayMs = retryDelay(response.headers.get('retry-after'), attempt, retry);
        attempt += 1;
        retry.onRetry?.({ attempt, delayMs, reason: 'status', status: response.status });
        await sleep(delayMs, request.signal);
        continue;
      }
      return response;
    }
  }

  /** A fetch for openapi-fetch: the same credentials, retries and redirects for `client.GET(…)`. */
  readonly fetch = async (input: Request): Promise<Response> => {
    const headers = new Headers(input.headers);
    await this.authorize(headers);
    const body = input.body === null ? undefined : await input.arrayBuffer();
    const { timeout } = this.options;
    return this.send({ url: input.url, method: input.method, headers, body, signal: input.signal, timeout });
  };

  /** Builds the request of a typed call. */
  async prepare(
    op: OperationDescriptor,
    input: CallInput | undefined,
    options: CallOptions | undefined,
    url?: string,
  ): Promise<PreparedRequest> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(input?.headers ?? {}))
      if (value !== undefined && value !== null) headers.set(name, String(value));
    for (const [name, value] of Object.entries(options?.headers ?? {})) headers.set(name, value);
    await this.authorize(headers, options?.sudo);
    let body: BodyInit | undefined;
    const extraBody = input?.extra?.body;
    if (extraBody && (!op.body || op.body === 'binary'))
      throw new TypeError(`${op.id} takes no JSON or form body: extra.body cannot be sent`);
    const given = extraBody ? withExtra(input?.body as object | undefined, extraBody, 'body') : input?.body;
    if (given !== undefined) {
      if (op.body === 'multipart') body = toFormData(given);
      else if (op.body === 'binary') body = given as BodyInit;
      else {
        body = JSON.stringify(given);
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      }
    }
    if (url === undefined) {
      const search = serializeQuery(withExtra(input?.query, input?.extra?.query, 'query'), op.query);
      url = `${this.baseUrl}${fillPath(op.path, input?.path)}${search ? `?${search}` : ''}`;
    }
    return {
      url,
      method: op.method,
      headers,
      body,
      signal: options?.signal,
      timeout: options?.timeout ?? this.options.timeout,
    };
  }

  /** A typed call: the success body (JSON, a file, or the headers of a HEAD), or a `ServiceApiError`. */
  async call(
    op: OperationDescriptor,
    input?: CallInput,
    options?: CallOptions & { as?: 'blob' | 'stream' },
  ): Promise<unknown> {
    return (await this.callWithResponse(op, input, options)).data;
  }

  /** A typed call with its status, documented headers and pagination. */
  async callWithResponse(
    op: OperationDescriptor,
    input?: CallInput,
    options?: CallOptions & { as?: 'blob' | 'stream' },
  ): Promise<ApiResponse<unknown, Record<string, unknown>>> {
    const request = await this.prepare(op, input, options);
    const response = await this.send(request, op.id);
    if (!response.ok) throw await this.error(op, response);
    const url = response.url || request.url;
    const headers = readHeaders(response.headers, op.headers);
    let data: unknown;
    let text: string | undefined;
    if (op.response === 'headers') {
      discard(response);
      data = headers;
    } else if (op.response === 'binary')
      data = options?.as === 'stream' ? response.body : await readBody(response.blob(), request, op.id);
    else ({ data, text } = await readBody(readJson(response), request, op.id));
    return {
      data,
      status: response.status,
      headers,
      rawHeaders: response.headers,
      pagination: readPagination(response.headers, url),
      url,
      ...(options?.keepText && text !== undefined ? { text } : {}),
    };
  }

  /** The pages of a paginated list: follows `Link: <…>; rel="next"`, else `x-next-page`, up to `maxPages`. */
  async *pages(
    op: OperationDescriptor,
    input?: CallInput,
    options?: CallOptions & { maxPages?: number },
  ): AsyncGenerator<unknown[], void, undefined> {
    const maxPages = options?.maxPages ?? this.options.maxPages ?? 100;
    let request = await this.prepare(op, input, options);
    for (let page = 1; page <= maxPages; page += 1) {
      const response = await this.send(request, op.id);
      if (!response.ok) throw await this.error(op, response);
      const { data: items } = await readBody(readJson(response), request, op.id);
      yield Array.isArray(items) ? items : [];
      if (page >= maxPages) return;
      const next = nextUrl(response, request.url, this.origin);
      if (!next) return;
      if (new URL(next).origin !== this.origin) throw offOriginError(op.id, response, request.url, 'next page', next);
      request = { ...request, url: next };
    }
  }

  async error(op: OperationDescriptor, response: Response): Promise<ServiceApiError> {
    let body: unknown;
    try {
      const text = await response.text();
      body = /json/i.test(response.headers.get('content-type') ?? '') && text ? JSON.parse(text) : text;
    } catch {
      body = undefined;
    }
    return new ServiceApiError(
      op.id,
      response.status,
      body,
      response.headers,
      response.url,
      op.errors?.includes(response.status) ?? false,
    );
  }
}

/**
 * The next page: `Link`'s `rel="next"` on the API's origin, else the current URL at `x-next-page` (a gateway that
 * forwards the upstream's `Link` unchanged leaves `x-next-page` usable), else an off-origin `Link` (refused).
 */
/**
 * Lets go of a body the client does not read. Not awaited: cancelling one branch of a teed body (as MSW and other
 * interceptors hand out) settles only once the other branch is cancelled too.
 */
function discard(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}

function nextUrl(response: Response, current: string, origin: string): string | undefined {
  const link = nextLink(response.headers.get('link'));
  const linked = link === undefined ? undefined : new URL(link, current);
  if (linked?.origin === origin) return linked.href;
  const nextPage = response.headers.get('x-next-page');
  if (!nextPage) return linked?.href;
  const url = new URL(current);
  url.searchParams.set('page', nextPage);
  return url.href.replace(/%5B/gi, '[').replace(/%5D/gi, ']');
}

/** A JSON answer's text and body (parsed; the text itself when it is not JSON); neither for a 204, 205 or no body. */
async function readJson(response: Response): Promise<{ data: unknown; text?: string }> {
  if (response.status === 204 || response.status === 205) return { data: undefined };
  const text = await response.text();
  if (!text) return { data: undefined, text };
  const json = /json/i.test(response.headers.get('content-type') ?? '') || /^[[{"]/.test(text);
  return { data: json ? JSON.parse(text) : text, text };
}
