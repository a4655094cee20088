/** Two schemas compared as read in one direction (a request's or a response's), recursing into fields and items. */
import { type Comparison, type Direction, isObject, type Json } from './comparison.ts';
import { compareConstraints, compareEnums, compareTypes } from './schema-rules.ts';
import { schemaView } from './schema-view.ts';

/** Compares two schemas as read in one direction; `at` names the field (`› [].status`). */
export function compareSchema(c: Comparison, direction: Direction, at: string, rawOld: unknown, rawCurrent: unknown) {
  if (rawOld === undefined && rawCurrent === undefined) return;
  const old = c.before.resolve(rawOld);
  const current = c.after.resolve(rawCurrent);
  // Only references can recurse: a pair of references already being compared further up is not compared again.
  const guard = old.ref || current.ref ? `${direction}|${old.ref ?? ''}|${current.ref ?? ''}` : undefined;
  if (guard && c.visiting.has(guard)) return;
  if (guard) c.visiting.add(guard);
  try {
    const before = schemaView(c.before, (old.node as Json) ?? {});
    const after = schemaView(c.after, (current.node as Json) ?? {});
    compareViews(c, direction, at, before, after);
  } finally {
    if (guard) c.visiting.delete(guard);
  }
}

function compareViews(c: Comparison, direction: Direction, at: string, old: Json, current: Json) {
  compareTypes(c, direction, at, old, current);
  compareEnums(c, direction, at, old, current);
  compareConstraints(c, direction, at, old, current);
  compareProperties(c, direction, at, old, current);
  compareExtraFields(c, direction, at, old, current);
  compareAlternatives(c, direction, at, old, current, 'oneOf');
  compareAlternatives(c, direction, at, old, current, 'anyOf');
  if (old.items !== undefined || current.items !== undefined)
    compareSchema(c, direction, `${at} › []`, old.items ?? {}, current.items ?? {});
}

function compareProperties(c: Comparison, direction: Direction, at: string, old: Json, current: Json) {
  const request = direction === 'request';
  const oldProps = (old.properties ?? {}) as Json;
  const newProps = (current.properties ?? {}) as Json;
  const oldRequired = new Set((old.required as string[] | undefined) ?? []);
  const newRequired = new Set((current.required as string[] | undefined) ?? []);
  const field = (name: string) => `${at} › ${name}`;
  for (const name of Object.keys(oldProps)) {
    if (!(name in newProps)) {
      c.add('breaking', `${direction}-field-removed`, field(name));
      continue;
    }
    if (oldRequired.has(name) && !newRequired.has(name))
      c.addEither(!request, ['response-field-no-longer-required', 'request-field-now-optional'], field(name));
    if (!oldRequired.has(name) && newRequired.has(name))
      c.addEither(request, ['request-field-newly-required', 'response-field-now-required'], field(name));
    compareSchema(c, direction, field(name), oldProps[name], newProps[name]);
  }
  for (const name of Object.keys(newProps)) {
    if (name in oldProps) continue;
    const required = newRequired.has(name);
    c.addEither(request && required, ['request-field-added-required', `${direction}-field-added`], field(name));
  }
}

/** `additionalProperties`: closed or opened, and the schema of the extra fields. */
function compareExtraFields(c: Comparison, direction: Direction, at: string, old: Json, current: Json) {
  const closedBefore = old.additionalProperties === false;
  const closedAfter = current.additionalProperties === false;
  if (!closedBefore && closedAfter)
    c.addEither(direction === 'request', ['request-extra-fields-refused', 'response-closed'], at);
  if (closedBefore && !closedAfter) c.add('compatible', `${direction}-opened`, at);
  if (isObject(old.additionalProperties) || isObject(current.additionalProperties)) {
    const extra = (schema: Json) => (isObject(schema.additionalProperties) ? schema.additionalProperties : {});
    compareSchema(c, direction, `${at} › {}`, extra(old), extra(current));
  }
}

function compareAlternatives(
  c: Comparison,
  direction: Direction,
  at: string,
  old: Json,
  current: Json,
  keyword: 'oneOf' | 'anyOf',
) {
  const before = (old[keyword] as unknown[] | undefined) ?? [];
  const after = (current[keyword] as unknown[] | undefined) ?? [];
  if (before.length === 0 && after.length === 0) return;
  if (before.length === after.length) {
    before.forEach((branch, i) => {
      compareSchema(c, direction, `${at} › ${keyword}[${i}]`, branch, after[i]);
    });
    return;
  }
  const change = `${keyword} ${before.length} → ${after.length}`;
  const fewer = after.length < before.length;
  if (direction === 'request')
    c.addEither(fewer, ['request-alternative-removed', 'request-alternative-added'], at, change);
  else c.add('breaking', 'response-alternatives-changed', at, change);
}
