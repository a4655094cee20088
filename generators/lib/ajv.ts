import ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { formats } from '../../packages/validators/src/formats.ts';
import { resolve } from '../../packages/server/src/openapi-model.ts';
import { listOperations, listResponses } from './document.ts';
import { isFileSchema, toJsonSchema } from './json-schema.ts';
import { identifier } from './naming.ts';
import type { JsonSchema, OpenApiDocument } from './openapi.ts';

/** Absolute ids, so that references resolve the same from every schema. `.invalid` is never a real host. */
const ID_BASE = 'https://contract.service.invalid/';
const COMPONENTS_ID = `${ID_BASE}components`;
const componentRef = (ref: string) => ref.replace(/^#\/components\/schemas\//, `${COMPONENTS_ID}#/$defs/`);

export interface ValidatorIndex {
  /** Component schema name → export name in the schemas module. */
  schemas: Record<string, string>;
  /**
   * Export name in the schemas module → export name of its fast twin in the fast module (first failure, no messages),
   * for every exact validator that has one (all but those needing `unevaluated*` or `$dynamicRef` tracking).
   */
  fast: Record<string, string>;
  /** operationId → status → export name of the validator of that JSON response body. */
  responses: Record<string, Record<string, string>>;
  /** operationId → export name of the request validator in the requests module. */
  requests: Record<string, string>;
  /** operationId → export name of the validator of its JSON request body (exact, no coercion) in the schemas module. */
  bodies: Record<string, string>;
  /** operationId → the descriptions of its `x-query-schema` rules, in order (rule n is `query.allOf[n + 1]` of its request schema). */
  queryRules: Record<string, string[]>;
}

export interface BuiltValidators {
  index: ValidatorIndex;
  schemasCode: string;
  fastCode: string;
  requestsCode: string;
  declarations(module: 'schemas' | 'fast' | 'requests'): string;
  /** The compiled Ajv instances of the three modules and, for each module, export name → schema id (see ajv-operations.ts). */
  compiled: Record<ValidatorModule, { ajv: Ajv; ids: Record<string, string> }>;
}

export type ValidatorModule = 'schemas' | 'fast' | 'requests';
type Ajv = ReturnType<typeof newAjv>;

/** Every component schema as one JSON Schema document, `$defs` by name, addressed by `componentSchemaId`. */
export function componentsSchema(doc: OpenApiDocument): JsonSchema {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  return {
    $id: COMPONENTS_ID,
    $defs: Object.fromEntries(Object.entries(schemas).map(([n, s]) => [n, toJsonSchema(s, componentRef)])),
  };
}

/** The id under which a component schema of `componentsSchema` is compiled. */
export function componentSchemaId(name: string): string {
  return `${COMPONENTS_ID}#/$defs/${name}`;
}

/** The export name of the component validator a `components#/$defs/X` reference points to. */
function schemaExportOf(index: ValidatorIndex, ref: string): string | undefined {
  const prefix = `${COMPONENTS_ID}#/$defs/`;
  return ref.startsWith(prefix) ? index.schemas[ref.slice(prefix.length)] : undefined;
}

/**
 * The Ajv instances. `full` reports every error (allErrors) with one function per component, which keeps the code
 * small; `fast` stops at the first failure and inlines small referenced schemas, for guards and the success path.
 * Formats come from the package's own `formats.js` (ajv-formats' exact formats, common shapes answered faster).
 */
function newAjv(mode: 'full' | 'fast', coerce: boolean, tracking = true) {
  // ajv and its plugins are CommonJS: under NodeNext their classes and functions sit on `.default`.
  const ajv = new ajv2020.default({
    code: { source: true, esm: true, formats: ajv2020._`require("./formats.js").formats` },
    allErrors: mode === 'full',
    // The fast module inlines a small referenced schema (up to 12 keywords: a format, an enum, a short record) and
    // calls one function for a larger one, so that a record used by many fields (UserBasic in a MergeRequest) is one
    // copy in a bundle, not one per field.
    inlineRefs: mode === 'fast' ? 12 : false,
    // With every error reported, a required list or an enum unrolled is one statement per name or value, each with its
    // own error object: a loop says the same in a fraction of the code (records here require up to 60 fields).
    ...(mode === 'full' ? { loopRequired: 4, loopEnum: 4 } : {}),
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    coerceTypes: coerce ? 'array' : false,
  });
  if (mode === 'fast' || !tracking) {
    // Draft 2020's bookkeeping of evaluated properties costs every call and keeps every function alive in a bundle;
    // schemas that need it (unevaluated*, $dynamicRef) are left out of the fast module and use the full validator,
    // which keeps it only when the document has such a schema.
    const opts = ajv.opts as { unevaluated?: boolean; dynamicRef?: boolean };
    opts.unevaluated = false;
    opts.dynamicRef = false;
  }
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format as never);
  ajv.addFormat('binary', true);
  // A request's file field is a file part (a Blob), never a JSON value or a text field: the Service refuses those.
  ajv.addKeyword({
    keyword: FILE_KEYWORD,
    schemaType: 'boolean',
    error: { message: 'must be a file' },
    code: (cxt) => cxt.fail(ajv2020._`!(${cxt.data} instanceof Blob)`),
  });
  return ajv;
}

const TRACKING_KEYWORDS = new Set(['unevaluatedProperties', 'unevaluatedItems', '$dynamicRef', '$recursiveRef']);

/** Whether any schema of the document uses a keyword that needs Ajv's tracking of evaluated properties. */
function usesTracking(doc: OpenApiDocument): boolean {
  const visit = (value: unknown): boolean =>
    typeof value === 'object' &&
    value !== null &&
    Object.entries(value).some(([key, child]) => TRACKING_KEYWORDS.has(key) || visit(child));
  return visit(doc);
}

/** Whether a schema, or a component it references, needs Ajv's tracking of evaluated properties. */
function tracker(components: Record<string, unknown>) {
  const memo = new Map<string, boolean>();
  const visit = (schema: unknown): boolean => {
    if (Array.isArray(schema)) return schema.some(visit);
    if (typeof schema !== 'object' || schema === null) return false;
    return Object.entries(schema).some(([key, value]) => {
      if (TRACKING_KEYWORDS.has(key)) return true;
      if (key === '$ref' && typeof value === 'string' && value.startsWith(`${COMPONENTS_ID}#/$defs/`))
        return component(value.slice(`${COMPONENTS_ID}#/$defs/`.length));
      return visit(value);
    });
  };
  const component = (name: string): boolean => {
    if (!memo.has(name)) {
      memo.set(name, false); // a cycle adds nothing the other members do not already say
      memo.set(name, visit(components[name]));
    }
    return memo.get(name)!;
  };
  return visit;
}

/** Whether a schema can never accept `null`: it states a type without `null`, or is a reference to such a schema. */
function refusesNull(schema: unknown, components: Record<string, unknown>, seen = new Set<string>()): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const { type, $ref } = schema as { type?: unknown; $ref?: unknown };
  if (typeof type === 'string') return type !== 'null';
  if (Array.isArray(type)) return !type.includes('null');
  const prefix = `${COMPONENTS_ID}#/$defs/`;
  if (typeof $ref === 'string' && $ref.startsWith(prefix) && !seen.has($ref)) {
    seen.add($ref);
    return refusesNull(components[$ref.slice(prefix.length)], components, seen);
  }
  return false;
}

/** Keywords whose values are data, not schemas. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'example', 'examples']);

const isNullType = (schema: unknown) =>
  typeof schema === 'object' &&
  schema !== null &&
  Object.keys(schema).length === 1 &&
  (schema as { type?: unknown }).type === 'null';

/** Keywords that only apply to objects (or only annotate): a schema of these accepts `null` once its type allows it. */
const OBJECT_ONLY = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'dependentSchemas',
  'title',
  'description',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'default',
  'format',
]);

/** The `$defs` name of a component's twin that also accepts `null` (fast validators only; checked to be free). */
const nullableName = (name: string) => `nullable-${name}`;

/** Whether an object schema's keywords all apply only to objects (or annotate), so adding `null` to its type is exact. */
const objectOnly = (schema: Record<string, unknown>) =>
  Object.keys(schema).every((k) => OBJECT_ONLY.has(k) || k.startsWith('x-'));

/**
 * For the fast validators only: `oneOf: [X, {type: null}]` (either order) where X never accepts `null`. Exactly one
 * branch passes, so it means "null, or X"; Ajv's `oneOf` runs both branches and records the failing one's error on
 * every call. When X is an object schema whose keywords only apply to objects, it becomes X with `null` added to its
 * type (one type test, no bookkeeping): written in place for an inline X, and for a component a reference to its
 * nullable twin (`nullableTwins`), so that a record used in many fields is one function, not one copy per field.
 * Otherwise it becomes `if: {type: null}, else: X`.
 */
function nullFirst(components: Record<string, unknown>) {
  const prefix = `${COMPONENTS_ID}#/$defs/`;
  const componentOf = (schema: unknown): string | undefined => {
    const ref = (schema as { $ref?: unknown }).$ref;
    return typeof ref === 'string' && ref.startsWith(prefix) && Object.keys(schema as object).length === 1
      ? ref.slice(prefix.length)
      : undefined;
  };
  const withNull = (schema: unknown): unknown => {
    const name = componentOf(schema);
    const object = (name === undefined ? schema : components[name]) as Record<string, unknown> | undefined;
    if (object?.type !== 'object' || !objectOnly(object)) return undefined;
    return name === undefined
      ? { ...(rewrite(object) as object), type: ['object', 'null'] }
      : { $ref: `${prefix}${nullableName(name)}` };
  };
  const rewrite = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(rewrite);
    if (typeof schema !== 'object' || schema === null) return schema;
    const out: Record<string, unknown> = Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [k, DATA_KEYWORDS.has(k) ? v : rewrite(v)]),
    );
    const oneOf = out.oneOf;
    if (Array.isArray(oneOf) && oneOf.length === 2) {
      const other = isNullType(oneOf[0]) ? oneOf[1] : isNullType(oneOf[1]) ? oneOf[0] : undefined;
      if (other !== undefined && refusesNull(other, components)) {
        const { oneOf: _oneOf, ...rest } = out;
        const nullable = !('type' in rest) && objectOnly(rest) ? withNull(other) : undefined;
        if (nullable) return { ...rest, ...(nullable as object) };
        if (!('if' in out) && !('then' in out) && !('else' in out)) {
          delete out.oneOf;
          out.if = { type: 'null' };
          out.else = other;
        }
      }
    }
    return out;
  };
  return rewrite;
}

/**
 * The components for the fast validators: each rewritten by `nullFirst`, and beside each object component whose
 * keywords only apply to objects its nullable twin, the same schema with `null` added to its type.
 */
function nullableTwins(components: JsonSchema, rewrite: (schema: unknown) => unknown): JsonSchema {
  const defs = components.$defs as Record<string, Record<string, unknown>>;
  const twins = Object.entries(defs).flatMap(([name, schema]) => {
    if (schema.type !== 'object' || !objectOnly(schema)) return [];
    if (nullableName(name) in defs) throw new Error(`A component is named like a nullable twin: ${nullableName(name)}`);
    return [[nullableName(name), { ...(rewrite(schema) as object), type: ['object', 'null'] }]];
  });
  return { ...components, $defs: { ...(rewrite(defs) as object), ...Object.fromEntries(twins) } };
}

/** What `buildValidators` fills: the three Ajv instances, the index and each module's export name → schema id. */
interface Builder {
  doc: OpenApiDocument;
  exact: Ajv;
  fast: Ajv;
  coercing: Ajv;
  quicker: (schema: unknown) => unknown;
  needsTracking: (schema: JsonSchema) => boolean;
  index: ValidatorIndex;
  exports: Record<ValidatorModule, Record<string, string>>;
  /** Request parts by their JSON text → the id they were compiled under. */
  parts: Map<string, string>;
  /** Response schemas by their JSON text → the export that validates them. */
  responses: Map<string, string>;
}

function newBuilder(doc: OpenApiDocument): Builder {
  const components = componentsSchema(doc);
  const tracking = usesTracking(doc);
  const builder: Builder = {
    doc,
    exact: newAjv('full', false, tracking),
    fast: newAjv('fast', false),
    coercing: newAjv('full', true, tracking),
    quicker: nullFirst(components.$defs as Record<string, unknown>),
    needsTracking: tracker(components.$defs as Record<string, unknown>),
    index: { schemas: {}, fast: {}, responses: {}, requests: {}, bodies: {}, queryRules: {} },
    exports: { schemas: {}, fast: {}, requests: {} },
    parts: new Map(),
    responses: new Map(),
  };
  builder.exact.addSchema(components);
  builder.fast.addSchema(nullableTwins(components, builder.quicker));
  builder.coercing.addSchema(anyFiles(components) as JsonSchema);
  return builder;
}

/** Adds an exact validator to the schemas module and, unless it needs tracking, its fast twin (same schema id). */
function addExact(b: Builder, exportName: string, id: string, schema?: JsonSchema): void {
  if (schema) b.exact.addSchema({ $id: id, ...schema });
  b.exports.schemas[exportName] = id;
  if (b.needsTracking(schema ?? { $ref: id })) return;
  if (schema) b.fast.addSchema({ $id: id, ...(b.quicker(schema) as JsonSchema) });
  b.index.fast[exportName] = `fast_${exportName}`;
  b.exports.fast[`fast_${exportName}`] = id;
}

/**
 * Operations share most of their parameter sets (the same path ids, Sudo, pagination): each distinct set is compiled
 * once and referenced, which keeps the request validators small enough to load quickly.
 */
function sharedPart(b: Builder, part: JsonSchema): JsonSchema {
  const key = JSON.stringify(part);
  let id = b.parts.get(key);
  if (!id) {
    id = `${ID_BASE}request-parts/${b.parts.size}`;
    b.parts.set(key, id);
    b.coercing.addSchema({ $id: id, ...part });
  }
  return { $ref: id };
}

/**
 * The validators of an operation's JSON responses. Most operations share their error responses: an identical
 * response schema is compiled once, and a bare reference to a component reuses that component's validator.
 */
function addResponses(b: Builder, entry: ReturnType<typeof listOperations>[number]): void {
  for (const { status, json } of listResponses(b.doc, entry)) {
    if (!json?.content.schema) continue;
    const schema = toJsonSchema(json.content.schema, componentRef);
    const key = JSON.stringify(schema);
    const bareRef =
      Object.keys(schema).length === 1 && typeof schema.$ref === 'string' ? String(schema.$ref) : undefined;
    let exportName = b.responses.get(key) ?? (bareRef ? schemaExportOf(b.index, bareRef) : undefined);
    if (!exportName) {
      exportName = `response_${identifier(entry.operationId)}_${status}`;
      addExact(b, exportName, `${ID_BASE}responses/${entry.operationId}/${status}`, schema);
    }
    b.responses.set(key, exportName);
    (b.index.responses[entry.operationId] ??= {})[status] = exportName;
  }
}

/** The validator of an operation's whole request (coercing) and, for a JSON body, the body's exact validator. */
function addRequest(b: Builder, entry: ReturnType<typeof listOperations>[number]): void {
  const id = `${ID_BASE}requests/${entry.operationId}`;
  const exportName = `request_${identifier(entry.operationId)}`;
  const { schema, jsonBody, queryRules } = requestSchema(b.doc, entry, (part) => sharedPart(b, part));
  b.coercing.addSchema({ $id: id, ...schema });
  if (queryRules.length > 0) b.index.queryRules[entry.operationId] = queryRules;
  if (jsonBody) {
    b.index.bodies[entry.operationId] = `body_${identifier(entry.operationId)}`;
    addExact(b, `body_${identifier(entry.operationId)}`, `${ID_BASE}bodies/${entry.operationId}`, jsonBody);
  }
  b.index.requests[entry.operationId] = exportName;
  b.exports.requests[exportName] = id;
}

/**
 * Two standalone modules: `schemas` (component schemas and JSON responses, exact) and `requests` (one validator per
 * operation over `{ params, query, headers, body }`, coercing strings as they arrive in URLs and headers).
 */
export function buildValidators(doc: OpenApiDocument): BuiltValidators {
  const b = newBuilder(doc);
  for (const name of Object.keys(doc.components?.schemas ?? {})) {
    b.index.schemas[name] = `schema_${identifier(name)}`;
    addExact(b, `schema_${identifier(name)}`, componentSchemaId(name));
  }
  for (const entry of listOperations(doc)) {
    addResponses(b, entry);
    addRequest(b, entry);
  }
  const { schemas, fast, requests } = b.exports;
  return {
    index: b.index,
    schemasCode: esm(standaloneCode.default(b.exact, schemas)),
    fastCode: esm(withoutErrorDetails(standaloneCode.default(b.fast, fast))),
    requestsCode: esm(standaloneCode.default(b.coercing, requests)),
    compiled: {
      schemas: { ajv: b.exact, ids: schemas },
      fast: { ajv: b.fast, ids: fast },
      requests: { ajv: b.coercing, ids: requests },
    },
    declarations: (module) =>
      `import type { ValidateFunction } from './validation.js';\n${Object.keys(b.exports[module])
        .map((name) => `export declare const ${name}: ValidateFunction;`)
        .join('\n')}\n`,
  };
}

/**
 * The JSON Schema of a whole request: `{ params, query, headers (lower case), body }`. Form bodies are validated
 * here with coercion (their fields are strings); a JSON body is returned apart, to be validated exactly.
 */
function requestSchema(
  doc: OpenApiDocument,
  entry: ReturnType<typeof listOperations>[number],
  sharedPart: (part: JsonSchema) => JsonSchema,
): { schema: JsonSchema; jsonBody?: JsonSchema; queryRules: string[] } {
  const part = (where: string, lower = false) => {
    const parameters = entry.parameters.filter((p) => p.in === where);
    const key = (name: string) => (lower ? name.toLowerCase() : name);
    return {
      type: 'object',
      properties: Object.fromEntries(parameters.map((p) => [key(p.name), toJsonSchema(p.schema ?? {}, componentRef)])),
      required: parameters.filter((p) => p.required).map((p) => key(p.name)),
    };
  };
  const rules = queryRulesOf(entry.operation);
  const query = sharedPart(part('query'));
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      params: sharedPart(part('path')),
      query:
        rules.length === 0
          ? query
          : { allOf: [query, ...rules.map((rule) => ({ type: 'object', ...toJsonSchema(rule, componentRef) }))] },
      headers: sharedPart(part('header', true)),
    },
    required: ['params', 'query', 'headers'],
  };
  const queryRules = rules.map((rule, n) =>
    typeof rule.description === 'string' ? rule.description : `rule ${n + 1} across the query parameters`,
  );
  const body = entry.operation.requestBody
    ? resolve<{ required?: boolean; content?: Record<string, { schema?: unknown }> }>(doc, entry.operation.requestBody)
    : undefined;
  const [mediaType, media] = Object.entries(body?.content ?? {})[0] ?? [];
  if (body?.required && mediaType) (schema.required as string[]).push('body');
  if (mediaType && media?.schema && /json/i.test(mediaType))
    return { schema, jsonBody: toJsonSchema(media.schema, componentRef), queryRules };
  if (mediaType && media?.schema && /multipart\/form-data|x-www-form-urlencoded/i.test(mediaType)) {
    (schema.properties as Record<string, unknown>).body = anyFiles(toJsonSchema(media.schema, componentRef));
  }
  return { schema, queryRules };
}

/**
 * The rules of an operation's `x-query-schema`, one schema each: the members of its `allOf` (each with its
 * `description`), or the whole schema when it is not a plain list of rules.
 */
function queryRulesOf(operation: object): JsonSchema[] {
  const querySchema = (operation as { 'x-query-schema'?: JsonSchema })['x-query-schema'];
  if (!querySchema) return [];
  const { allOf, description: _description, ...rest } = querySchema as JsonSchema & { allOf?: JsonSchema[] };
  return Array.isArray(allOf) && Object.keys(rest).length === 0 ? allOf : [querySchema];
}

/** The keyword that checks a request's file field: the value is a `Blob` (a multipart file part). */
const FILE_KEYWORD = 'x-file';

/** Files arrive as `Blob`s, not strings: a file schema accepts a Blob and nothing else. */
function anyFiles(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(anyFiles);
  if (typeof schema !== 'object' || schema === null) return schema;
  if (isFileSchema(schema)) return { [FILE_KEYWORD]: true };
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, anyFiles(v)]));
}

/**
 * The fast validators only answer true or false (the full ones explain): their error objects become `{}`, the
 * context argument (`{ instancePath, parentData, parentDataProperty, rootData }`, which only error objects, coercion
 * and `$data` read) is neither passed nor taken, and the schema constants only error objects read are dropped. That
 * saves a string concatenation and an object per nested call, and halves the code a bundle carries for one guard.
 * Ajv writes strings with double quotes only, so a scan that skips strings finds each object's end.
 */
export function withoutErrorDetails(code: string): string {
  let out = '';
  let from = 0;
  for (let start = code.indexOf('{instancePath', from); start >= 0; start = code.indexOf('{instancePath', from)) {
    let end = objectEnd(code, start);
    const object = code.slice(start, end);
    if (object.includes(',schemaPath:"') && object.includes(',keyword:"')) {
      out += `${code.slice(from, start)}{}`; // an error object
    } else if (code.slice(start - 2, start) === ', ') {
      if (code.startsWith('={}', end)) end += 3; // the parameter's default
      out += code.slice(from, start - 2); // a context argument or parameter: dropped with its comma
    } else {
      out += code.slice(from, end);
    }
    from = end;
  }
  out += code.slice(from);
  const left = /\b(?:instancePath|parentData|parentDataProperty|rootData)\b/.exec(out);
  if (left)
    throw new Error(
      `The fast validators still read the validation context: ${out.slice(left.index - 80, left.index + 80)}`,
    );
  return withFailHelper(withoutUnused(out));
}

/**
 * Each first-failure exit, `validateN.errors = [{}];return false;`, becomes a call of one helper that does the same
 * (a fresh array each time, as Ajv's callers may extend it): a third of its length, repeated at every rule.
 */
function withFailHelper(code: string): string {
  const calls = code.replace(/(validate\d+)\.errors = \[\{\}\];return false;/g, 'return __fail($1);');
  if (calls === code) return code;
  const helper = 'function __fail(validate) { validate.errors = [{}]; return false; }';
  return calls.replace(/^("use strict";)?/, `$1${helper}\n`);
}

/** Drops each `const schemaN = {…};` that nothing else names. */
function withoutUnused(code: string): string {
  const uses = new Map<string, number>();
  for (const [name] of code.matchAll(/\bschema\d+\b/g)) uses.set(name, (uses.get(name) ?? 0) + 1);
  let out = '';
  let from = 0;
  for (const match of code.matchAll(/const (schema\d+) = \{/g)) {
    if (uses.get(match[1]!) !== 1 || match.index < from) continue;
    const end = objectEnd(code, match.index + match[0].length - 1);
    out += code.slice(from, match.index);
    from = code[end] === ';' ? end + 1 : end;
  }
  return out + code.slice(from);
}

/** The index just after the object literal that opens at `start` (`{`), skipping double-quoted strings. */
function objectEnd(code: string, start: number): number {
  let depth = 0;
  for (let i = start; i < code.length; i += 1) {
    const c = code[i];
    if (c === '"') {
      for (i += 1; code[i] !== '"'; i += 1) if (code[i] === '\\') i += 1;
    } else if (c === '{') depth += 1;
    else if (c === '}' && (depth -= 1) === 0) return i + 1;
  }
  throw new Error(`Unbalanced object literal in Ajv's output at ${start}`);
}

/**
 * Ajv's ESM output still calls require() for its runtime helpers and formats: turn those into namespace imports.
 * Node gives a CommonJS module's `module.exports` as `default`; bundlers and Vite give `exports.default` when the
 * module sets `__esModule`. `__cjs` returns what require() would have, in both.
 */
export function esm(code: string): string {
  const imports = new Map<string, string>();
  const body = code.replace(/require\("([^"]+)"\)/g, (_, module: string) => {
    const specifier = module.endsWith('.js') ? module : `${module}.js`;
    if (!imports.has(specifier)) imports.set(specifier, `__import${imports.size}`);
    return imports.get(specifier)!;
  });
  // Pure annotations let a bundler drop what an application does not use (the module has no side effects).
  const head = [...imports].map(
    ([specifier, name]) =>
      `import * as ${name}_ns from ${JSON.stringify(specifier)};\nconst ${name} = /* @__PURE__ */ __cjs(${name}_ns);`,
  );
  const helper =
    'function __cjs(ns) { const d = ns.default; return d !== null && typeof d === "object" && d.__esModule ? d : ns; }';
  return `${[...head, helper].join('\n')}\n${body.replace(/^"use strict";/, '').replace(/= new RegExp\(/g, '= /* @__PURE__ */ new RegExp(')}\n`;
}
