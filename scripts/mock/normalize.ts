/**
 * Turns a request as sent into the request the contract describes, the way the Service reads it: write parameters
 * from the query string, a form, multipart or JSON, merged (the body wins); path parameters repeated in the body
 * ignored when equal; unknown fields ignored; scalars coerced. Each tolerance is reported; nothing is silent.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { FORBIDDEN_KEYS, nestFields, type BodyKind, type Parsed } from './body.ts';
import type { OperationModel } from './model.ts';
import { readObject, readValue, type WalkContext } from './schema-walk.ts';
import type { Issue } from './violations.ts';

export interface RawRequest {
  params: Record<string, string>;
  query: Map<string, string[]>;
  headers: IncomingHttpHeaders;
  body?: { kind: BodyKind; parsed: Parsed };
}

export interface NormalizedRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body?: unknown;
}

const KIND_NAMES: Record<BodyKind, string> = { json: 'a JSON body', form: 'a form-encoded body', multipart: 'a multipart body' };

/**
 * Past this many values of the wrong type, the request is refused without running the validator: its error list
 * (all errors) would cost time in proportion to a body of millions of bad values.
 */
export const MAX_MISMATCHES = 1000;

export function normalizeRequest(op: OperationModel, raw: RawRequest, tolerate: (issue: Issue) => void, fail: (issue: Issue) => void): NormalizedRequest & { mismatches: number } {
  let mismatches = 0;
  const mismatch = (part: string) => (field: string) => {
    mismatches += 1;
    if (mismatches > MAX_MISMATCHES) return;
    if (mismatches === MAX_MISMATCHES) fail({ in: part, field, problem: `more than ${MAX_MISMATCHES} values of the wrong type (the last: ${part === 'query' ? 'query parameter' : 'body field'} ${field})` });
  };
  const query: Record<string, unknown> = {};
  const bodyFromQuery: [string, string][] = [];
  const bodySchema = op.body?.schema;
  const queryContext: WalkContext = { part: 'query', fromText: true, tolerate: (field, problem) => tolerate({ in: 'query', field, problem }), mismatch: mismatch('query') };

  for (const [name, values] of raw.query) {
    if (op.credentialQuery.has(name)) continue;
    const value = values.length === 1 ? values[0]! : values;
    const declared = op.query.get(name);
    if (declared) {
      query[name] = value;
      continue;
    }
    const deep = /^([^[\]]+)\[([^[\]]+)\]$/.exec(name);
    if (deep && op.deepObjects.has(deep[1]!)) {
      const hash = (query[deep[1]!] ??= {}) as Record<string, unknown>;
      if (!Object.hasOwn(Object.prototype, deep[2]!) && deep[2] !== '__proto__') hash[deep[2]!] = value;
      continue;
    }
    const alias = name.endsWith('[]') ? name.slice(0, -2) : `${name}[]`;
    if (op.query.has(alias)) {
      query[alias] = value;
      tolerate({ in: 'query', field: name, problem: `query parameter ${name} read as ${alias}` });
      continue;
    }
    const base = /^[^[\]]*/.exec(name)![0];
    if (bodySchema && base && (propertyKnown(bodySchema, base) || op.pathNames.has(base))) {
      for (const item of values) bodyFromQuery.push([name, item]);
      continue;
    }
    tolerate({ in: 'query', field: name, problem: `unknown query parameter ${name} ignored` });
  }

  let body: unknown;
  if (raw.body) {
    const { kind, parsed } = raw.body;
    for (const key of parsed.dropped) tolerate({ in: 'body', field: key, problem: `body field ${key} ignored` });
    if (!op.body) {
      // No body documented: fields that are query parameters are read as such; the others are ignored.
      if (parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) {
        for (const [key, item] of Object.entries(parsed.value as Record<string, unknown>)) {
          if (op.query.has(key) && !(key in query)) {
            query[key] = typeof item === 'string' || Array.isArray(item) ? item : JSON.stringify(item);
            tolerate({ in: 'body', field: key, problem: `body field ${key} read as query parameter ${key}` });
          } else tolerate({ in: 'body', field: key, problem: `unknown body field ${key} ignored` });
        }
      } else tolerate({ in: 'body', field: '', problem: `${KIND_NAMES[kind]} ignored: the operation takes none` });
    } else {
      if (kind !== op.body.kind && !(kind === 'form' && op.body.kind === 'multipart')) {
        tolerate({ in: 'body', field: '', problem: `${KIND_NAMES[kind]} read for an operation documented with ${op.body.mediaType}` });
      }
      body = parsed.value;
    }
  }

  if (op.body && bodyFromQuery.length > 0) {
    const fromQuery = nestFields(bodyFromQuery).value as Record<string, unknown>;
    if (body === undefined) body = {};
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const target = body as Record<string, unknown>;
      for (const [key, item] of Object.entries(fromQuery)) {
        if (Object.hasOwn(target, key)) tolerate({ in: 'query', field: key, problem: `query parameter ${key} ignored: the body's ${key} wins` });
        else {
          target[key] = item;
          tolerate({ in: 'query', field: key, problem: `query parameter ${key} read as body field ${key}` });
        }
      }
    }
  }

  if (op.body && body && typeof body === 'object' && !Array.isArray(body)) {
    const target = body as Record<string, unknown>;
    for (const name of op.pathNames) {
      if (!Object.hasOwn(target, name) || propertyKnown(op.body.schema, name)) continue;
      if (String(target[name]) === raw.params[name]) tolerate({ in: 'body', field: name, problem: `body field ${name} ignored: it repeats the path parameter` });
      else fail({ in: 'body', field: name, problem: `body field ${name} must equal the path parameter ${name} (${JSON.stringify(raw.params[name])})` });
      delete target[name];
    }
    const fromText = raw.body ? raw.body.kind !== 'json' : true;
    const context: WalkContext = { part: 'body', fromText, tolerate: (field, problem) => tolerate({ in: 'body', field, problem }), mismatch: mismatch('body') };
    body = readObject(target, op.body.schema, '', context);
  }

  for (const [name, value] of Object.entries(query)) {
    const declared = op.query.get(name);
    if (declared) query[name] = readValue(value, declared.schema, name, queryContext);
  }

  const headers: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw.headers)) if (value !== undefined && !FORBIDDEN_KEYS.has(name)) headers[name] = value;
  const request: NormalizedRequest & { mismatches: number } = { params: { ...raw.params }, query, headers, mismatches };
  if (body !== undefined) request.body = body;
  return request;
}

function propertyKnown(schema: Record<string, unknown>, key: string): boolean {
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (properties && Object.hasOwn(properties, key)) return true;
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = schema[k];
    if (Array.isArray(list) && list.some((b) => propertyKnown(b as Record<string, unknown>, key))) return true;
  }
  return false;
}
