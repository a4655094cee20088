import { isReference, pointerTarget } from './document.ts';
import type { OpenApiDocument } from './openapi.ts';

/**
 * Replaces every local `$ref` with a copy of its target (sibling keywords of a `$ref` are kept and win).
 * A reference that would recurse into itself is left as a `$ref`, so cyclic schemas stay finite.
 */
export function dereference(doc: OpenApiDocument): OpenApiDocument {
  const lookup = (ref: string): unknown => pointerTarget(doc, ref);

  const visit = (value: unknown, trail: string[]): unknown => {
    if (Array.isArray(value)) return value.map((item) => visit(item, trail));
    if (typeof value !== 'object' || value === null) return value;
    if (isReference(value) && value.$ref.startsWith('#/')) {
      const { $ref, ...siblings } = value as { $ref: string } & Record<string, unknown>;
      if (trail.includes($ref)) return value;
      const target = lookup($ref);
      if (target === undefined) throw new Error(`Unresolvable reference ${$ref}`);
      const resolved = visit(target, [...trail, $ref]);
      return Object.keys(siblings).length === 0
        ? resolved
        : { ...(resolved as object), ...(visit(siblings, trail) as object) };
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, visit(item, trail)]));
  };
  return visit(doc, []) as OpenApiDocument;
}
