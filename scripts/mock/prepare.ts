/**
 * Parts of the document as the mock reads them: every local `$ref` replaced by its target. Unlike
 * generators/lib/dereference.ts (which copies, for generators that edit their output), a target is resolved once and
 * shared by every reference to it, and only the parts asked for are resolved (an operation, the first time it is
 * called), which keeps the start of the mock fast. Nothing here mutates the result. A reference inside its own target
 * stays a `$ref`, so cyclic schemas stay finite.
 */
import { pointerTarget } from '../../generators/lib/document.ts';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';

export function dereferenceShared(doc: OpenApiDocument): OpenApiDocument {
  return sharedDereferencer(doc)(doc) as OpenApiDocument;
}

/** A function that dereferences any part of `doc`, remembering each target it resolves. */
export function sharedDereferencer(doc: OpenApiDocument): (value: unknown) => unknown {
  const resolved = new Map<string, unknown>();
  const lookup = (ref: string): unknown => pointerTarget(doc, ref);

  const visit = (value: unknown, trail: Set<string>): unknown => {
    if (Array.isArray(value)) return value.map((item) => visit(item, trail));
    if (typeof value !== 'object' || value === null) return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      if (trail.has(ref)) return value;
      let target = resolved.get(ref);
      if (target === undefined) {
        const raw = lookup(ref);
        if (raw === undefined) throw new Error(`Unresolvable reference ${ref}`);
        target = visit(raw, new Set([...trail, ref]));
        resolved.set(ref, target);
      }
      const siblings = Object.entries(value).filter(([key]) => key !== '$ref');
      return siblings.length === 0 ? target : { ...(target as object), ...Object.fromEntries(siblings.map(([k, v]) => [k, visit(v, trail)])) };
    }
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) result[key] = visit(item, trail);
    return result;
  };
  return (value) => visit(value, new Set());
}
