/**
 * Reads the (dereferenced) JSON Schemas of requests the way the Service reads its parameters: scalars coerced from
 * their text forms, unknown fields ignored. Every departure from the contract's exact form is reported to `tolerate`;
 * the walk follows the schema, so its depth is the schema's, whatever the input's.
 */
import type { JsonSchema } from '../../generators/lib/openapi.ts';
import { FORBIDDEN_KEYS } from './body.ts';

const BOOLEANS = new Map<unknown, boolean>([
  ['true', true], ['false', false], ['True', true], ['False', false], ['1', true], ['0', false], [1, true], [0, false],
]);
const INTEGER = /^-?\d{1,15}$/;
const NUMBER = /^-?\d{1,15}(\.\d+)?$/;

type Schema = JsonSchema | undefined;

const branches = (schema: JsonSchema): JsonSchema[] =>
  (['allOf', 'oneOf', 'anyOf'] as const).flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as JsonSchema[]) : [])).concat(
    (['then', 'else'] as const).flatMap((k) => (schema[k] && typeof schema[k] === 'object' ? [schema[k] as JsonSchema] : [])),
  );

/** Every JSON type the schema (or one of its branches) admits; empty when it does not say. */
export function typesOf(schema: Schema, depth = 0): Set<string> {
  const types = new Set<string>();
  if (!schema || depth > 8) return types;
  const type = schema.type;
  for (const t of Array.isArray(type) ? type : type ? [type] : []) types.add(String(t));
  if (schema.const !== undefined) types.add(typeof schema.const === 'number' ? 'number' : typeof schema.const);
  if (Array.isArray(schema.enum)) for (const v of schema.enum) types.add(v === null ? 'null' : typeof v);
  if (schema.properties) types.add('object');
  if (schema.items) types.add('array');
  for (const branch of branches(schema)) for (const t of typesOf(branch, depth + 1)) types.add(t);
  return types;
}

interface KeyInfo {
  /** Property name → its schema, through composition (the first branch that lists it wins). */
  properties: Map<string, JsonSchema>;
  /** The schema of keys not listed, when the object maps any key to one (`additionalProperties: {…}`). */
  additional?: JsonSchema;
  /** Whether the object admits any key without saying what it holds. */
  open: boolean;
}

/** Computed once per schema object: the walk asks it for every key of every request. */
const keyInfos = new WeakMap<JsonSchema, KeyInfo>();

function keyInfo(schema: JsonSchema): KeyInfo {
  let info = keyInfos.get(schema);
  if (info) return info;
  const properties = new Map<string, JsonSchema>();
  let additional: JsonSchema | undefined;
  let listsKeys = false;
  let open = false;
  const collect = (node: JsonSchema, depth: number) => {
    if (depth > 8) return;
    if (node.properties) {
      listsKeys = true;
      for (const [name, property] of Object.entries(node.properties as Record<string, JsonSchema>)) if (!properties.has(name)) properties.set(name, property);
    }
    if (node.additionalProperties && typeof node.additionalProperties === 'object') additional ??= node.additionalProperties as JsonSchema;
    if (node.additionalProperties === true || node.patternProperties !== undefined || typeof node.$ref === 'string') open = depth === 0 || open;
    for (const branch of branches(node)) collect(branch, depth + 1);
  };
  collect(schema, 0);
  info = { properties, additional, open: open || !listsKeys };
  keyInfos.set(schema, info);
  return info;
}

/** The schema of a named property, looked up through composition; `open` when the object admits any key. */
export function propertyOf(schema: Schema, key: string): { schema?: JsonSchema; open: boolean } {
  if (!schema) return { open: true };
  const info = keyInfo(schema);
  const found = info.properties.get(key) ?? info.additional;
  return found ? { schema: found, open: false } : { open: info.open };
}

function itemsOf(schema: Schema, depth = 0): JsonSchema | undefined {
  if (!schema || depth > 8) return undefined;
  if (schema.items && typeof schema.items === 'object') return schema.items as JsonSchema;
  for (const branch of branches(schema)) {
    const items = itemsOf(branch, depth + 1);
    if (items) return items;
  }
  return undefined;
}

export interface WalkContext {
  /** Where the value came from (`query`, `body`): names the part in reports. */
  part: string;
  /** Whether values arrived as text (query, forms, multipart), where `"5"` for an integer is the exact form. */
  fromText: boolean;
  tolerate(field: string, problem: string): void;
  /** Called for a value whose JSON type the schema does not admit (the validator reports it; this only counts). */
  mismatch?(field: string): void;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function admits(types: Set<string>, value: unknown): boolean {
  if (types.size === 0) return true;
  const type = jsonType(value);
  return types.has(type) || (type === 'integer' && types.has('number'));
}

const label = (part: string) => (part === 'query' ? 'query parameter' : 'body field');

/**
 * Returns the value as the Service would read it: booleans from `true/false/True/False/1/0`, numbers from digit
 * strings, a single value where an array is expected (text only), unknown object keys removed.
 */
export function readValue(value: unknown, schema: Schema, field: string, context: WalkContext, depth = 0): unknown {
  if (!schema || depth > 32) return value;
  const types = typesOf(schema);
  if (typeof value === 'string' || typeof value === 'number') {
    if (types.has('string') && typeof value === 'string') return value;
    if (types.has('boolean') && BOOLEANS.has(value) && !types.has('integer') && !types.has('number')) {
      const read = BOOLEANS.get(value)!;
      const exact = context.fromText ? value === 'true' || value === 'false' : typeof value === 'boolean';
      if (!exact) context.tolerate(field, `${label(context.part)} ${field}: ${JSON.stringify(value)} read as ${read}`);
      return read;
    }
    if (typeof value === 'string' && (types.has('integer') ? INTEGER : NUMBER).test(value) && (types.has('integer') || types.has('number'))) {
      if (!context.fromText) context.tolerate(field, `${label(context.part)} ${field}: ${JSON.stringify(value)} read as a number`);
      return Number(value);
    }
    if (context.fromText && types.has('array') && !types.has('string')) return [readValue(value, itemsOf(schema), `${field}[]`, context, depth + 1)];
    if (!admits(types, value)) context.mismatch?.(field);
    return value;
  }
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    return items ? value.map((item) => readValue(item, items, `${field}[]`, context, depth + 1)) : value;
  }
  if (value && typeof value === 'object' && !(value instanceof Blob)) return readObject(value as Record<string, unknown>, schema, field, context, depth);
  if (!(value instanceof Blob) && !admits(types, value)) context.mismatch?.(field);
  return value;
}

/** Reads an object's known keys and drops the others (reported); a `__proto__` key is never copied. */
export function readObject(value: Record<string, unknown>, schema: JsonSchema, field: string, context: WalkContext, depth = 0): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const path = field ? `${field}.${key}` : key;
    if (FORBIDDEN_KEYS.has(key)) {
      context.tolerate(path, `${label(context.part)} ${path} ignored`);
      continue;
    }
    const property = propertyOf(schema, key);
    if (!property.schema && !property.open) {
      context.tolerate(path, `unknown ${label(context.part)} ${path} ignored`);
      continue;
    }
    result[key] = readValue(value[key], property.schema, path, context, depth + 1);
  }
  return result;
}
