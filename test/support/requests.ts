import ajv2020 from 'ajv/dist/2020.js';
import { resolve } from '../../packages/server/src/openapi-model.ts';
import { isJsonMediaType, type OperationEntry } from '../../generators/lib/document.ts';
import { isFileSchema } from '../../generators/lib/json-schema.ts';
import type { Reference } from '../../packages/server/src/openapi-model.ts';
import type { JsonSchema, OpenApiDocument, Parameter } from '../../generators/lib/openapi.ts';

export interface BuiltRequest {
  method: string;
  /** Path and query, relative to the API root (`/projects/42/jobs?scope[]=failed`). */
  url: string;
  headers: Record<string, string>;
  body?: string | FormData;
}

/** Parameters that change who the caller is; example requests leave them out. */
const IDENTITY_PARAMETERS = new Set(['header:Sudo', 'query:sudo']);

function firstExample(
  doc: OpenApiDocument,
  holder: { example?: unknown; examples?: Record<string, { value?: unknown } | Reference> },
): { found: boolean; value?: unknown } {
  if (holder.examples) {
    const first = Object.values(holder.examples)[0];
    if (first) return { found: true, value: resolve<{ value?: unknown }>(doc, first).value };
  }
  if ('example' in holder) return { found: true, value: holder.example };
  return { found: false };
}

function parameterValue(
  doc: OpenApiDocument,
  entry: OperationEntry,
  parameter: Parameter,
): { found: boolean; value?: unknown } {
  const example = firstExample(doc, parameter);
  if (example.found) return example;
  const schema = parameter.schema ? resolve<JsonSchema>(doc, parameter.schema) : undefined;
  if (schema && 'default' in schema) return { found: true, value: schema.default };
  if (parameter.required)
    throw new Error(`${entry.operationId}: required ${parameter.in} parameter "${parameter.name}" has no example`);
  return { found: false };
}

/** Serializes query parameters as the API reads them: `name[]=a&name[]=b`, `range[start]=1`, `hash[key]=v`. */
export function serializeQuery(pairs: [Parameter, unknown][]): string {
  const parts: string[] = [];
  const add = (name: string, value: unknown) =>
    parts.push(
      `${encodeURIComponent(name).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(String(value))}`,
    );
  for (const [parameter, value] of pairs) {
    if (parameter.style === 'deepObject' && value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) add(`${parameter.name}[${key}]`, item);
    } else if (Array.isArray(value)) {
      if (parameter.explode === false) add(parameter.name, value.join(','));
      else for (const item of value) add(parameter.name, item);
    } else add(parameter.name, value);
  }
  return parts.join('&');
}

/** Fills `{name}` templates with URL-encoded values, the way clients send ids and file paths. */
export function fillPath(path: string, values: Record<string, unknown>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`No value for path parameter ${name} of ${path}`);
    return encodeURIComponent(String(values[name]));
  });
}

export interface BuildOptions {
  /** Replace these parameters' values (by name). */
  overrides?: Record<string, unknown>;
  /** Leave out the body even where the operation takes one. */
  withoutBody?: boolean;
  /** Leave out the query parameters' examples (overridden ones are still sent). */
  withoutQuery?: boolean;
}

const ajv = new ajv2020.default({ strict: false });

/** The validator of an operation's rules across its query parameters (`x-query-schema`), if it states some. */
function queryRulesValidator(entry: OperationEntry): ((query: Record<string, unknown>) => boolean) | undefined {
  const schema = (entry.operation as { 'x-query-schema'?: object })['x-query-schema'];
  return schema ? ajv.compile(schema) : undefined;
}

/** A request made of the operation's documented examples, without credentials. */
export function buildRequest(doc: OpenApiDocument, entry: OperationEntry, options: BuildOptions = {}): BuiltRequest {
  const pathValues: Record<string, unknown> = {};
  const query: [Parameter, unknown][] = [];
  const headers: Record<string, string> = {};
  // Examples of parameters that a rule across the query forbids together (`author_id`, `author_username`) are not
  // all sent: each one is added only while the query still keeps the operation's rules.
  const rules = queryRulesValidator(entry);
  const keepsQueryRules = (pairs: [Parameter, unknown][]) =>
    !rules || rules(Object.fromEntries(pairs.map(([p, v]) => [p.name, v])));
  for (const parameter of entry.parameters) {
    if (IDENTITY_PARAMETERS.has(`${parameter.in}:${parameter.name}`)) continue;
    const overridden = options.overrides && parameter.name in options.overrides;
    if (options.withoutQuery && parameter.in === 'query' && !overridden) continue;
    const { found, value } = overridden
      ? { found: true, value: options.overrides![parameter.name] }
      : parameterValue(doc, entry, parameter);
    if (!found) continue;
    if (parameter.in === 'path') pathValues[parameter.name] = value;
    else if (parameter.in === 'query' && (overridden || keepsQueryRules([...query, [parameter, value]])))
      query.push([parameter, value]);
    else if (parameter.in === 'header') headers[parameter.name] = String(value);
  }
  const search = serializeQuery(query);
  const request: BuiltRequest = {
    method: entry.method.toUpperCase(),
    url: fillPath(entry.path, pathValues) + (search ? `?${search}` : ''),
    headers,
  };
  if (!options.withoutBody && entry.operation.requestBody) Object.assign(request, requestBody(doc, entry));
  return request;
}

function requestBody(doc: OpenApiDocument, entry: OperationEntry): Pick<BuiltRequest, 'body' | 'headers'> | undefined {
  const body = resolve<{
    content: Record<
      string,
      { schema?: JsonSchema | Reference; example?: unknown; examples?: Record<string, { value?: unknown } | Reference> }
    >;
  }>(doc, entry.operation.requestBody!);
  const [mediaType, media] = Object.entries(body.content)[0] ?? [];
  if (!mediaType || !media) return undefined;
  const example = firstExample(doc, media);
  if (!example.found) throw new Error(`${entry.operationId}: request body (${mediaType}) has no example`);
  if (isJsonMediaType(mediaType))
    return { body: JSON.stringify(example.value), headers: { 'content-type': mediaType } };
  if (mediaType === 'multipart/form-data') {
    const schema = media.schema ? resolve<JsonSchema>(doc, media.schema) : {};
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema | Reference>;
    const files = new Set(
      Object.keys(properties).filter((name) => isFileSchema(resolve<JsonSchema>(doc, properties[name]!))),
    );
    return { body: formData((example.value ?? {}) as Record<string, unknown>, files), headers: {} };
  }
  return { body: String(example.value), headers: { 'content-type': mediaType } };
}

/**
 * A multipart body: a hash becomes `name[key]` fields (`override_params[visibility]=private`), as the API reads forms;
 * the `files` fields are sent as file parts, their example text as the file's content.
 */
export function formData(fields: Record<string, unknown>, files: ReadonlySet<string> = new Set()): FormData {
  const form = new FormData();
  const add = (name: string, value: unknown): void => {
    if (files.has(name)) form.append(name, new Blob([String(value)]), name);
    else if (Array.isArray(value))
      value.forEach((item) => {
        add(`${name}[]`, item);
      });
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) add(`${name}[${key}]`, item);
    else form.append(name, String(value));
  };
  for (const [name, value] of Object.entries(fields)) add(name, value);
  return form;
}

export interface Credentials {
  headers: Record<string, string>;
  query: string;
}

/**
 * Credentials that satisfy the operation's first security requirement, in the form each scheme names; `token` gives
 * the value per scheme (default: a placeholder any mock accepts).
 */
export function credentialsFor(
  doc: OpenApiDocument,
  entry: OperationEntry,
  token: (schemeId: string) => string = () => 'test-token',
): Credentials {
  const schemes = (doc.components?.securitySchemes ?? {}) as Record<
    string,
    { type: string; in?: string; name?: string; scheme?: string }
  >;
  const requirement = entry.security.find((r) => Object.keys(r).length > 0) ?? {};
  const headers: Record<string, string> = {};
  const query: string[] = [];
  for (const id of Object.keys(requirement)) {
    const scheme = schemes[id];
    if (!scheme) throw new Error(`${entry.operationId}: unknown security scheme ${id}`);
    const value = token(id);
    if (scheme.type === 'http') headers.Authorization = `Bearer ${value}`;
    else if (scheme.in === 'header') headers[scheme.name!] = value;
    else if (scheme.in === 'query') query.push(`${scheme.name}=${encodeURIComponent(value)}`);
    else if (scheme.in === 'cookie') headers.Cookie = `${scheme.name}=${value}`;
  }
  return { headers, query: query.join('&') };
}

/** The operation's JSON request body schema, and whether it is closed to unknown fields. */
export function jsonRequestBody(
  doc: OpenApiDocument,
  entry: OperationEntry,
): { schema: JsonSchema; strict: boolean } | undefined {
  if (!entry.operation.requestBody) return undefined;
  const body = resolve<{ content: Record<string, { schema?: JsonSchema }> }>(doc, entry.operation.requestBody);
  const mediaType = Object.keys(body.content).find(isJsonMediaType);
  const schema =
    mediaType && body.content[mediaType]!.schema
      ? resolve<JsonSchema>(doc, body.content[mediaType]!.schema!)
      : undefined;
  if (!schema) return undefined;
  return { schema, strict: schema.additionalProperties === false || schema.unevaluatedProperties === false };
}

/** A value that breaks the parameter's schema, or undefined when no value can (a free string). */
export function invalidValue(doc: OpenApiDocument, parameter: Parameter): unknown {
  const schema = parameter.schema ? resolve<JsonSchema>(doc, parameter.schema) : undefined;
  if (!schema) return undefined;
  const type = schema.type;
  const items = schema.items ? resolve<JsonSchema>(doc, schema.items as JsonSchema) : undefined;
  if (type === 'array' && items && (items.enum || items.type === 'integer')) return ['not-a-valid-value'];
  if (type === 'array' && typeof schema.minItems === 'number' && schema.minItems > 1) return ['only-one'];
  if (schema.enum || schema.const !== undefined) return 'not-a-valid-value';
  if (type === 'integer' || type === 'number') return 'not-a-number';
  if (type === 'boolean') return 'not-a-boolean';
  if (typeof schema.maxLength === 'number') return 'x'.repeat(schema.maxLength + 1);
  if (typeof schema.pattern === 'string') return '\u0000';
  return undefined;
}
