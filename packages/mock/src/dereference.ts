/**
 * Parts of the document as Prism reads them: every local `$ref` replaced by its target (Prism's mocker does not follow
 * references). A target is resolved once and shared by every reference to it, and only the parts asked for are
 * resolved (an operation, the first time it is called), which keeps the start of the mock fast. Nothing here mutates the result. A reference inside its own target
 * stays a `$ref`, so cyclic schemas stay finite.
 */
import { resolveInlineRef } from '@stoplight/json';

/** A function that dereferences any part of `doc`, remembering each target it resolves. */
export function sharedDereferencer(doc: object): (value: unknown) => unknown {
  const resolved = new Map<string, unknown>();
  const lookup = (ref: string): unknown => resolveInlineRef(doc as Record<string, unknown>, ref);

  const visit = (value: unknown, trail: Set<string>): unknown => {
    if (Array.isArray(value)) return value.map((item) => visit(item, trail));
    if (typeof value !== 'object' || value === null) return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      if (trail.has(ref)) return value;
      let target = resolved.get(ref);
      if (target === undefined) {
        const raw = lookup(ref);
        target = visit(raw, new Set([...trail, ref]));
        resolved.set(ref, target);
      }
      const siblings = Object.entries(value).filter(([key]) => key !== '$ref');
      return siblings.length === 0
        ? target
        : { ...(target as object), ...Object.fromEntries(siblings.map(([k, v]) => [k, visit(v, trail)])) };
    }
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) result[key] = visit(item, trail);
    return result;
  };
  return (value) => visit(value, new Set());
}
