/**
 * Prism picks and renders the responses, through its public entry points: @stoplight/http-spec reads one operation as
 * Prism sees it, and a Prism instance (`createInstance`) with request validation, security and proxying off only
 * mocks: its negotiator chooses the documented response, media type and example (`Prefer: code=…, example=…`), and
 * its static sampler fills what has no example, as `prism mock` does. Each (operation, status, example, media type)
 * is rendered once and kept as bytes, with the document's example host replaced by the mock's address;
 * `Prefer: dynamic=true` asks Prism for a generated body each time.
 */
import { transformOas3Operations } from '@stoplight/http-spec/oas3/operation';
import { createInstance } from '@stoplight/prism-http';

/** What the mock reads of Prism's view of an operation (an IHttpOperation of @stoplight/types). */
export interface PrismOperation {
  method: string;
  path: string;
  deprecated?: boolean;
  responses: { code: string; contents?: { mediaType: string; examples?: { key?: string }[] }[] }[];
}

/** The parts of the document the mock reads. */
export interface MockDocument {
  info: { title: string; version: string };
  servers?: { variables?: Record<string, { default?: string }> }[];
  paths: Record<string, Record<string, unknown>>;
}

/**
 * Prism's view of one operation, read by Prism's own reader from a copy of the document that holds only that path
 * item, dereferenced: a few milliseconds, done the first time the operation is answered.
 */
export function prismOperation(document: MockDocument, dereference: (value: unknown) => unknown, path: string, method: string): PrismOperation {
  const item = dereference(document.paths[path] ?? {}) as Record<string, unknown>;
  const single = { ...document, paths: { [path]: { parameters: item.parameters, [method]: item[method] } } };
  const [operation] = transformOas3Operations(single as never) as unknown as PrismOperation[];
  if (!operation) throw new Error(`Prism could not read ${method.toUpperCase()} ${path}`);
  return operation;
}

/** Documented status → the example names of its first media type. */
export function documentedExamples(operation: PrismOperation): Map<string, string[]> {
  return new Map(operation.responses.map((response) => [response.code, (response.contents?.[0]?.examples ?? []).flatMap((e) => (e.key ? [e.key] : []))]));
}

export interface Rendered {
  status: number;
  headers: Record<string, string>;
  body?: Buffer;
  /** The name of the example served, for the access log. */
  example?: string;
}

export interface RenderRequest {
  code?: number;
  exampleKey?: string;
  /** The request's Accept header, when it names media types. */
  accept?: string;
}

type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };
type PrismOutput = Either<Error & { status?: number }, { output: { statusCode: number; headers?: Record<string, unknown>; body?: unknown } }>;

const silent: Record<string, unknown> = {};
for (const level of ['trace', 'debug', 'info', 'success', 'warn', 'error', 'fatal', 'log']) silent[level] = () => undefined;
silent.child = () => silent;

const MAX_CACHED = 5000;

export class ResponseRenderer {
  private readonly cache = new Map<string, { rendered: Rendered; byOrigin: Map<string, Rendered> }>();
  private readonly exampleHost: string | undefined;
  private readonly prism = createInstance({ mock: { dynamic: false }, checkSecurity: false, validateRequest: false, validateResponse: false, errors: false, upstreamProxy: undefined, isProxy: false } as never, { logger: silent as never });

  constructor(document: MockDocument) {
    const base = document.servers?.[0]?.variables?.base_url?.default;
    this.exampleHost = base ? base.replace(/\/+$/, '') : undefined;
  }

  /** The response, rendered once per operation, status, example and media type; a promise only the first time. */
  render(operationId: string, operation: PrismOperation, request: RenderRequest, origin: string): Rendered | Error | Promise<Rendered | Error> {
    const key = `${operationId}\u0000${request.code ?? ''}\u0000${request.exampleKey ?? ''}\u0000${request.accept ?? ''}`;
    const entry = this.cache.get(key);
    if (entry) return this.local(entry, origin);
    return this.renderWithPrism(operation, request, false).then((rendered) => {
      if (rendered instanceof Error) return rendered;
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      const fresh = { rendered, byOrigin: new Map<string, Rendered>() };
      this.cache.set(key, fresh);
      return this.local(fresh, origin);
    });
  }

  /** `Prefer: dynamic=true`: Prism generates a body from the schema (its faker data), every time. */
  async renderDynamic(operation: PrismOperation, request: RenderRequest, origin: string): Promise<Rendered | Error> {
    const rendered = await this.renderWithPrism(operation, request, true);
    return rendered instanceof Error ? rendered : this.rewrite(rendered, origin);
  }

  private local(entry: { rendered: Rendered; byOrigin: Map<string, Rendered> }, origin: string): Rendered {
    let local = entry.byOrigin.get(origin);
    if (!local) {
      local = this.rewrite(entry.rendered, origin);
      if (entry.byOrigin.size >= 16) entry.byOrigin.clear();
      entry.byOrigin.set(origin, local);
    }
    return local;
  }

  private async renderWithPrism(operation: PrismOperation, request: RenderRequest, dynamic: boolean): Promise<Rendered | Error> {
    // Prism routes the request among the operations it is given: here only this one, at a path its template matches.
    const input = { method: operation.method, url: { path: operation.path.replace(/\{[^}]+\}/g, '1') }, headers: request.accept ? { accept: request.accept } : {} };
    const config = { mock: { dynamic, code: request.code === undefined ? undefined : String(request.code), exampleKey: request.exampleKey } };
    let result: PrismOutput;
    try {
      result = (await this.prism.request(input as never, [operation as never], config as never)()) as unknown as PrismOutput;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
    if (result._tag === 'Left') return result.left;
    const { statusCode, headers = {}, body } = result.right.output;
    const rendered: Rendered = { status: statusCode, headers: {} };
    for (const [name, value] of Object.entries(headers)) if (value !== undefined && value !== null) rendered.headers[name.toLowerCase()] = String(value);
    if (operation.deprecated) rendered.headers.deprecation = 'true';
    const mediaType = rendered.headers['content-type'];
    if (!dynamic) {
      const contents = operation.responses.find((r) => r.code === String(statusCode))?.contents ?? [];
      const content = contents.find((c) => c.mediaType === mediaType) ?? contents[0];
      rendered.example = request.exampleKey ?? content?.examples?.[0]?.key;
    }
    if (body !== undefined && operation.method !== 'head') rendered.body = Buffer.from(typeof body === 'string' && !/json/i.test(mediaType ?? '') ? body : JSON.stringify(body));
    return rendered;
  }

  /** Example URLs on the document's host (`https://service.example/...`) point at the mock instead. */
  private rewrite(rendered: Rendered, origin: string): Rendered {
    const host = this.exampleHost;
    if (!host) return rendered;
    const replace = (text: string) => text.split(host).join(origin);
    const body = rendered.body && rendered.body.includes(host) ? Buffer.from(replace(rendered.body.toString('utf8'))) : rendered.body;
    return { ...rendered, headers: Object.fromEntries(Object.entries(rendered.headers).map(([n, v]) => [n, replace(v)])), body };
  }
}
