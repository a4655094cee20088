import { isReference, resolve } from '../../packages/server/src/openapi-model.ts';
import type { OperationEntry } from './document.ts';
import { isFileSchema } from './json-schema.ts';
import type { JsonSchema, OpenApiDocument } from './openapi.ts';

// The runtime's own declarations: what the generator emits is what the server package reads.
export type { InputShape, Shape } from '../../packages/server/src/tolerance.ts';
import type { InputShape, Shape, Unbracketed } from '../../packages/server/src/tolerance.ts';

const isUnbracketed = (value: unknown): value is Unbracketed => value === 'comma-separated' || value === 'one-value';

const MAX_DEPTH = 6;

interface Facet {
  type: string;
  schema: JsonSchema;
}

/** The kinds a schema admits, read through `allOf`/`oneOf`/`anyOf`; an alternative that says nothing is `any`. */
function facets(doc: OpenApiDocument, raw: unknown, depth: number): Facet[] {
  if (depth > MAX_DEPTH || typeof raw !== 'object' || raw === null) return [{ type: 'any', schema: {} }];
  let schema: JsonSchema;
  try {
    schema = isReference(raw) ? resolve<JsonSchema>(doc, raw) : (raw as JsonSchema);
  } catch {
    return [{ type: 'any', schema: {} }];
  }
  if (isFileSchema(schema)) return [{ type: 'file', schema }];
  const out: Facet[] = [];
  const types = [schema.type].flat().filter((t): t is string => typeof t === 'string' && t !== 'null');
  if (types.length === 0 && (schema.properties || schema.additionalProperties)) types.push('object');
  if (types.length === 0 && schema.items) types.push('array');
  for (const type of types) out.push({ type, schema });
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    // An alternative that names no kind (`required`, `not`) only constrains the others.
    for (const alternative of Array.isArray(schema[key]) ? (schema[key] as unknown[]) : [])
      out.push(...facets(doc, alternative, depth + 1).filter((f) => f.type !== 'any' || key !== 'allOf'));
  }
  return out.length > 0 || schema.enum || schema.const !== undefined ? out : [{ type: 'any', schema }];
}

/**
 * Whether a union is a list or one value of its items' kind (`assignee_ids`: IDs, or `{type: integer, const: 0}`):
 * read as the list, as Grape reads a form's single value for an `Array[Integer]` (a one-element list); a JSON scalar is
 * kept as sent, since only a form or query wraps a single value.
 */
function isListOrItem(doc: OpenApiDocument, all: Facet[], kinds: Set<string>, depth: number): boolean {
  if (kinds.size !== 2) return false;
  const items = all.find((f) => f.type === 'array')?.schema.items;
  const other = [...kinds].find((kind) => kind !== 'array');
  if (items === undefined || other === undefined || other === 'object' || other === 'array') return false;
  const itemKinds = new Set(facets(doc, items, depth + 1).map((f) => f.type));
  return itemKinds.size === 1 && itemKinds.has(other);
}

/** The shape of a schema; a union of different kinds is `0` (kept as sent). */
export function shapeOf(doc: OpenApiDocument, raw: unknown, depth = 0): Shape {
  const all = facets(doc, raw, depth);
  const kinds = new Set(all.map((f) => f.type));
  if (kinds.size === 1 && kinds.has('boolean')) return 'b';
  if (kinds.size === 1 && kinds.has('integer')) return 'i';
  if ([...kinds].every((k) => k === 'number' || k === 'integer') && kinds.size > 0) return 'n';
  if (kinds.size === 1 && kinds.has('string') && all.every((f) => f.schema.format === 'date')) return 'd';
  if (kinds.has('array') && (kinds.size === 1 || isListOrItem(doc, all, kinds, depth))) {
    const items = all.find((f) => f.schema.items)?.schema.items;
    return { a: items === undefined ? 0 : shapeOf(doc, items, depth + 1) };
  }
  if (kinds.size !== 1 || !kinds.has('object') || depth >= MAX_DEPTH) return 0;
  const properties: Record<string, unknown> = {};
  const patterns: Record<string, unknown> = {};
  let additional: unknown;
  for (const { schema } of all) {
    for (const [name, value] of Object.entries((schema.properties ?? {}) as Record<string, unknown>))
      properties[name] ??= value;
    for (const [pattern, value] of Object.entries((schema.patternProperties ?? {}) as Record<string, unknown>))
      patterns[pattern] ??= value;
    const extra = schema.additionalProperties;
    // A map (`additionalProperties` with a schema) keeps other keys, and so does a body whose fields are not all
    // documented (`x-not-shown`) or that says other fields are accepted (`{}`, or `true`); otherwise unknown keys are dropped.
    if (typeof extra === 'object' && extra !== null && Object.keys(extra).length > 0) additional ??= extra;
    else if (extra === true || typeof extra === 'object' || schema['x-not-shown'] === true) additional ??= {};
  }
  if (Object.keys(properties).length === 0 && Object.keys(patterns).length === 0) return 0;
  const shape: { o: Record<string, Shape>; x?: Shape; k?: Record<string, Shape> } = { o: {} };
  for (const [name, value] of Object.entries(properties)) shape.o[name] = shapeOf(doc, value, depth + 1);
  if (Object.keys(patterns).length > 0)
    shape.k = Object.fromEntries(
      Object.entries(patterns).map(([pattern, value]) => [pattern, shapeOf(doc, value, depth + 1)]),
    );
  if (additional !== undefined) shape.x = shapeOf(doc, additional, depth + 1);
  return shape;
}

/** Whether a schema admits `null` (through references and alternatives); an unreadable or empty schema does. */
function admitsNull(doc: OpenApiDocument, raw: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH || typeof raw !== 'object' || raw === null) return true;
  let schema: JsonSchema;
  try {
    schema = isReference(raw) ? resolve<JsonSchema>(doc, raw) : (raw as JsonSchema);
  } catch {
    return true;
  }
  if (schema.const !== undefined) return schema.const === null;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  const alternatives = [...((schema.oneOf as unknown[]) ?? []), ...((schema.anyOf as unknown[]) ?? [])];
  if (alternatives.length > 0) return alternatives.some((alternative) => admitsNull(doc, alternative, depth + 1));
  if (schema.type === undefined) return !(schema.properties || schema.items || schema.allOf);
  return [schema.type].flat().includes('null');
}

/** The documented fields of a JSON body that refuse `null`: the Service reads a `null` there as the field not sent. */
function nullAsAbsent(doc: OpenApiDocument, raw: unknown): string[] {
  const schema = typeof raw === 'object' && raw !== null ? resolve<JsonSchema>(doc, raw as JsonSchema) : undefined;
  const properties = (schema?.properties ?? {}) as Record<string, unknown>;
  return Object.keys(properties).filter((name) => !admitsNull(doc, properties[name]));
}

/** The required fields of a body that are objects: an empty object there is sent, not read as absent. */
function requiredObjects(doc: OpenApiDocument, raw: unknown, shape: { o: Record<string, Shape> }): string[] {
  const schema = typeof raw === 'object' && raw !== null ? resolve<JsonSchema>(doc, raw as JsonSchema) : undefined;
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  return required.filter((name) => {
    const field = shape.o[name];
    return typeof field === 'object' && 'o' in field;
  });
}

/** The input shape of an operation: its query parameters, path parameter names, body, credential parameters. */
export function inputShape(doc: OpenApiDocument, entry: OperationEntry, credentialQuery: string[]): InputShape {
  const q: Record<string, Shape> = {};
  const p: string[] = [];
  const u: Record<string, Unbracketed> = {};
  for (const parameter of entry.parameters) {
    if (parameter.in === 'query') q[parameter.name] = shapeOf(doc, parameter.schema ?? {});
    if (parameter.in === 'path') p.push(parameter.name);
    const unbracketed = parameter['x-unbracketed'];
    if (unbracketed === undefined) continue;
    if (parameter.in !== 'query' || !parameter.name.endsWith('[]') || !isUnbracketed(unbracketed))
      throw new Error(
        `${entry.operationId}: x-unbracketed belongs on a name[] query parameter, as comma-separated or one-value (${parameter.name})`,
      );
    u[parameter.name.slice(0, -2)] = unbracketed;
  }
  const out: InputShape = { q, p };
  if (Object.keys(u).length > 0) out.u = u;
  const body = entry.operation.requestBody
    ? resolve<{ content?: Record<string, { schema?: unknown }> }>(doc, entry.operation.requestBody)
    : undefined;
  const media = Object.values(body?.content ?? {})[0];
  if (media) out.b = media.schema ? shapeOf(doc, media.schema) : 0;
  const z = media?.schema ? nullAsAbsent(doc, media.schema) : [];
  if (z.length > 0) out.z = z;
  const r = media?.schema && typeof out.b === 'object' && 'o' in out.b ? requiredObjects(doc, media.schema, out.b) : [];
  if (r.length > 0) out.r = r;
  const c = credentialQuery.filter((name) => !(name in q));
  if (c.length > 0) out.c = c;
  return out;
}

/** Multipart file fields of an operation with their documented maximum in bytes (`x-max-file-size` of the file part). */
export function fileLimits(doc: OpenApiDocument, entry: OperationEntry): Record<string, number | null> | undefined {
  const body = entry.operation.requestBody
    ? resolve<{ content?: Record<string, { schema?: unknown }> }>(doc, entry.operation.requestBody)
    : undefined;
  const media = body?.content?.['multipart/form-data'];
  if (!media?.schema) return undefined;
  const schema = resolve<JsonSchema>(doc, media.schema as JsonSchema);
  const out: Record<string, number | null> = {};
  for (const [name, raw] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
    const property = resolve<JsonSchema>(doc, raw as JsonSchema);
    if (isFileSchema(property)) {
      const max = (property as { 'x-max-file-size'?: unknown })['x-max-file-size'];
      out[name] = typeof max === 'number' ? max : null;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
