import { componentName, resolve } from '../../packages/server/src/openapi-model.ts';
import { isJsonMediaType, listOperations, listResponses, requiresAuthentication } from './document.ts';
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
  /** The documented error statuses (4xx and 5xx). */
  errorStatuses: number[];
  /**
   * The success body as a TypeScript type naming the component schemas (`MergeRequest`, `Job[]`), or undefined when
   * it is not only named schemas (the client then uses `Success<K>`).
   */
  successType?: string;
  /** `x-variants`: the success body (or each item) chosen by a query parameter. */
  variants?: VariantsModel;
}

/** `x-variants` read from an operation (openapi/extensions.md). */
export interface VariantsModel {
  parameter: string;
  /** The value of the parameter (as the call passes it) and the record it selects, as a TypeScript type. */
  values: { value: string | number | boolean; type: string }[];
  /** The record when the call does not send one of `values`. */
  otherwise: string;
  /** Whether the success body is a list of such records. */
  list: boolean;
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
    const query = byIn('query').map((p) => ({
      name: p.name,
      style: queryStyle(doc, p),
      required: p.required === true,
    }));
    const headers = byIn('header').map((p) => ({ name: p.name, required: p.required === true }));
    const body = requestBody(doc, entry.operation.requestBody);
    const successes = listResponses(doc, entry).filter((r) => /^2/.test(r.status));
    const response: ResponseKind =
      entry.method === 'head'
        ? 'headers'
        : successes.some((r) => Object.keys(r.response.content ?? {}).some((t) => !isJsonMediaType(t)))
          ? 'binary'
          : 'json';
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
      inputOptional:
        byIn('path').length === 0 &&
        !query.some((q) => q.required) &&
        !headers.some((h) => h.required) &&
        !body?.required,
      errorStatuses: listResponses(doc, entry)
        .filter((r) => /^[45]\d\d$/.test(r.status))
        .map((r) => Number(r.status)),
      successType: response === 'json' ? successType(successes) : undefined,
      variants: variantsOf(doc, entry.operationId, operation['x-variants'], entry.parameters, successes),
    };
  });
}

/** A component name that is a TypeScript identifier as it stands. */
const TYPE_NAME = /^[A-Za-z_$][\w$]*$/;

/** A named-schema reference as its type name, or an array of them as `Name[]`; undefined for anything else. */
function namedType(schema: JsonSchema | undefined): string | undefined {
  if (!schema) return undefined;
  const name = typeof schema.$ref === 'string' ? componentName(schema.$ref) : undefined;
  const ref = name !== undefined && TYPE_NAME.test(name) ? name : undefined;
  if (ref && Object.keys(schema).every((k) => ['$ref', 'description', 'summary'].includes(k))) return ref;
  if (schema.type === 'array' && Object.keys(schema).every((k) => ['type', 'items', 'description'].includes(k))) {
    const item = namedType(schema.items as JsonSchema | undefined);
    return item && /^\w+$/.test(item) ? `${item}[]` : undefined;
  }
  return undefined;
}

function successType(
  successes: { json?: { content: { schema?: JsonSchema } }; response: { content?: Record<string, unknown> } }[],
): string | undefined {
  const types = new Set<string>();
  for (const success of successes) {
    if (!success.json) {
      if (Object.keys(success.response.content ?? {}).length > 0) return undefined;
      types.add('undefined');
      continue;
    }
    const type = namedType(success.json.content.schema);
    if (!type) return undefined;
    types.add(type);
  }
  return types.size > 0 ? [...types].join(' | ') : undefined;
}

interface VariantsSource {
  parameter?: unknown;
  values?: Record<string, unknown>;
  otherwise?: unknown;
}

/** Reads and checks `x-variants`; every problem names the operation, so a wrong extension fails the build. */
function variantsOf(
  doc: OpenApiDocument,
  operationId: string,
  raw: unknown,
  parameters: Parameter[],
  successes: { json?: { content: { schema?: JsonSchema } } }[],
): VariantsModel | undefined {
  if (raw === undefined) return undefined;
  const fail = (why: string): never => {
    throw new Error(`x-variants of ${operationId}: ${why}`);
  };
  const source = raw as VariantsSource;
  if (
    typeof source.parameter !== 'string' ||
    !source.values ||
    typeof source.values !== 'object' ||
    source.otherwise === undefined
  )
    fail('needs parameter, values and otherwise');
  const schemas = doc.components?.schemas ?? {};
  const record = (value: unknown): string => {
    const spec = typeof value === 'string' ? { schema: value } : (value as { schema?: unknown; omit?: unknown });
    if (typeof spec.schema !== 'string' || !(spec.schema in schemas))
      fail(`${JSON.stringify(value)} names no component schema`);
    const omit = spec.omit === undefined ? [] : spec.omit;
    if (!Array.isArray(omit) || omit.some((f) => typeof f !== 'string')) fail('omit is a list of field names');
    const name = spec.schema as string;
    const fields = omit as string[];
    return fields.length
      ? `Omit<${name}, ${fields.map((f) => JSON.stringify(f)).join(' | ')}> & { ${fields.map((f) => `${JSON.stringify(f)}?: never`).join('; ')} }`
      : name;
  };
  const json = successes.filter((s) => s.json);
  if (json.length !== 1) fail('needs exactly one JSON success response');
  const body = json[0]!.json!.content.schema;
  const list = body?.type === 'array';
  const parameter = parameters.find((p) => p.in === 'query' && p.name === source.parameter);
  const type = [parameter?.schema ? resolve<JsonSchema>(doc, parameter.schema).type : 'string'].flat();
  const values = Object.entries(source.values!).map(([text, value]) => {
    const typed =
      type.includes('boolean') && /^(true|false)$/.test(text)
        ? text === 'true'
        : type.includes('integer') && /^-?\d+$/.test(text)
          ? Number(text)
          : text;
    return { value: typed, type: record(value) };
  });
  if (values.length === 0) fail('values is empty');
  return { parameter: source.parameter as string, values, otherwise: record(source.otherwise), list };
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
  const kind: BodyKind = isJsonMediaType(mediaType)
    ? 'json'
    : /^multipart\/form-data/i.test(mediaType)
      ? 'multipart'
      : 'binary';
  return { kind, mediaType, required: body.required === true };
}

function headerType(doc: OpenApiDocument, raw: JsonSchema | undefined): HeaderType {
  const schema = raw ? resolve<JsonSchema>(doc, raw) : undefined;
  const types = [schema?.type].flat();
  if (types.includes('integer') || types.includes('number')) return 'number';
  if (types.includes('boolean')) return 'boolean';
  return 'string';
}
