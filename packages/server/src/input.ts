/**
 * Prototype-safe, bounded, linear-time readers of what a stranger sends: query strings, form bodies, multipart forms
 * and cookies. Every object they build has no prototype, names that could reach one (`__proto__`, `constructor`,
 * `prototype`) are refused, and every count and length has a limit.
 */

/** A request the server refuses before any handler runs: its status and the API's message. */
export class InputError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field = '',
    readonly part = 'request',
  ) {
    super(message);
  }
}

/** Names that could reach an object's prototype chain; never used as keys. */
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** A field name for a message: long names are cut, so that an error body stays small. */
export function shown(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}…` : name;
}

/**
 * Objects whose prototype is an empty object without a prototype: no inherited keys (`toString`, `__proto__`) and,
 * unlike `Object.create(null)`, fast property access (the objects stay in V8's fast mode).
 */
const Dictionary = function Dictionary() {} as unknown as new () => Record<string, unknown>;
Dictionary.prototype = Object.create(null) as Record<string, unknown>;

/** A dictionary that inherits nothing. */
export function dict<T = unknown>(): Record<string, T> {
  return new Dictionary() as Record<string, T>;
}

function decode(text: string, plus: boolean, part: string, name: string): string {
  const spaced = plus && text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    throw new InputError(
      400,
      `${part} ${shown(name)} has a malformed percent-escape`,
      name,
      part === 'query parameter' ? 'query' : 'body',
    );
  }
}

export interface PairLimits {
  /** Largest number of `name=value` pairs. */
  maxPairs: number;
  /** What the pairs are, for messages: `query parameter` or `body field`. */
  part: string;
}

/**
 * `a=1&b=2&a=3` as decoded pairs, in order. Linear in the input; refuses more than `maxPairs` pairs and malformed
 * percent-escapes (400).
 */
export function parsePairs(raw: string, limits: PairLimits): [string, string][] {
  const out: [string, string][] = [];
  if (raw === '') return out;
  let start = 0;
  while (start <= raw.length) {
    let end = raw.indexOf('&', start);
    if (end < 0) end = raw.length;
    if (end > start) {
      if (out.length >= limits.maxPairs)
        throw new InputError(
          400,
          `more than ${limits.maxPairs} ${limits.part}s`,
          '',
          limits.part === 'query parameter' ? 'query' : 'body',
        );
      const piece = raw.slice(start, end);
      const at = piece.indexOf('=');
      const rawName = at < 0 ? piece : piece.slice(0, at);
      const name = decode(rawName, true, limits.part, rawName);
      out.push([name, at < 0 ? '' : decode(piece.slice(at + 1), true, limits.part, name)]);
    }
    start = end + 1;
  }
  return out;
}

/** Where a field was sent, for messages. */
export type Part = 'query' | 'body';

const PART_NAMES: Record<Part, string> = { query: 'query parameter', body: 'body field' };

function isHash(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Blob);
}

/** `a=1&a[b]=2`: a name sent both as a value and as a hash, which the Service refuses (400) rather than guess. */
function plainAndBracketed(name: string, part: Part): InputError {
  return new InputError(400, `${PART_NAMES[part]} ${shown(name)} is sent both as a value and with [keys]`, name, part);
}

/**
 * Adds a value under a name: a repeated name becomes an array (appended in place, so repeats stay linear). A value
 * after a hash of the same name is a 400.
 */
export function addValue(target: Record<string, unknown>, name: string, value: unknown, part: Part = 'body'): void {
  if (FORBIDDEN.has(name)) throw new InputError(400, `field name ${shown(name)} is not allowed`, name);
  const previous = target[name];
  if (isHash(previous)) throw plainAndBracketed(name, part);
  if (previous === undefined) target[name] = value;
  else if (Array.isArray(previous)) previous.push(value);
  else target[name] = [previous, value];
}

/** `a[b][c]` → `['a', 'b', 'c']`, `a[]` → `['a', '']`; a name without brackets is one segment. */
export function nameSegments(name: string): string[] {
  const open = name.indexOf('[');
  if (open <= 0 || !name.endsWith(']')) return [name];
  const segments = [name.slice(0, open)];
  for (const part of name.slice(open + 1, -1).split('][')) segments.push(part);
  return segments;
}

/**
 * Sets a bracketed field the way forms write hashes and arrays: `a[b]=1` → `{ a: { b: '1' } }`, `a[]=1&a[]=2` →
 * `{ a: ['1', '2'] }`. Objects are created without prototypes; a forbidden segment is a 400, and so is a name sent
 * both as a value and as a hash (`a=1&a[b]=2`).
 */
export function assignField(target: Record<string, unknown>, name: string, value: unknown, part: Part = 'body'): void {
  const segments = nameSegments(name);
  for (const segment of segments)
    if (FORBIDDEN.has(segment)) throw new InputError(400, `field name ${shown(name)} is not allowed`, name);
  let holder = target;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i]!;
    const next = segments[i + 1]!;
    if (next === '' && i === segments.length - 2) {
      addList(holder, segment, value, part);
      return;
    }
    const existing = holder[segment];
    if (isHash(existing)) holder = existing;
    else if (existing !== undefined) throw plainAndBracketed(segments[0]!, part);
    else {
      const created = dict();
      holder[segment] = created;
      holder = created;
    }
  }
  addValue(holder, segments[segments.length - 1]!, value, part);
}

function addList(holder: Record<string, unknown>, name: string, value: unknown, part: Part): void {
  const previous = holder[name];
  if (isHash(previous)) throw plainAndBracketed(name, part);
  if (Array.isArray(previous)) previous.push(value);
  else holder[name] = previous === undefined ? [value] : [previous, value];
}

/**
 * A query string with names kept as sent (`scope[]`, `range[start]`): parameters of style `deep` become objects
 * (`not[labels]=x` → `{ not: { labels: 'x' } }`), `csv` ones are split at commas, a repeated name is an array.
 */
export function parseQuery(
  raw: string,
  styles: Record<string, 'deep' | 'csv'> = {},
  maxPairs = 1000,
): Record<string, unknown> {
  const out = dict();
  for (const [name, value] of parsePairs(raw, { maxPairs, part: 'query parameter' })) {
    const open = name.indexOf('[');
    const head = open > 0 ? name.slice(0, open) : name;
    if (open > 0 && styles[head] === 'deep')
      assignField(out, name.endsWith('[]') ? name.slice(0, -2) : name, value, 'query');
    else if (styles[name] === 'csv') out[name] = value === '' ? [] : value.split(',');
    // No parameter has such a name: kept as an own data property (the object has no prototype to reach), so that it
    // is ignored and reported like any other unknown parameter, as the Service ignores it.
    else if (FORBIDDEN.has(name))
      Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    else {
      listAndValue(out, name);
      addValue(out, name, value, 'query');
    }
  }
  return out;
}

/**
 * Rack's reading of `a[]` beside a plain `a`: a plain `a` after `a[]` replaces the list (so it is dropped here), and
 * `a[]` after a plain `a` is a 400 (Rack: "expected Array (got String)").
 */
function listAndValue(out: Record<string, unknown>, name: string): void {
  if (name.endsWith('[]') && name.length > 2) {
    const plain = name.slice(0, -2);
    if (Object.hasOwn(out, plain))
      throw new InputError(
        400,
        `query parameter ${shown(plain)} is sent as a value before ${shown(name)}`,
        name,
        'query',
      );
  } else if (!name.includes('[')) delete out[`${name}[]`];
}

/**
 * Whether a parsed JSON value holds more than `max` values (objects, arrays and scalars, counted without recursion):
 * validation costs time per value, so a body of millions of small wrong values is refused before it.
 */
export function exceedsValues(value: unknown, max: number): boolean {
  const stack: unknown[] = [value];
  let count = 0;
  while (stack.length > 0) {
    const next = stack.pop();
    if (++count > max) return true;
    if (next !== null && typeof next === 'object') {
      for (const child of Array.isArray(next) ? next : Object.values(next)) stack.push(child);
    }
  }
  return false;
}

/** An `application/x-www-form-urlencoded` body: bracketed names become hashes and arrays (`assignField`). */
export function parseForm(text: string, maxPairs: number): Record<string, unknown> {
  const out = dict();
  for (const [name, value] of parsePairs(text, { maxPairs, part: 'body field' })) assignField(out, name, value);
  return out;
}

/**
 * The fields of a multipart form as an object: a repeated name becomes an array, and `name[key]` fields become a hash
 * (`override_params[visibility]=private` → `{ override_params: { visibility: 'private' } }`).
 */
export function formFields(form: FormData, maxFields = Infinity): Record<string, unknown> {
  const out = dict();
  let count = 0;
  for (const [name, value] of form) {
    if (++count > maxFields) throw new InputError(400, `more than ${maxFields} body fields`, '', 'body');
    assignField(out, name, value);
  }
  return out;
}

/**
 * Cookies by name. A cookie whose value cannot be decoded is left out, the session cookie too: a broken session cookie
 * is no credential, and does not refuse a request that sends a valid one by another scheme.
 */
export function parseCookies(header: string): Record<string, string> {
  const out = dict<string>();
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    let value = part.slice(at + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length > 1) value = value.slice(1, -1);
    if (value.includes('%')) {
      try {
        value = decodeURIComponent(value);
      } catch {
        continue;
      }
    }
    if (!(name in out)) out[name] = value;
  }
  return out;
}

/** Whether a request carries a body: a non-zero Content-Length, or chunked transfer. */
export function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  if (length !== undefined) return String(length) !== '0';
  return headers['transfer-encoding'] !== undefined;
}

/** `multipart/form-data; boundary=x` → `multipart/form-data` (lower case, parameters dropped). */
export function essence(contentType: string | undefined): string {
  if (!contentType) return '';
  const semi = contentType.indexOf(';');
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

/** A size for a message: `200 KiB`, `16 MiB`, `512 bytes`. */
export function bytes(size: number): string {
  if (size >= 1024 * 1024 && size % (1024 * 1024) === 0) return `${size / (1024 * 1024)} MiB`;
  if (size >= 1024 && size % 1024 === 0) return `${size / 1024} KiB`;
  return `${size} bytes`;
}
