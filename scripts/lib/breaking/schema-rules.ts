/**
 * The rules on one schema's own keywords, as read in one direction: its types, its enum, its format, bounds and other
 * constraints. Formats, bounds and constraints bind what a client may send; in responses they do not change generated
 * types.
 */
import { type Comparison, type Direction, type Json, same } from './comparison.ts';
import { show, typeSet } from './schema-view.ts';

const BOUNDS_UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
const BOUNDS_LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
const CONSTRAINTS = [
  'if',
  'then',
  'else',
  'not',
  'dependentRequired',
  'dependentSchemas',
  'pattern',
  'multipleOf',
  'uniqueItems',
  'const',
] as const;

export function compareTypes(c: Comparison, direction: Direction, at: string, old: Json, current: Json) {
  const before = typeSet(old);
  const after = typeSet(current);
  if (!before && !after) return;
  // "any" (no type) removes nothing: string → any widens only.
  const removed = before && after ? [...before].filter((t) => !after.has(t)) : [];
  const added = after ? [...after].filter((t) => !before?.has(t)) : [];
  const narrowed = removed.length > 0 || (!before && after !== undefined);
  const widened = added.length > 0 || (before !== undefined && !after);
  const change = `${show(before)} → ${show(after)}`;
  if (narrowed) c.add('breaking', `${direction}-type-narrowed`, at, change);
  if (!widened) return;
  if (direction === 'request') c.add('compatible', 'request-type-widened', at, change);
  else {
    const onlyNull = added.length === 1 && added[0] === 'null';
    c.add('breaking', onlyNull ? 'response-field-newly-nullable' : 'response-type-widened', at, change);
  }
}

export function compareEnums(c: Comparison, direction: Direction, at: string, old: Json, current: Json) {
  const request = direction === 'request';
  const oldEnum = Array.isArray(old.enum) ? old.enum : undefined;
  const newEnum = Array.isArray(current.enum) ? current.enum : undefined;
  if (oldEnum && newEnum) {
    const removed = oldEnum.filter((v) => !newEnum.some((w) => same(v, w)));
    const added = newEnum.filter((v) => !oldEnum.some((w) => same(v, w)));
    if (removed.length > 0) c.add('breaking', 'enum-value-removed', at, removed.map(String).join(', '));
    if (added.length > 0)
      c.addEither(
        !request,
        ['response-enum-value-added', 'request-enum-value-added'],
        at,
        added.map(String).join(', '),
      );
  } else if (oldEnum && !newEnum) {
    c.addEither(!request, ['response-enum-dropped', 'request-enum-dropped'], at);
  } else if (!oldEnum && newEnum) {
    c.addEither(request, ['request-enum-added', 'response-enum-added'], at, newEnum.map(String).join(', '));
  }
}

export function compareConstraints(c: Comparison, direction: Direction, at: string, old: Json, current: Json) {
  const request = direction === 'request';
  if (!same(old.format, current.format)) {
    const tighter = current.format !== undefined;
    const change = `${old.format ?? '-'} → ${current.format ?? '-'}`;
    c.addEither(request && tighter, ['request-format-added', 'format-changed'], at, change);
  }
  for (const bound of [...BOUNDS_UPPER, ...BOUNDS_LOWER]) {
    if (same(old[bound], current[bound])) continue;
    const upper = (BOUNDS_UPPER as readonly string[]).includes(bound);
    const a = old[bound] as number | undefined;
    const b = current[bound] as number | undefined;
    const tighter = b !== undefined && (a === undefined || (upper ? b < a : b > a));
    c.addEither(
      request && tighter,
      ['request-bound-tightened', 'bound-changed'],
      at,
      `${bound} ${a ?? '-'} → ${b ?? '-'}`,
    );
  }
  for (const keyword of CONSTRAINTS) {
    if (same(old[keyword], current[keyword])) continue;
    const tighter = current[keyword] !== undefined;
    c.addEither(request && tighter, ['request-rule-added', 'rule-changed'], at, keyword);
  }
  if (old.deprecated !== true && current.deprecated === true) c.add('compatible', 'field-deprecated', at);
}
