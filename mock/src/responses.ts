/**
 * Prism picks and renders the responses: its negotiator chooses the documented response, media type and example
 * (`Prefer: code=…, example=…`), and its static sampler fills what has no example, as `prism mock` does. Each
 * (operation, status, example, media type) is rendered once and kept as bytes, with the document's example host
 * replaced by the mock's address; `Prefer: dynamic=true` asks Prism's full mocker for a generated body each time.
 */
import { createRequire } from 'node:module';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';

const prismRequire = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http'));

interface PrismHeader {
  name: string;
  schema?: object;
  examples?: { key?: string; value?: unknown }[];
}
interface Negotiated {
  code: string;
  mediaType?: string;
  bodyExample?: { key?: string; value?: unknown };
  schema?: object;
  headers?: PrismHeader[];
}
type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };
interface Negotiator {
  negotiateOptionsForValidRequest(operation: object, options: object): (logger: object) => Either<Error, Negotiated>;
}
/** An IHttpOperation of @stoplight/types: what Prism's negotiator and mocker read. */
export interface PrismOperation {
  method: string;
  path: string;
  deprecated?: boolean;
  [key: string]: unknown;
}

let negotiatorModule: Negotiator | undefined;
const negotiator = (): Negotiator =>
  (negotiatorModule ??= (prismRequire('@stoplight/prism-http/dist/mocker/negotiator/NegotiatorHelpers') as { default: Negotiator }).default);

let sampler: { sample(schema: object, options: object, spec?: object): unknown } | undefined;
const sample = (schema: object, operation: object): unknown => {
  sampler ??= prismRequire('@stoplight/json-schema-sampler') as NonNullable<typeof sampler>;
  return sampler.sample(schema, { ticks: 2500 }, operation);
};

const silent: Record<string, unknown> = {};
for (const level of ['trace', 'debug', 'info', 'success', 'warn', 'error', 'fatal', 'log']) silent[level] = () => undefined;
silent.child = () => silent;

/**
 * Prism's view of one operation of a dereferenced document, read by Prism's own reader (@stoplight/http-spec) from a
 * copy of the document that holds only that path item: about 6 ms, done the first time the operation is answered.
 */
export function prismOperation(dereferenced: OpenApiDocument, path: string, method: string): PrismOperation {
  const { transformOas3Operations } = prismRequire('@stoplight/http-spec/oas3/operation') as { transformOas3Operations(doc: object): PrismOperation[] };
  const item = dereferenced.paths[path] as Record<string, unknown>;
  const single = { ...dereferenced, paths: { [path]: { parameters: item.parameters, [method]: item[method] } } };
  const [operation] = transformOas3Operations(single);
  if (!operation) throw new Error(`Prism could not read ${method.toUpperCase()} ${path}`);
  return operation;
}

export interface Rendered {
  status: number;
  headers: [string, string][];
  body?: Buffer;
  /** The name of the example served, for the access log. */
  example?: string;
}

export interface RenderRequest {
  code?: number;
  exampleKey?: string;
  /** Media types from the Accept header. */
  mediaTypes?: string[];
  head: boolean;
}

const MAX_CACHED = 5000;

export class ResponseRenderer {
  private readonly cache = new Map<string, { rendered: Rendered; byOrigin: Map<string, Rendered> }>();
  private readonly exampleHost: string | undefined;

  constructor(doc: OpenApiDocument) {
    const server = doc.servers?.[0];
    const base = server?.variables?.base_url?.default;
    this.exampleHost = base ? base.replace(/\/+$/, '') : undefined;
  }

  /** The response for a valid request, rendered once per operation, status, example and media type. */
  render(index: number, operation: PrismOperation, request: RenderRequest, origin: string): Rendered | Error {
    const key = `${index}\u0000${request.code ?? ''}\u0000${request.exampleKey ?? ''}\u0000${request.mediaTypes?.join(',') ?? ''}\u0000${request.head}`;
    let entry = this.cache.get(key);
    if (!entry) {
      const rendered = this.renderWithPrism(operation, request);
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

  private renderWithPrism(operation: PrismOperation, request: RenderRequest): Rendered | Error {
    const options = { code: request.code === undefined ? undefined : String(request.code), exampleKey: request.exampleKey, dynamic: false, mediaTypes: request.mediaTypes };
    const method = request.head ? { ...operation, method: 'head' } : operation;
    const result = negotiator().negotiateOptionsForValidRequest(method, options)(silent);
    if (result._tag === 'Left') return result.left;
    const negotiated = result.right;
    const headers: [string, string][] = [];
    for (const header of negotiated.headers ?? []) {
      const value = headerValue(header, operation);
      if (value !== undefined) headers.push([header.name, value]);
    }
    if (negotiated.mediaType) headers.push(['Content-Type', negotiated.mediaType]);
    if (operation.deprecated) headers.push(['Deprecation', 'true']);
    let value = negotiated.bodyExample?.value;
    if (value === undefined && negotiated.schema && !request.head) {
      try {
        value = sample(negotiated.schema, operation);
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      }
    }
    const rendered: Rendered = { status: Number(negotiated.code), headers, example: negotiated.bodyExample?.key };
    if (value !== undefined && !request.head) {
      const text = typeof value === 'string' && !/json/i.test(negotiated.mediaType ?? '') ? value : JSON.stringify(value);
      rendered.body = Buffer.from(text);
    }
    return rendered;
  }

  /** Example URLs on the document's host (`https://service.example/...`) point at the mock instead. */
  private rewrite(rendered: Rendered, origin: string): Rendered {
    const host = this.exampleHost;
    if (!host) return rendered;
    const replace = (text: string) => text.split(host).join(origin);
    const body = rendered.body && rendered.body.includes(host) ? Buffer.from(replace(rendered.body.toString('utf8'))) : rendered.body;
    return { ...rendered, headers: rendered.headers.map(([n, v]) => [n, replace(v)]), body };
  }
}

function headerValue(header: PrismHeader, operation: object): string | undefined {
  const example = header.examples?.[0];
  if (example && 'value' in example) return example.value === undefined || example.value === null ? undefined : String(example.value);
  if (!header.schema) return undefined;
  try {
    const value = sample(header.schema, operation);
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  } catch {
    return undefined;
  }
}

/** `Prefer: dynamic=true`: Prism's full mocker generates a body from the schema (its faker data), every time. */
export async function renderDynamic(operation: PrismOperation, request: RenderRequest & { url: { path: string } }): Promise<Rendered | Error> {
  const mocker = (prismRequire('@stoplight/prism-http/dist/mocker') as { default: (input: object) => (logger: object) => Either<Error, { statusCode: number; headers?: Record<string, string>; body?: unknown }> }).default;
  const result = mocker({
    resource: operation,
    input: { data: { method: request.head ? 'head' : operation.method, url: request.url, headers: {} }, validations: [] },
    config: { dynamic: true, code: request.code === undefined ? undefined : String(request.code), exampleKey: request.exampleKey },
  })(silent);
  if (result._tag === 'Left') return result.left;
  const { statusCode, headers = {}, body } = result.right;
  const rendered: Rendered = { status: statusCode, headers: Object.entries(headers).filter(([, v]) => v !== null && v !== undefined).map(([n, v]) => [n, String(v)]) };
  if (body !== undefined && !request.head) rendered.body = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return rendered;
}
