/**
 * The one reading of an OpenAPI document's structure that the generators, the scripts, the tests, the mock and the
 * proxy share: the HTTP methods a path item may hold, local JSON pointers, `$ref` resolution, and dereferencing, eager
 * (a whole document, each reference its own copy) or lazy (the parts asked for, each target resolved once and shared).
 * Only local references (`#/…`) are followed: the published document is bundled into one file.
 */

/** The operations a path item may hold, in the order OpenAPI lists them. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type Reference = { $ref: string };

export function isReference(value: unknown): value is Reference {
  return typeof value === 'object' && value !== null && typeof (value as Reference).$ref === 'string';
}

const isLocal = (ref: string) => ref.startsWith('#/');

const unescapeSegment = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The value a JSON pointer (`/items/0/name`; `` is the whole value) points at in `value`, or undefined. Only own
 * properties are followed, so `/__proto__` points at nothing. */
export function pointerValue(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  if (!pointer.startsWith('/')) return undefined;
  let node = value;
  for (const segment of pointer.slice(1).split('/')) {
    const key = unescapeSegment(segment);
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** A key written as one segment of a JSON pointer (`a/b` is `a~1b`). */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The node a local reference (`#/components/schemas/Job`, `#` for the whole document) points at in `doc`, or
 * undefined. The reference is a URI fragment: it is percent-decoded (`%7B` is `{`) before it is read as a pointer.
 */
export function pointerTarget(doc: unknown, ref: string): unknown {
  const pointer = ref.startsWith('#') ? percentDecoded(ref.slice(1)) : undefined;
  return pointer === undefined ? undefined : pointerValue(doc, pointer);
}

function percentDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The name of the component a local reference names (`#/components/schemas/Job` is `Job`), or undefined. */
export function componentName(ref: string, section = 'schemas'): string | undefined {
  const prefix = `#/components/${section}`;
  const pointer = ref.startsWith(`${prefix}/`) ? percentDecoded(ref.slice(prefix.length + 1)) : undefined;
  return !pointer || pointer.includes('/') ? undefined : unescapeSegment(pointer);
}

/** What following a chain of references reached. */
export interface Followed {
  /** The first value that is not a reference. */
  target: unknown;
  /** The sibling keywords of the references followed; an outer reference's win. */
  siblings: Record<string, unknown>;
  /** The last reference followed; undefined when the value was no reference. */
  ref?: string;
}

/** Follows local references until a value that is not one; throws on a remote, cyclic or unresolvable reference. */
export function follow(doc: unknown, value: unknown): Followed {
  let current = value;
  let siblings: Record<string, unknown> = {};
  let ref: string | undefined;
  const seen = new Set<string>();
  while (isReference(current)) {
    const { $ref, ...own } = current as Reference & Record<string, unknown>;
    if (!isLocal($ref)) throw new Error(`Only local references can be resolved, got ${$ref}`);
    if (seen.has($ref)) throw new Error(`Reference cycle at ${$ref}`);
    seen.add($ref);
    ref = $ref;
    siblings = { ...own, ...siblings };
    current = pointerTarget(doc, $ref);
    if (current === undefined) throw new Error(`Unresolvable reference ${$ref}`);
  }
  return { target: current, siblings, ref };
}

/** The value a (chain of) local reference(s) names, its siblings left out; a value that is no reference itself. */
export function resolve<T>(doc: unknown, value: T | Reference): T {
  return follow(doc, value).target as T;
}

/**
 * Replaces every local `$ref` in `value` with its target (sibling keywords of a `$ref` are kept and win). A reference
 * inside its own target stays a `$ref`, so cyclic schemas stay finite. With a `cache`, each target is resolved once and
 * shared by every later reference to it; without, each reference gets a copy of its own.
 */
function dereferenceWith(doc: unknown, cache?: Map<string, unknown>): (value: unknown) => unknown {
  const target = (ref: string, trail: ReadonlySet<string>): unknown => {
    const cached = cache?.get(ref);
    if (cached !== undefined) return cached;
    const raw = pointerTarget(doc, ref);
    if (raw === undefined) throw new Error(`Unresolvable reference ${ref}`);
    const resolved = visit(raw, new Set([...trail, ref]));
    cache?.set(ref, resolved);
    return resolved;
  };
  const visit = (value: unknown, trail: ReadonlySet<string>): unknown => {
    if (Array.isArray(value)) return value.map((item) => visit(item, trail));
    if (typeof value !== 'object' || value === null) return value;
    if (isReference(value) && isLocal(value.$ref)) {
      const { $ref, ...siblings } = value as Reference & Record<string, unknown>;
      if (trail.has($ref)) return value;
      const resolved = target($ref, trail);
      return Object.keys(siblings).length === 0
        ? resolved
        : { ...(resolved as object), ...visitEntries(siblings, trail) };
    }
    return visitEntries(value as Record<string, unknown>, trail);
  };
  // Own properties defined, never assigned: a `__proto__` key stays a key.
  const visitEntries = (value: Record<string, unknown>, trail: ReadonlySet<string>) =>
    Object.fromEntries(Object.entries(value).map(([key, item]) => [key, visit(item, trail)]));
  return (value) => visit(value, new Set());
}

/** The whole document with every local `$ref` replaced by a copy of its target (see `dereferenceWith`). */
export function dereference<T>(doc: T): T {
  return dereferenceWith(doc)(doc) as T;
}

/**
 * A function that dereferences any part of `doc` when asked, remembering each target it resolves: only what is asked
 * for is resolved, once, and the results share their resolved targets (treat them as read-only).
 */
export function sharedDereferencer(doc: unknown): (value: unknown) => unknown {
  return dereferenceWith(doc, new Map());
}
