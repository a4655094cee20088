/** Operations matched by method and path (path parameters may be renamed), and what each one's consumers rely on. */
import { HTTP_METHODS } from '../../../packages/server/src/openapi-model.ts';
import { compareRequestBody } from './bodies.ts';
import { type Comparison, isObject, type Json, type Side, same } from './comparison.ts';
import { compareParameters, type OperationPair } from './parameters.ts';
import { compareResponses } from './responses.ts';

interface OperationEntry extends OperationPair {
  label: string;
}

function operations(side: Side): Map<string, OperationEntry> {
  const result = new Map<string, OperationEntry>();
  for (const [path, rawItem] of Object.entries(side.doc.paths ?? {})) {
    const item = side.get<Json>(rawItem);
    for (const method of HTTP_METHODS) {
      if (!isObject(item[method])) continue;
      // Path parameters may be renamed without changing the URL a client requests.
      result.set(`${method} ${path.replace(/\{[^}]*\}/g, '{}')}`, {
        label: `${method.toUpperCase()} ${path}`,
        op: item[method] as Json,
        item,
      });
    }
  }
  return result;
}

export function compareOperations(c: Comparison) {
  const before = operations(c.before);
  const after = operations(c.after);
  for (const [key, old] of before) {
    const current = after.get(key);
    if (!current) {
      c.add('breaking', 'operation-removed', old.label, String(old.op.operationId ?? ''));
      continue;
    }
    const count = c.differences.length;
    compareOperation(c, current.label, old, current);
    if (c.differences.length === count && !same(old.op, current.op))
      c.add('compatible', 'operation-text-changed', current.label);
  }
  for (const [key, current] of after)
    if (!before.has(key)) c.add('compatible', 'operation-added', current.label, String(current.op.operationId ?? ''));
}

function compareOperation(c: Comparison, at: string, old: OperationPair, current: OperationPair) {
  compareNames(c, at, old.op, current.op);
  if (old.op.deprecated !== true && current.op.deprecated === true) c.add('compatible', 'operation-deprecated', at);
  compareSecurity(c, at, old.op, current.op);
  compareParameters(c, at, old, current);
  compareRequestBody(c, at, old.op.requestBody, current.op.requestBody);
  compareResponses(c, at, old.op.responses, current.op.responses);
}

/** What the generated packages name from an operation: the client method and handler key, the client group. */
function compareNames(c: Comparison, at: string, old: Json, current: Json) {
  if (old.operationId !== current.operationId) {
    const detail = `${old.operationId} → ${current.operationId} (client method and handler key renamed)`;
    c.add('breaking', 'operation-id-changed', at, detail);
  }
  if (!same(old.tags, current.tags))
    c.add(
      'breaking',
      'operation-tag-changed',
      at,
      `${String(old.tags)} → ${String(current.tags)} (client group renamed)`,
    );
}

function compareSecurity(c: Comparison, at: string, old: Json, current: Json) {
  const alternatives = (side: Side, op: Json) =>
    new Set(((op.security ?? side.doc.security ?? []) as Json[]).map((r) => Object.keys(r).sort().join('+')));
  const before = alternatives(c.before, old);
  const after = alternatives(c.after, current);
  for (const alternative of before)
    if (!after.has(alternative)) c.add('breaking', 'security-alternative-removed', at, alternative || 'anonymous');
  for (const alternative of after)
    if (!before.has(alternative)) c.add('compatible', 'security-alternative-added', at, alternative || 'anonymous');
}
