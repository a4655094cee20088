/**
 * The JSON text of response bodies, always exactly `JSON.stringify(body)`.
 */

// Why: a server that keeps immutable records (until the next write) would stringify the same record on every read. A
// deeply frozen plain object cannot change, so from its second response on its text is kept while it lives (a record
// sent once, such as a created one, never pays for the check). `SEEN`: frozen, sent once; `null`: frozen, but not
// cacheable (checked once).
const SEEN = 0;
const texts = new WeakMap<object, string | null | typeof SEEN>();

/** `JSON.stringify(body)`, reusing the kept text of deeply frozen records, also as the items of a fresh array. */
export function responseJson(body: unknown): string {
  const kept = keptJson(body);
  if (kept !== undefined) return kept;
  if (Array.isArray(body) && typeof (body as { toJSON?: unknown }).toJSON !== 'function') return arrayJson(body);
  return JSON.stringify(body);
}

/** An array item by item; a single `JSON.stringify` of the whole array when no item has a kept text. */
function arrayJson(array: readonly unknown[]): string {
  const items = new Array<unknown>(array.length); // each item read once, as JSON.stringify does
  let kept: (string | undefined)[] | undefined;
  for (let index = 0; index < items.length; index += 1) {
    const item = (items[index] = array[index]);
    const text = keptJson(item);
    if (text !== undefined) (kept ??= new Array<string | undefined>(items.length))[index] = text;
  }
  if (!kept) return JSON.stringify(items);
  let json = '[';
  for (let index = 0; index < items.length; index += 1)
    json += `${index === 0 ? '' : ','}${kept[index] ?? itemJson(items[index], index)}`;
  return `${json}]`;
}

/** An item as JSON.stringify writes it inside an array: `toJSON` gets its index, nothing (undefined, a function) is null. */
function itemJson(value: unknown, index: number): string {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return JSON.stringify(value);
  const key = String(index);
  const wrapped = JSON.stringify({ [key]: value }); // `{"<key>":<text>}`, or `{}`
  return wrapped.length > 2 ? wrapped.slice(key.length + 4, -1) : 'null';
}

/** The kept text of a deeply frozen plain object or array (computed the second time it is sent), else undefined. */
function keptJson(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return undefined;
  const text = texts.get(value);
  if (typeof text === 'string') return text;
  if (text === null) return undefined;
  if (text === undefined) {
    texts.set(value, SEEN);
    return undefined;
  }
  const kept = isDeeplyFrozen(value) ? JSON.stringify(value) : null;
  texts.set(value, kept);
  return kept ?? undefined;
}

/** Frozen through and through: plain objects and arrays, data properties only, no `toJSON`, no cycle. */
function isDeeplyFrozen(value: object): boolean {
  try {
    return isFrozenThrough(value, new Set());
  } catch {
    return false; // nested deeper than the stack: left to JSON.stringify
  }
}

function isFrozenThrough(value: object, ancestors: Set<object>): boolean {
  if (!Object.isFrozen(value) || 'toJSON' in value || ancestors.has(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) return false;
  ancestors.add(value);
  // One descriptor at a time: several times faster than Object.getOwnPropertyDescriptors on a record.
  for (const name of Object.getOwnPropertyNames(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, name)!;
    if ('get' in descriptor) return false; // a getter or a setter
    const child: unknown = descriptor.value;
    if (typeof child === 'function' || typeof child === 'bigint') return false; // both may have a toJSON added later
    if (
      typeof child === 'object' &&
      child !== null &&
      typeof texts.get(child) !== 'string' &&
      !isFrozenThrough(child, ancestors)
    )
      return false;
  }
  ancestors.delete(value);
  return true;
}
