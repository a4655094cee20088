/**
 * What the Service tolerates, done the same way here: booleans from `true/false/True/False/1/0` and integers from
 * digit strings, a date from a date-time; write parameters from the query string, a form, multipart or JSON, merged (the body wins); a path
 * parameter repeated in the body or the query ignored (the path's value is used); a JSON `null` for a field that takes
 * no null, or an empty object for a documented optional object field, read as the field not sent (the Service validates
 * an optional hash's fields only when it holds one; a required one is present, even empty); unknown fields ignored. Every tolerance is recorded (bounded), so
 * that it can be reported, or refused in strict mode. Handlers only ever see documented fields.
 *
 */
import { assignField, dict, shown } from './input.js';

/**
 * What the server knows of a field, generated from its schema: `b` boolean, `i` integer, `n` number, `d` a calendar
 * date (`YYYY-MM-DD`), `0` anything
 * else (kept as sent), `{ o, x, k }` an object with documented properties `o` (`x`: the shape of any other key when
 * it is a map; `k`: of keys matching a pattern of the document), `{ a }` an array.
 */
export type Shape =
  | 0
  | 'b'
  | 'i'
  | 'n'
  | 'd'
  | { o: Record<string, Shape>; x?: Shape; k?: Record<string, Shape> }
  | { a: Shape };

/** What the Service makes of an array parameter `name[]` sent as plain `name` (`x-unbracketed`). */
export type Unbracketed = 'comma-separated' | 'one-value';

/** The input of an operation: documented query parameters, path parameter names, the body, credential parameters. */
export interface InputShape {
  q: Record<string, Shape>;
  p: string[];
  /** Array parameters `name[]` the Service also reads as plain `name`, by plain name. */
  u?: Record<string, Unbracketed>;
  /** The body's shape; absent when the operation documents no body. */
  b?: Shape;
  /** Query parameters that carry credentials: known, but not for handlers. */
  c?: string[];
  /** Top-level body fields whose schema refuses `null`: a JSON `null` there is read as the field not sent. */
  z?: string[];
  /**
   * Required top-level body fields of an object shape: an empty object there is sent, not read as absent (the Service
   * requires the key, and validates the hash's own required fields).
   */
  r?: string[];
}

/** Where a value came from: strings are the exact form in a query, a form or multipart, not in JSON. */
export type Source = 'query' | 'form' | 'multipart' | 'json';

export interface Tolerated {
  in: 'query' | 'body';
  field: string;
  problem: string;
}

const PART = { query: 'query parameter', body: 'body field' } as const;

/** The tolerances of one request: the first `max` of them, and how many there were. */
export class Tolerances {
  readonly list: Tolerated[] = [];
  count = 0;
  constructor(private readonly max: number) {}

  add(part: 'query' | 'body', field: string, problem: string): void {
    this.count++;
    if (this.list.length < this.max)
      this.list.push({
        in: part,
        field: shown(field),
        problem: `${field === '' ? 'body' : `${PART[part]} ${shown(field)}`} ${problem}`,
      });
  }
}

const BOOLEANS: Record<string, boolean> = { true: true, false: false, True: true, False: false, '1': true, '0': false };
const INTEGER = /^-?\d{1,15}$/;
/** An ISO 8601 date-time, extended (`2026-07-02T00:00:00Z`) or basic (`20260703T120000Z`): its day. */
const DATE_TIME =
  /^(\d{4})-?(\d{2})-?(\d{2})[Tt ]\d{2}(?::?\d{2}(?::?\d{2}(?:[.,]\d{1,9})?)?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?$/;
const NUMBER = /^-?\d{1,20}(\.\d{1,20})?([eE][+-]?\d{1,3})?$/;

const patterns = new Map<string, RegExp>();

/** The shape of a key of an object: a documented property, a documented pattern, or any key of a map. */
function fieldShape(
  shape: { o: Record<string, Shape>; x?: Shape; k?: Record<string, Shape> },
  key: string,
): Shape | undefined {
  if (Object.hasOwn(shape.o, key)) return shape.o[key];
  if (shape.k) {
    for (const pattern of Object.keys(shape.k)) {
      let regex = patterns.get(pattern);
      if (!regex) patterns.set(pattern, (regex = new RegExp(pattern, 'u')));
      if (regex.test(key)) return shape.k[pattern];
    }
  }
  return shape.x;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof Blob) &&
    !(value instanceof Uint8Array)
  );
}

function isEmptyObject(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 0;
}

/** A value coerced to its shape; unknown keys of documented objects are dropped and recorded. */
export function coerce(
  value: unknown,
  shape: Shape,
  source: Source,
  field: string,
  part: 'query' | 'body',
  t: Tolerances,
): unknown {
  if (shape === 0) return value;
  if (shape === 'b') {
    if (typeof value === 'string') {
      const result = BOOLEANS[value];
      if (result === undefined) return value;
      if (source === 'json' || (value !== 'true' && value !== 'false'))
        t.add(part, field, `${JSON.stringify(value)} read as ${result}`);
      return result;
    }
    if (value === 0 || value === 1) {
      t.add(part, field, `${value} read as ${value === 1}`);
      return value === 1;
    }
    return value;
  }
  if (shape === 'd') {
    // The Service reads a date-time where it takes a date (its day).
    const match = typeof value === 'string' ? DATE_TIME.exec(value) : null;
    if (!match) return value;
    const day = `${match[1]}-${match[2]}-${match[3]}`;
    t.add(part, field, `${JSON.stringify(value)} read as the date ${day}`);
    return day;
  }
  if (shape === 'i' || shape === 'n') {
    if (typeof value !== 'string' || !(shape === 'i' ? INTEGER : NUMBER).test(value)) return value;
    if (source === 'json') t.add(part, field, `${JSON.stringify(value)} read as a number`);
    return Number(value);
  }
  if ('a' in shape) {
    if (Array.isArray(value)) {
      if (shape.a === 0) return value;
      const out = new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++) out[i] = coerce(value[i], shape.a, source, field, part, t);
      return out;
    }
    // A form or query sends a one-element list as a single value.
    if (source !== 'json' && value !== undefined && !isObject(value))
      return [coerce(value, shape.a, source, field, part, t)];
    return value;
  }
  if (!isObject(value)) return value;
  const out = dict();
  for (const key of Object.keys(value)) {
    const known = fieldShape(shape, key);
    const path = part === 'query' ? `${field}[${key}]` : `${field}.${key}`;
    if (known === undefined) t.add(part, path, 'is not documented (ignored)');
    else out[key] = coerce(value[key], known, source, path, part, t);
  }
  return out;
}

/**
 * Rack, which reads the Service's query strings, keeps the last value of a name repeated without brackets
 * (`state=opened&state=closed` is `closed`); only `name[]` builds a list. A list parameter keeps every value.
 */
function lastOfRepeated(name: string, value: unknown, shape: Shape, t: Tolerances): unknown {
  if (!Array.isArray(value) || (typeof shape === 'object' && 'a' in shape)) return value;
  t.add('query', name, `is sent ${value.length} times: the last value is read`);
  return value[value.length - 1];
}

/**
 * An array parameter `name[]` sent as plain `name`, read as the Service reads it (`x-unbracketed`): the last value
 * (Rack), split at commas or as one value.
 */
function readUnbracketed(
  name: string,
  value: unknown,
  shape: InputShape,
  sent: Record<string, unknown>,
  query: Record<string, unknown>,
  t: Tolerances,
): void {
  const list = `${name}[]`;
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  if (Object.hasOwn(sent, list) || typeof last !== 'string') {
    t.add('query', name, `is not a documented parameter (ignored: the list is ${list})`);
    return;
  }
  const items = shape.u![name] === 'one-value' ? [last] : commaSeparated(last);
  const repeated = Array.isArray(value) ? ` (sent ${value.length} times: the last value is read)` : '';
  const read = items.length === 0 ? 'an empty list' : items.map((item) => `${list}=${item}`).join('&');
  t.add('query', name, `${JSON.stringify(last)} read as ${read}${repeated}`);
  query[list] = coerce(items, shape.q[list]!, 'query', list, 'query', t);
}

/** `a, b,` → `['a', 'b']`: each value stripped, trailing empty fields dropped (Ruby's `split(',')`). */
function commaSeparated(text: string): string[] {
  const items = text.split(',').map((item) => item.trim());
  while (items.length > 0 && items[items.length - 1] === '') items.pop();
  return items;
}

export interface RequestInput {
  method: string;
  shape: InputShape;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  /** How the body was sent (undefined without a body). */
  source?: Source;
  /** The body's documented media type, for messages. */
  documented?: string;
}

const REPEATS_PATH = 'repeats the path parameter (ignored: the path wins)';

const MEDIA: Record<Source, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
  query: 'the query string',
};

/**
 * The request as its handler sees it: documented query parameters and body fields only, coerced, with write
 * parameters merged from the query and the body (the body wins). A path parameter repeated in the query or the body,
 * in any spelling, is ignored: the path's value is used.
 */
export function normalizeInput(input: RequestInput, t: Tolerances): { query: Record<string, unknown>; body: unknown } {
  const { shape } = input;
  const write = input.method !== 'GET' && input.method !== 'HEAD';
  const bodyShape = shape.b;
  const fields =
    bodyShape !== undefined && bodyShape !== 0 && typeof bodyShape === 'object' && 'o' in bodyShape
      ? bodyShape
      : undefined;
  const acceptsField = (name: string) =>
    bodyShape === 0 || (fields !== undefined && fieldShape(fields, name) !== undefined);

  const query = dict();
  let fromQuery: Record<string, unknown> | undefined;
  for (const name of Object.keys(input.query)) {
    const value = input.query[name];
    if (shape.p.includes(name)) t.add('query', name, REPEATS_PATH);
    else if (Object.hasOwn(shape.q, name))
      query[name] = coerce(lastOfRepeated(name, value, shape.q[name]!, t), shape.q[name]!, 'query', name, 'query', t);
    else if (shape.u && Object.hasOwn(shape.u, name)) readUnbracketed(name, value, shape, input.query, query, t);
    else if (shape.c?.includes(name)) continue;
    else if (write && acceptsField(name.includes('[') ? name.slice(0, name.indexOf('[')) : name)) {
      fromQuery ??= dict();
      for (const item of Array.isArray(value) ? value : [value]) assignField(fromQuery, name, item, 'query');
      t.add('query', name, 'read as a body field');
    } else t.add('query', name, 'is not a documented parameter (ignored)');
  }

  let body: unknown = input.body;
  if (isObject(input.body) && input.source) {
    const source = input.source;
    if (input.documented && MEDIA[source] !== input.documented)
      t.add('body', '', `sent as ${MEDIA[source]}; the operation documents ${input.documented}`);
    const kept = dict();
    for (const name of Object.keys(input.body)) {
      const value = input.body[name];
      const known = fields ? fieldShape(fields, name) : undefined;
      if (shape.p.includes(name)) t.add('body', name, REPEATS_PATH);
      else if (value === null && shape.z?.includes(name)) t.add('body', name, 'null read as not sent');
      else if (
        isEmptyObject(value) &&
        known !== undefined &&
        known !== 0 &&
        typeof known === 'object' &&
        'o' in known &&
        !shape.r?.includes(name)
      )
        t.add('body', name, '{} read as not sent');
      else if (bodyShape === 0) kept[name] = value;
      else if (known !== undefined) kept[name] = coerce(value, known, source, name, 'body', t);
      else if (write && Object.hasOwn(shape.q, name)) {
        query[name] = coerce(value, shape.q[name]!, source, name, 'body', t);
        t.add('body', name, 'read as a query parameter');
      } else t.add('body', name, 'is not a documented field (ignored)');
    }
    body = bodyShape === undefined ? undefined : kept;
  } else if (input.body !== undefined && bodyShape === undefined && input.source) {
    t.add('body', '', 'is not documented for this operation (ignored)');
    body = undefined;
  }
  if (fromQuery) {
    const merged = (
      bodyShape === 0 ? fromQuery : coerce(fromQuery, bodyShape!, 'query', '', 'body', new Tolerances(0))
    ) as Record<string, unknown>;
    if (isObject(body)) for (const name of Object.keys(body)) merged[name] = body[name];
    body = merged;
  }
  return { query, body };
}
