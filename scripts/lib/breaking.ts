/**
 * Classifies every difference between two OpenAPI 3.1 documents for the teams that consume them.
 *
 * Breaking: something a consumer's existing code or generated types rely on goes away or changes shape.
 *   - an operation, parameter, request field, response field, response header, success response or media type removed;
 *   - an enum value removed (requests and responses);
 *   - a request accepts less: a type or alternative removed, a new format, a tighter bound or pattern, a field or
 *     parameter newly required, extra fields newly refused;
 *   - a response field no longer required or newly nullable, or its type changed in any other way (another type,
 *     enum values added or the enum dropped): typed clients no longer compile against or exhaustively handle it;
 *   - what the generated packages name from the document: an operationId or tag changed (client method
 *     `api.<tag>.<operation>` and server handler keys), a component schema removed (an exported type alias).
 * Compatible: everything else (additions, relaxed request rules, new optional fields, texts, examples, extensions).
 *
 * Why not a diff tool from the registry: api-smart-diff 1.0.6 (maintained, offline, ~5 s on this document) classifies a
 * response field made nullable and a removed response enum value as non-breaking; @pb33f/openapi-changes downloads a
 * Go binary at install (not reachable here); oasdiff has no npm package; openapi-diff 0.24 (not tried) models documents
 * with openapi3-ts 2, whose model is OpenAPI 3.0.
 */
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { follow, HTTP_METHODS } from '../../packages/server/src/openapi-model.ts';

export type Severity = 'breaking' | 'compatible';
export interface Difference {
  severity: Severity;
  /** A stable rule name, e.g. `response-field-no-longer-required`. */
  rule: string;
  /** Where: `GET /projects/{id}/jobs › 200 application/json › [].status`. */
  location: string;
  detail?: string;
}

type Json = Record<string, unknown>;
type Direction = 'request' | 'response';
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

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

class Side {
  constructor(readonly doc: OpenApiDocument) {}
  /** Follows `$ref`s; returns the target (with the references' sibling keywords) and the last reference followed. */
  resolve(value: unknown): { node: unknown; ref?: string } {
    const { target, siblings, ref } = follow(this.doc, value);
    return { node: Object.keys(siblings).length > 0 && isObject(target) ? { ...target, ...siblings } : target, ref };
  }
  get<T>(value: unknown): T {
    return this.resolve(value).node as T;
  }
}

/** The JSON types a schema admits (`null` included); `undefined` for "any". */
function typeSet(schema: Json): Set<string> | undefined {
  const declared =
    schema.type === undefined
      ? undefined
      : Array.isArray(schema.type)
        ? (schema.type as string[])
        : [schema.type as string];
  if (!declared) return undefined;
  const types = new Set(declared);
  if (schema.nullable === true) types.add('null');
  if (types.has('number')) types.add('integer');
  return types;
}

/** `oneOf`/`anyOf` of a schema and `{type: 'null'}` read as that schema with `null` added to its types. */
function unwrapNullable(side: Side, schema: Json): Json {
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const members = schema[keyword];
    if (!Array.isArray(members) || members.length !== 2) continue;
    const resolved = members.map((member) => side.get<Json>(member) ?? {});
    const nullAt = resolved.findIndex((member) => member.type === 'null');
    if (nullAt < 0) continue;
    const other = flatten(side, resolved[1 - nullAt]!);
    const rest: Json = { ...schema };
    delete rest[keyword];
    const types = typeSet(other) ?? (isObject(other.properties) ? new Set(['object']) : undefined);
    return { ...other, ...rest, ...(types ? { type: [...types, 'null'] } : {}) };
  }
  return schema;
}

/** allOf members folded into one object view: properties and required are unions, the schema's own keywords win. */
function flatten(side: Side, schema: Json): Json {
  if (!Array.isArray(schema.allOf)) return schema;
  const merged: Json = { ...schema };
  delete merged.allOf;
  const properties: Json = {};
  const required = new Set<string>();
  for (const raw of [...(schema.allOf as unknown[]), schema]) {
    const member = raw === schema ? schema : flatten(side, side.get<Json>(raw) ?? {});
    Object.assign(properties, isObject(member.properties) ? member.properties : {});
    for (const name of (member.required as string[] | undefined) ?? []) required.add(name);
    for (const [key, value] of Object.entries(member))
      if (!(key in merged) && key !== 'properties' && key !== 'required') merged[key] = value;
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

export class Comparison {
  readonly differences: Difference[] = [];
  private readonly before: Side;
  private readonly after: Side;
  private readonly visiting = new Set<string>();

  constructor(before: OpenApiDocument, after: OpenApiDocument) {
    this.before = new Side(before);
    this.after = new Side(after);
  }

  private add(severity: Severity, rule: string, location: string, detail?: string) {
    this.differences.push({ severity, rule, location, ...(detail ? { detail } : {}) });
  }

  run(): Difference[] {
    this.compareOperations();
    this.compareComponents();
    for (const key of ['info', 'servers', 'tags', 'security', 'externalDocs']) {
      if (!same(this.before.doc[key], this.after.doc[key])) this.add('compatible', `${key}-changed`, key);
    }
    return this.differences;
  }

  private operations(side: Side): Map<string, { label: string; op: Json; item: Json }> {
    const result = new Map<string, { label: string; op: Json; item: Json }>();
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

  private compareOperations() {
    const before = this.operations(this.before);
    const after = this.operations(this.after);
    for (const [key, old] of before) {
      const current = after.get(key);
      if (!current) {
        this.add('breaking', 'operation-removed', old.label, String(old.op.operationId ?? ''));
        continue;
      }
      const count = this.differences.length;
      this.compareOperation(current.label, old, current);
      if (this.differences.length === count && !same(old.op, current.op))
        this.add('compatible', 'operation-text-changed', current.label);
    }
    for (const [key, current] of after)
      if (!before.has(key))
        this.add('compatible', 'operation-added', current.label, String(current.op.operationId ?? ''));
  }

  private compareOperation(at: string, old: { op: Json; item: Json }, current: { op: Json; item: Json }) {
    if (old.op.operationId !== current.op.operationId) {
      this.add(
        'breaking',
        'operation-id-changed',
        at,
        `${old.op.operationId} → ${current.op.operationId} (client method and handler key renamed)`,
      );
    }
    if (!same(old.op.tags, current.op.tags))
      this.add(
        'breaking',
        'operation-tag-changed',
        at,
        `${String(old.op.tags)} → ${String(current.op.tags)} (client group renamed)`,
      );
    if (old.op.deprecated !== true && current.op.deprecated === true)
      this.add('compatible', 'operation-deprecated', at);
    this.compareSecurity(at, old.op, current.op);
    this.compareParameters(at, old, current);
    this.compareRequestBody(at, old.op.requestBody, current.op.requestBody);
    this.compareResponses(at, old.op.responses, current.op.responses);
  }

  private compareSecurity(at: string, old: Json, current: Json) {
    const alternatives = (side: Side, op: Json) =>
      new Set(((op.security ?? side.doc.security ?? []) as Json[]).map((r) => Object.keys(r).sort().join('+')));
    const before = alternatives(this.before, old);
    const after = alternatives(this.after, current);
    for (const alternative of before)
      if (!after.has(alternative)) this.add('breaking', 'security-alternative-removed', at, alternative || 'anonymous');
    for (const alternative of after)
      if (!before.has(alternative))
        this.add('compatible', 'security-alternative-added', at, alternative || 'anonymous');
  }

  private parameters(side: Side, entry: { op: Json; item: Json }): Map<string, Json> {
    const result = new Map<string, Json>();
    for (const raw of [
      ...((entry.item.parameters as unknown[]) ?? []),
      ...((entry.op.parameters as unknown[]) ?? []),
    ]) {
      const parameter = side.get<Json>(raw);
      const name = parameter.in === 'header' ? String(parameter.name).toLowerCase() : String(parameter.name);
      result.set(`${parameter.in} ${name}`, parameter);
    }
    return result;
  }

  private compareParameters(at: string, old: { op: Json; item: Json }, current: { op: Json; item: Json }) {
    const before = this.parameters(this.before, old);
    const after = this.parameters(this.after, current);
    for (const [key, parameter] of before) {
      const next = after.get(key);
      const where = `${at} › ${key}`;
      if (!next) {
        this.add('breaking', 'parameter-removed', where);
        continue;
      }
      if (parameter.required !== true && next.required === true)
        this.add('breaking', 'parameter-newly-required', where);
      if (parameter.required === true && next.required !== true)
        this.add('compatible', 'parameter-now-optional', where);
      if (parameter.deprecated !== true && next.deprecated === true)
        this.add('compatible', 'parameter-deprecated', where);
      for (const key2 of ['style', 'explode', 'allowReserved'] as const) {
        if (!same(parameter[key2], next[key2])) this.add('breaking', 'parameter-serialization-changed', where, key2);
      }
      this.compareSchema('request', where, parameter.schema, next.schema);
    }
    for (const [key, parameter] of after) {
      if (before.has(key)) continue;
      this.add(
        parameter.required === true ? 'breaking' : 'compatible',
        parameter.required === true ? 'parameter-added-required' : 'parameter-added',
        `${at} › ${key}`,
      );
    }
  }

  private compareRequestBody(at: string, rawOld: unknown, rawCurrent: unknown) {
    const old = this.before.get<Json | undefined>(rawOld);
    const current = this.after.get<Json | undefined>(rawCurrent);
    if (!old && !current) return;
    const where = `${at} › body`;
    if (!old) {
      this.add(
        current!.required === true ? 'breaking' : 'compatible',
        current!.required === true ? 'request-body-added-required' : 'request-body-added',
        where,
      );
      return;
    }
    if (!current) {
      this.add('breaking', 'request-body-removed', where);
      return;
    }
    if (old.required !== true && current.required === true) this.add('breaking', 'request-body-newly-required', where);
    this.compareContent('request', where, old.content as Json | undefined, current.content as Json | undefined);
  }

  private compareContent(direction: Direction, at: string, old: Json = {}, current: Json = {}) {
    for (const [type, media] of Object.entries(old)) {
      const next = current[type];
      if (!next) this.add('breaking', `${direction}-media-type-removed`, `${at} ${type}`);
      else this.compareSchema(direction, `${at} ${type}`, (media as Json).schema, (next as Json).schema);
    }
    for (const type of Object.keys(current))
      if (!(type in old)) this.add('compatible', `${direction}-media-type-added`, `${at} ${type}`);
  }

  private compareResponses(at: string, rawOld: unknown, rawCurrent: unknown) {
    const old = (rawOld ?? {}) as Json;
    const current = (rawCurrent ?? {}) as Json;
    for (const [status, raw] of Object.entries(old)) {
      const where = `${at} › ${status}`;
      const response = this.before.get<Json>(raw);
      if (!(status in current)) {
        // Clients read success bodies; a dropped error status only narrows what they may see.
        this.add(
          /^2/.test(status) ? 'breaking' : 'compatible',
          /^2/.test(status) ? 'success-response-removed' : 'error-response-removed',
          where,
        );
        continue;
      }
      const next = this.after.get<Json>(current[status]);
      const oldHeaders = (response.headers ?? {}) as Json;
      const newHeaders = (next.headers ?? {}) as Json;
      const lower = new Map(Object.entries(newHeaders).map(([name, header]) => [name.toLowerCase(), header]));
      for (const [name, header] of Object.entries(oldHeaders)) {
        const found = lower.get(name.toLowerCase());
        if (!found) this.add('breaking', 'response-header-removed', `${where} › header ${name}`);
        else
          this.compareSchema(
            'response',
            `${where} › header ${name}`,
            this.before.get<Json>(header).schema,
            this.after.get<Json>(found).schema,
          );
      }
      for (const name of Object.keys(newHeaders)) {
        if (!Object.keys(oldHeaders).some((o) => o.toLowerCase() === name.toLowerCase()))
          this.add('compatible', 'response-header-added', `${where} › header ${name}`);
      }
      this.compareContent('response', where, response.content as Json | undefined, next.content as Json | undefined);
    }
    for (const status of Object.keys(current))
      if (!(status in old)) this.add('compatible', 'response-added', `${at} › ${status}`);
  }

  private compareComponents() {
    const before = (this.before.doc.components?.schemas ?? {}) as Json;
    const after = (this.after.doc.components?.schemas ?? {}) as Json;
    for (const name of Object.keys(before)) {
      if (!(name in after))
        this.add(
          'breaking',
          'component-schema-removed',
          `components.schemas.${name}`,
          'the generated type alias disappears',
        );
    }
    for (const name of Object.keys(after))
      if (!(name in before)) this.add('compatible', 'component-schema-added', `components.schemas.${name}`);
    // Examples document; operations reach them by reference, so their changes are counted here.
    const oldExamples = (this.before.doc.components?.examples ?? {}) as Json;
    const newExamples = (this.after.doc.components?.examples ?? {}) as Json;
    for (const name of new Set([...Object.keys(oldExamples), ...Object.keys(newExamples)])) {
      if (!same(oldExamples[name], newExamples[name]))
        this.add('compatible', 'example-changed', `components.examples.${name}`);
    }
  }

  /** Compares two schemas as read in one direction; `at` names the field (`› [].status`). */
  compareSchema(direction: Direction, at: string, rawOld: unknown, rawCurrent: unknown) {
    if (rawOld === undefined && rawCurrent === undefined) return;
    const old = this.before.resolve(rawOld);
    const current = this.after.resolve(rawCurrent);
    // Only references can recurse: a pair of references already being compared further up is not compared again.
    const guard = old.ref || current.ref ? `${direction}|${old.ref ?? ''}|${current.ref ?? ''}` : undefined;
    if (guard && this.visiting.has(guard)) return;
    if (guard) this.visiting.add(guard);
    try {
      const view = (side: Side, node: Json) => flatten(side, unwrapNullable(side, node));
      this.compareResolved(
        direction,
        at,
        view(this.before, (old.node as Json) ?? {}),
        view(this.after, (current.node as Json) ?? {}),
      );
    } finally {
      if (guard) this.visiting.delete(guard);
    }
  }

  private compareResolved(direction: Direction, at: string, old: Json, current: Json) {
    const request = direction === 'request';
    // Types.
    const before = typeSet(old);
    const after = typeSet(current);
    if (before || after) {
      // "any" (no type) removes nothing: string → any widens only.
      const removed = before && after ? [...before].filter((t) => !after.has(t)) : [];
      const added = after ? [...after].filter((t) => !before?.has(t)) : [];
      const narrowed = removed.length > 0 || (!before && after !== undefined);
      const widened = added.length > 0 || (before !== undefined && !after);
      if (narrowed) this.add('breaking', `${direction}-type-narrowed`, at, `${show(before)} → ${show(after)}`);
      if (widened && !request) {
        const onlyNull = added.length === 1 && added[0] === 'null';
        this.add(
          'breaking',
          onlyNull ? 'response-field-newly-nullable' : 'response-type-widened',
          at,
          `${show(before)} → ${show(after)}`,
        );
      }
      if (widened && request) this.add('compatible', 'request-type-widened', at, `${show(before)} → ${show(after)}`);
    }
    // Enums.
    const oldEnum = Array.isArray(old.enum) ? old.enum : undefined;
    const newEnum = Array.isArray(current.enum) ? current.enum : undefined;
    if (oldEnum && newEnum) {
      const removed = oldEnum.filter((v) => !newEnum.some((w) => same(v, w)));
      const added = newEnum.filter((v) => !oldEnum.some((w) => same(v, w)));
      if (removed.length > 0) this.add('breaking', 'enum-value-removed', at, removed.map(String).join(', '));
      if (added.length > 0)
        this.add(
          request ? 'compatible' : 'breaking',
          request ? 'request-enum-value-added' : 'response-enum-value-added',
          at,
          added.map(String).join(', '),
        );
    } else if (oldEnum && !newEnum) {
      this.add(request ? 'compatible' : 'breaking', request ? 'request-enum-dropped' : 'response-enum-dropped', at);
    } else if (!oldEnum && newEnum) {
      this.add(
        request ? 'breaking' : 'compatible',
        request ? 'request-enum-added' : 'response-enum-added',
        at,
        newEnum.map(String).join(', '),
      );
    }
    // Formats, bounds and other constraints bind what a client may send; in responses they do not change generated types.
    if (!same(old.format, current.format)) {
      const tighter = current.format !== undefined;
      this.add(
        request && tighter ? 'breaking' : 'compatible',
        request && tighter ? 'request-format-added' : 'format-changed',
        at,
        `${old.format ?? '-'} → ${current.format ?? '-'}`,
      );
    }
    for (const bound of [...BOUNDS_UPPER, ...BOUNDS_LOWER]) {
      if (same(old[bound], current[bound])) continue;
      const upper = (BOUNDS_UPPER as readonly string[]).includes(bound);
      const a = old[bound] as number | undefined;
      const b = current[bound] as number | undefined;
      const tighter = b !== undefined && (a === undefined || (upper ? b < a : b > a));
      this.add(
        request && tighter ? 'breaking' : 'compatible',
        request && tighter ? 'request-bound-tightened' : 'bound-changed',
        at,
        `${bound} ${a ?? '-'} → ${b ?? '-'}`,
      );
    }
    for (const keyword of CONSTRAINTS) {
      if (same(old[keyword], current[keyword])) continue;
      const tighter = current[keyword] !== undefined;
      this.add(
        request && tighter ? 'breaking' : 'compatible',
        request && tighter ? 'request-rule-added' : 'rule-changed',
        at,
        keyword,
      );
    }
    if (old.deprecated !== true && current.deprecated === true) this.add('compatible', 'field-deprecated', at);
    this.compareObject(direction, at, old, current);
    this.compareAlternatives(direction, at, old, current, 'oneOf');
    this.compareAlternatives(direction, at, old, current, 'anyOf');
    if (old.items !== undefined || current.items !== undefined)
      this.compareSchema(direction, `${at} › []`, old.items ?? {}, current.items ?? {});
  }

  private compareObject(direction: Direction, at: string, old: Json, current: Json) {
    const request = direction === 'request';
    const oldProps = (old.properties ?? {}) as Json;
    const newProps = (current.properties ?? {}) as Json;
    const oldRequired = new Set((old.required as string[] | undefined) ?? []);
    const newRequired = new Set((current.required as string[] | undefined) ?? []);
    const field = (name: string) => `${at} › ${name}`;
    for (const name of Object.keys(oldProps)) {
      if (!(name in newProps)) {
        this.add('breaking', `${direction}-field-removed`, field(name));
        continue;
      }
      if (oldRequired.has(name) && !newRequired.has(name)) {
        this.add(
          request ? 'compatible' : 'breaking',
          request ? 'request-field-now-optional' : 'response-field-no-longer-required',
          field(name),
        );
      }
      if (!oldRequired.has(name) && newRequired.has(name)) {
        this.add(
          request ? 'breaking' : 'compatible',
          request ? 'request-field-newly-required' : 'response-field-now-required',
          field(name),
        );
      }
      this.compareSchema(direction, field(name), oldProps[name], newProps[name]);
    }
    for (const name of Object.keys(newProps)) {
      if (name in oldProps) continue;
      const required = newRequired.has(name);
      this.add(
        request && required ? 'breaking' : 'compatible',
        request && required ? 'request-field-added-required' : `${direction}-field-added`,
        field(name),
      );
    }
    const closedBefore = old.additionalProperties === false;
    const closedAfter = current.additionalProperties === false;
    if (!closedBefore && closedAfter)
      this.add(request ? 'breaking' : 'compatible', request ? 'request-extra-fields-refused' : 'response-closed', at);
    if (closedBefore && !closedAfter) this.add('compatible', `${direction}-opened`, at);
    if (isObject(old.additionalProperties) || isObject(current.additionalProperties)) {
      this.compareSchema(
        direction,
        `${at} › {}`,
        isObject(old.additionalProperties) ? old.additionalProperties : {},
        isObject(current.additionalProperties) ? current.additionalProperties : {},
      );
    }
  }

  private compareAlternatives(direction: Direction, at: string, old: Json, current: Json, keyword: 'oneOf' | 'anyOf') {
    const before = (old[keyword] as unknown[] | undefined) ?? [];
    const after = (current[keyword] as unknown[] | undefined) ?? [];
    if (before.length === 0 && after.length === 0) return;
    if (before.length === after.length) {
      before.forEach((branch, i) => {
        this.compareSchema(direction, `${at} › ${keyword}[${i}]`, branch, after[i]);
      });
      return;
    }
    const request = direction === 'request';
    const fewer = after.length < before.length;
    if (request)
      this.add(
        fewer ? 'breaking' : 'compatible',
        fewer ? 'request-alternative-removed' : 'request-alternative-added',
        at,
        `${keyword} ${before.length} → ${after.length}`,
      );
    else this.add('breaking', 'response-alternatives-changed', at, `${keyword} ${before.length} → ${after.length}`);
  }
}

function show(types: Set<string> | undefined): string {
  return types ? [...types].filter((t) => !(t === 'integer' && types.has('number'))).join('|') : 'any';
}

export function compareDocuments(before: OpenApiDocument, after: OpenApiDocument): Difference[] {
  return new Comparison(before, after).run();
}
