/**
 * Prism picks and renders the responses. @stoplight/http-spec (Prism's reader) reads one operation as Prism sees it;
 * Prism's negotiator chooses the documented response, media type and example (`Prefer: code=…, example=…`), and the
 * static sampler Prism uses fills what has no example, as `prism mock` does. Each (operation, status, example, media
 * type) is rendered once and kept as bytes, with the document's example host replaced by the mock's address.
 * `Prefer: dynamic=true` asks a Prism instance (mocking only) for a generated body each time. How Prism is loaded:
 * ./prism.ts.
 */
import { transformOas3Operations } from '@stoplight/http-spec/oas3/operation';
import { negotiator, prismInstance, sample, silentLogger, type PrismHeader, type PrismOutput } from './prism.ts';

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
export function prismOperation(
  document: MockDocument,
  dereference: (value: unknown) => unknown,
  path: string,
  method: string,
): PrismOperation {
  const item = dereference(document.paths[path] ?? {}) as Record<string, unknown>;
  const single = { ...document, paths: { [path]: { parameters: item.parameters, [method]: item[method] } } };
  const [operation] = transformOas3Operations(single as never) as unknown as PrismOperation[];
  if (!operation) throw new Error(`Prism could not read ${method.toUpperCase()} ${path}`);
  return operation;
}

/** Documented status → the example names of its first media type. */
export function documentedExamples(operation: PrismOperation): Map<string, string[]> {
  return new Map(
    operation.responses.map((response) => [
      response.code,
      (response.contents?.[0]?.examples ?? []).flatMap((e) => (e.key ? [e.key] : [])),
    ]),
  );
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
}

const MAX_CACHED = 5000;

export class ResponseRenderer {
  private readonly cache = new Map<string, { rendered: Rendered; byOrigin: Map<string, Rendered> }>();
  private readonly exampleHost: string | undefined;

  constructor(document: MockDocument) {
    const base = document.servers?.[0]?.variables?.base_url?.default;
    this.exampleHost = base ? base.replace(/\/+$/, '') : undefined;
  }

  /** The response, rendered once per operation, status, example and media type. */
  render(operationId: string, operation: PrismOperation, request: RenderRequest, origin: string): Rendered | Error {
    const key = `${operationId}\u0000${request.code ?? ''}\u0000${request.exampleKey ?? ''}`;
    let entry = this.cache.get(key);
    if (!entry) {
      const rendered = renderStatic(operation, request);
      if (rendered instanceof Error) return rendered;
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      entry = { rendered, byOrigin: new Map() };
      this.cache.set(key, entry);
    }
    let local = entry.byOrigin.get(origin);
    if (!local) {
      local = this.rewrite(entry.rendered, origin);
      if (entry.byOrigin.size >= 16) entry.byOrigin.clear();
      entry.byOrigin.set(origin, local);
    }
    return local;
  }

  /** `Prefer: dynamic=true`: Prism generates a body from the schema (its faker data), every time. */
  async renderDynamic(operation: PrismOperation, request: RenderRequest, origin: string): Promise<Rendered | Error> {
    // Prism routes the request among the operations it is given: here only this one, at a path its template matches.
    const input = { method: operation.method, url: { path: operation.path.replace(/\{[^}]+\}/g, '1') }, headers: {} };
    const config = {
      mock: {
        dynamic: true,
        code: request.code === undefined ? undefined : String(request.code),
        exampleKey: request.exampleKey,
      },
    };
    let result: PrismOutput;
    try {
      result = await (await prismInstance()).request(input, [operation], config)();
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
    if (result._tag === 'Left') return result.left;
    const { statusCode, headers = {}, body } = result.right.output;
    const rendered: Rendered = { status: statusCode, headers: {} };
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined && value !== null) rendered.headers[name.toLowerCase()] = String(value);
    if (body !== undefined && operation.method !== 'head')
      rendered.body = Buffer.from(
        typeof body === 'string' && !/json/i.test(rendered.headers['content-type'] ?? '') ? body : JSON.stringify(body),
      );
    return this.rewrite(rendered, origin);
  }

  /** Example URLs on the document's host (`https://service.example/...`) point at the mock instead. */
  private rewrite(rendered: Rendered, origin: string): Rendered {
    const host = this.exampleHost;
    if (!host) return rendered;
    const replace = (text: string) => text.split(host).join(origin);
    const body = rendered.body?.includes(host) ? Buffer.from(replace(rendered.body.toString('utf8'))) : rendered.body;
    return {
      ...rendered,
      headers: Object.fromEntries(Object.entries(rendered.headers).map(([n, v]) => [n, replace(v)])),
      body,
    };
  }
}

/** The documented response Prism's negotiator chooses, with its example (or a static sample of its schema). */
function renderStatic(operation: PrismOperation, request: RenderRequest): Rendered | Error {
  const options = {
    code: request.code === undefined ? undefined : String(request.code),
    exampleKey: request.exampleKey,
    dynamic: false,
  };
  const result = negotiator().negotiateOptionsForValidRequest(operation, options)(silentLogger);
  if (result._tag === 'Left') return result.left;
  const negotiated = result.right;
  const headers: Record<string, string> = {};
  for (const header of negotiated.headers ?? []) {
    const value = headerValue(header, operation);
    if (value !== undefined) headers[header.name.toLowerCase()] = value;
  }
  // A documented range (`*/*`: any media type) is not a Content-Type; the mock sends arbitrary bytes as such.
  if (negotiated.mediaType)
    headers['content-type'] = negotiated.mediaType.includes('*') ? 'application/octet-stream' : negotiated.mediaType;
  if (operation.deprecated) headers.deprecation = 'true';
  const head = operation.method === 'head';
  let value = negotiated.bodyExample?.value;
  if (value === undefined && negotiated.schema && !head) {
    try {
      value = sample(negotiated.schema, operation);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }
  const rendered: Rendered = { status: Number(negotiated.code), headers, example: negotiated.bodyExample?.key };
  if (value !== undefined && !head)
    rendered.body = Buffer.from(
      typeof value === 'string' && !/json/i.test(negotiated.mediaType ?? '') ? value : JSON.stringify(value),
    );
  return rendered;
}

function headerValue(header: PrismHeader, operation: object): string | undefined {
  const example = header.examples?.[0];
  if (example && 'value' in example)
    return example.value === undefined || example.value === null ? undefined : String(example.value);
  if (!header.schema) return undefined;
  try {
    const value = sample(header.schema, operation);
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  } catch {
    return undefined;
  }
}
