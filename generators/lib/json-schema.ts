import type { JsonSchema } from './openapi.ts';

/** Keywords a validator does not need: OpenAPI-only ones, and annotations that would only bloat generated code. */
const DROPPED = new Set([
  'example',
  'discriminator',
  'xml',
  'externalDocs',
  'description',
  'title',
  'examples',
  '$comment',
]);

/** Annotations a reader of the schema (a person, a model) needs, which a validator does not. */
const ANNOTATIONS = new Set(['description', 'title']);

/**
 * Turns an OpenAPI 3.1 schema into plain JSON Schema 2020-12 for a validator: drops `x-` extensions, OpenAPI-only
 * keywords and annotations (`annotations: true` keeps `description` and `title`, for a schema a model reads), and
 * rewrites `#/components/schemas/X` references with `rewriteRef`.
 */
export function toJsonSchema(
  schema: unknown,
  rewriteRef: (ref: string) => string,
  options: { annotations?: boolean } = {},
): JsonSchema {
  const dropped = (key: string) => DROPPED.has(key) && !(options.annotations && ANNOTATIONS.has(key));
  const visit = (value: unknown, inProperties: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => visit(item, false));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (!inProperties && (key.startsWith('x-') || dropped(key))) continue;
      if (!inProperties && key === '$ref' && typeof item === 'string') out[key] = rewriteRef(item);
      else out[key] = visit(item, !inProperties && PROPERTY_MAPS.has(key));
    }
    return inProperties ? out : typeList(out);
  };
  return visit(schema, false) as JsonSchema;
}

/** Keywords that apply to one type only, so that members of different types can share a schema. */
const KEYWORD_TYPES: Record<string, string[]> = {
  minLength: ['string'],
  maxLength: ['string'],
  pattern: ['string'],
  minimum: ['integer', 'number'],
  maximum: ['integer', 'number'],
  exclusiveMinimum: ['integer', 'number'],
  exclusiveMaximum: ['integer', 'number'],
  multipleOf: ['integer', 'number'],
};
/** The order Ajv converts a value in (its first type that takes it), as the sources wrote the type lists. */
const TYPE_ORDER = ['integer', 'number', 'boolean', 'string'];

/**
 * `anyOf: [{ type: string, minLength: 1 }, { type: integer }]`, the portable way to write a value of several types
 * (`openapi/conventions.md`), back into `{ type: [integer, string], minLength: 1 }` for Ajv: the same values, and
 * the same conversions of URL strings (Ajv converts inside each `anyOf` member but across a type list only when no
 * type matches). Only members of one scalar type each, with keywords of that type alone, are merged.
 */
function typeList(schema: Record<string, unknown>): Record<string, unknown> {
  const { anyOf, ...rest } = schema;
  if (!Array.isArray(anyOf) || anyOf.length < 2 || 'type' in rest) return schema;
  const merged: Record<string, unknown> = {};
  const types: string[] = [];
  for (const member of anyOf as Record<string, unknown>[]) {
    const type = member?.type;
    if (typeof type !== 'string' || !TYPE_ORDER.includes(type) || types.includes(type)) return schema;
    for (const [key, value] of Object.entries(member)) {
      if (key === 'type') continue;
      const fits = key === 'format' ? type === 'integer' : KEYWORD_TYPES[key]?.includes(type);
      if (!fits || key in merged) return schema;
      merged[key] = value;
    }
    types.push(type);
  }
  types.sort((a, b) => TYPE_ORDER.indexOf(a) - TYPE_ORDER.indexOf(b));
  return { ...rest, type: types, ...merged };
}

/** Keywords whose value maps names to schemas: the names are data, not keywords. */
const PROPERTY_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** A file: `format: binary` (OpenAPI 3.0 style) or a string with a non-text `contentMediaType` (3.1 style). */
export function isFileSchema(schema: object): boolean {
  const { format, type, contentMediaType } = schema as { format?: unknown; type?: unknown; contentMediaType?: unknown };
  return (
    format === 'binary' ||
    (type === 'string' &&
      typeof contentMediaType === 'string' &&
      !/^(text\/|application\/json)/i.test(contentMediaType))
  );
}

/** `{ not: {} }` (with annotations at most): the schema no value matches, written portably instead of `false`. */
export function isNeverSchema(schema: object): boolean {
  const { not, ...rest } = schema as { not?: unknown };
  return (
    typeof not === 'object' &&
    not !== null &&
    Object.keys(not).length === 0 &&
    Object.keys(rest).every((key) => key === 'description' || key.startsWith('x-'))
  );
}

/** An object schema that holds only conditional rules (`if`/`then`/`else`): a member of an `allOf` of rules. */
export function isRuleOnlySchema(schema: object): boolean {
  const keys = Object.keys(schema);
  return (
    'if' in schema &&
    // openapi-typescript hands an `allOf` member the record's `required` list too.
    keys.every((key) => ['if', 'then', 'else', 'type', 'description', 'required'].includes(key)) &&
    (schema as { type?: unknown }).type === 'object'
  );
}
