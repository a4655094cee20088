/** An operation's parameters (its path item's and its own), matched by location and name. */
import { type Comparison, type Json, type Side, same } from './comparison.ts';
import { compareSchema } from './schemas.ts';

/** An operation as the comparator holds it: the operation and its path item. */
export interface OperationPair {
  op: Json;
  item: Json;
}

/** The parameters in force, keyed `in name` (header names in lower case); an operation's override its path item's. */
function parameters(side: Side, entry: OperationPair): Map<string, Json> {
  const result = new Map<string, Json>();
  for (const raw of [...((entry.item.parameters as unknown[]) ?? []), ...((entry.op.parameters as unknown[]) ?? [])]) {
    const parameter = side.get<Json>(raw);
    const name = parameter.in === 'header' ? String(parameter.name).toLowerCase() : String(parameter.name);
    result.set(`${parameter.in} ${name}`, parameter);
  }
  return result;
}

export function compareParameters(c: Comparison, at: string, old: OperationPair, current: OperationPair) {
  const before = parameters(c.before, old);
  const after = parameters(c.after, current);
  for (const [key, parameter] of before) {
    const next = after.get(key);
    if (next) compareParameter(c, `${at} › ${key}`, parameter, next);
    else c.add('breaking', 'parameter-removed', `${at} › ${key}`);
  }
  for (const [key, parameter] of after) {
    if (before.has(key)) continue;
    c.addEither(parameter.required === true, ['parameter-added-required', 'parameter-added'], `${at} › ${key}`);
  }
}

function compareParameter(c: Comparison, where: string, parameter: Json, next: Json) {
  if (parameter.required !== true && next.required === true) c.add('breaking', 'parameter-newly-required', where);
  if (parameter.required === true && next.required !== true) c.add('compatible', 'parameter-now-optional', where);
  if (parameter.deprecated !== true && next.deprecated === true) c.add('compatible', 'parameter-deprecated', where);
  for (const key of ['style', 'explode', 'allowReserved'] as const) {
    if (!same(parameter[key], next[key])) c.add('breaking', 'parameter-serialization-changed', where, key);
  }
  compareSchema(c, 'request', where, parameter.schema, next.schema);
}
