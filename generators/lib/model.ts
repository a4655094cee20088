import { isJsonMediaType, listOperations, listResponses, requiresAuthentication, resolve } from './document.ts';
import { methodNames } from './naming.ts';
import type { JsonSchema, OpenApiDocument, Parameter } from './openapi.ts';

/** How a request body is sent. */
export type BodyKind = 'json' | 'multipart' | 'binary';
/** How a success response is read: a JSON (or empty) body, a file, or only headers (HEAD). */
export type ResponseKind = 'json' | 'binary' | 'headers';
/** How a query parameter is written: repeated name (default), `name[key]=v`, or `a,b`. */
export type QueryStyle = 'deep' | 'csv';
export type HeaderType = 'string' | 'number' | 'boolean';

export interface OperationModel {
  operationId: string;
  method: string;
  path: string;
  group: string;
  name: string;
  summary: string;
  deprecated: boolean;
  pathParams: string[];
  query: { name: string; style?: QueryStyle; required: boolean }[];
  headers: { name: string; required: boolean }[];
  body?: { kind: BodyKind; mediaType: string; required: boolean };
  response: ResponseKind;
  /** Documented headers of the success responses, with the type their schema gives. */
  responseHeaders: { name: string; type: HeaderType }[];
  /** `x-pagination`, when the operation is paginated. */
  pagination?: string[];
  /** Each alternative of the operation's security: the scheme ids that must all be present. */
  security: string[][];
  authenticated: boolean;
  /** True when nothing of the input is required, so a call may omit it. */
  inputOptional: boolean;
}

/** Every operation of the document as the package generators need it, checked for name clashes. */
export function operationModels(doc: OpenApiDocument): OperationModel[] {
  const seen = new Map<string, string>();
  return listOperations(doc).map((entry) => {
    const { operation } = entry;
    const { group, method } = methodNames(entry.operationId, operation.tags?.[0]);
    const clash = seen.get(`${group}.${method}`);
    if (clash) throw new Error(`Operations ${clash} and ${entry.operationId} both become ${group}.${method}()`);
    seen.set(`${group}.${method}`, entry.operationId);

    const byIn = (where: Parameter['in']) => entry.parameters.filter((p) => p.in === where);
    const query = byIn('query').map((p) => ({ name: p.name, style: queryStyle(doc, p), required: p.required === true }));
    const headers = byIn('header').map((p) => ({ name: p.name, required: p.required === true }));
    const body = requestBody(doc, entry.operation.requestBody);
    const successes = listResponses(doc, entry).filter((r) => /^2/.test(r.status));
    const response: ResponseKind =
      entry.method === 'head' ? 'headers' : successes.some((r) => Object.keys(r.response.content ?? {}).some((t) => !isJsonMediaType(t))) ? 'binary' : 'json';
    const responseHeaders = new Map<string, HeaderType>();
    for (const { response: r } of successes) {
      for (const [name, raw] of Object.entries(r.headers ?? {})) {
        const header = resolve<{ schema?: JsonSchema }>(doc, raw as { schema?: JsonSchema });
        responseHeaders.set(name, headerType(doc, header.schema));
      }
    }
    const pagination = operation['x-pagination'];
    return {
      operationId: entry.operationId,
      method: entry.method.toUpperCase(),
      path: entry.path,
      group,
      name: method,
      summary: operation.summary ?? entry.operationId,
      deprecated: operation.deprecated === true,
      pathParams: byIn('path').map((p) => p.name),
      query,
      headers,
      body,
      response,
      responseHeaders: [...responseHeaders].map(([name, type]) => ({ name, type })),
      pagination: Array.isArray(pagination) ? (pagination as string[]) : undefined,
      security: entry.security.map((requirement) => Object.keys(requirement)),
      authenticated: requiresAuthentication(entry),
      inputOptional: byIn('path').length === 0 && !query.some((q) => q.required) && !headers.some((h) => h.required) && !body?.required,
    };
  });
}

function queryStyle(doc: OpenApiDocument, parameter: Parameter): QueryStyle | undefined {
  if (parameter.style === 'deepObject') return 'deep';
  const schema = parameter.schema ? resolve<JsonSchema>(doc, parameter.schema) : undefined;
  if (schema?.type === 'array' && parameter.explode === false) return 'csv';
  return undefined;
}

function requestBody(doc: OpenApiDocument, raw: unknown): OperationModel['body'] {
  if (!raw) return undefined;
  const body = resolve<{ required?: boolean; content?: Record<string, unknown> }>(doc, raw as { required?: boolean });
  const mediaType = Object.keys(body.content ?? {})[0];
  if (!mediaType) return undefined;
  const kind: BodyKind = isJsonMediaType(mediaType) ? 'json' : /^multipart\/form-data/i.test(mediaType) ? 'multipart' : 'binary';
  return { kind, mediaType, required: body.required === true };
}

function headerType(doc: OpenApiDocument, raw: JsonSchema | undefined): HeaderType {
  const schema = raw ? resolve<JsonSchema>(doc, raw) : undefined;
  const types = [schema?.type].flat();
  if (types.includes('integer') || types.includes('number')) return 'number';
  if (types.includes('boolean')) return 'boolean';
  return 'string';
}

