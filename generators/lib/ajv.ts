import ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import { listOperations, listResponses, resolve } from './document.ts';
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
  /** operationId → status → export name of the validator of that JSON response body. */
  responses: Record<string, Record<string, string>>;
  /** operationId → export name of the request validator in the requests module. */
  requests: Record<string, string>;
  /** operationId → export name of the validator of its JSON request body (exact, no coercion) in the schemas module. */
  bodies: Record<string, string>;
}

export interface BuiltValidators {
  index: ValidatorIndex;
  schemasCode: string;
  requestsCode: string;
  declarations(module: 'schemas' | 'requests'): string;
}

/** Every component schema as one JSON Schema document, `$defs` by name, addressed by `componentSchemaId`. */
export function componentsSchema(doc: OpenApiDocument): JsonSchema {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  return { $id: COMPONENTS_ID, $defs: Object.fromEntries(Object.entries(schemas).map(([n, s]) => [n, toJsonSchema(s, componentRef)])) };
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

function newAjv(coerce: boolean) {
  // ajv and its plugins are CommonJS: under NodeNext their classes and functions sit on `.default`.
  const ajv = new ajv2020.default({
    code: { source: true, esm: true },
    allErrors: true,
    inlineRefs: false,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    coerceTypes: coerce ? 'array' : false,
  });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  return ajv;
}

/**
 * Two standalone modules: `schemas` (component schemas and JSON responses, exact) and `requests` (one validator per
 * operation over `{ params, query, headers, body }`, coercing strings as they arrive in URLs and headers).
 */
export function buildValidators(doc: OpenApiDocument): BuiltValidators {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const components = componentsSchema(doc);
  const exact = newAjv(false);
  const coercing = newAjv(true);
  exact.addSchema(components);
  coercing.addSchema(anyFiles(components) as JsonSchema);

  const index: ValidatorIndex = { schemas: {}, responses: {}, requests: {}, bodies: {} };
  // Operations share most of their parameter sets (the same path ids, Sudo, pagination): each distinct set is
  // compiled once and referenced, which keeps the request validators small enough to load quickly.
  const parts = new Map<string, string>();
  const sharedPart = (part: JsonSchema): JsonSchema => {
    const key = JSON.stringify(part);
    let id = parts.get(key);
    if (!id) {
      id = `${ID_BASE}request-parts/${parts.size}`;
      parts.set(key, id);
      coercing.addSchema({ $id: id, ...part });
    }
    return { $ref: id };
  };
  const schemaExports: Record<string, string> = {};
  const requestExports: Record<string, string> = {};
  for (const name of Object.keys(schemas)) {
    index.schemas[name] = `schema_${identifier(name)}`;
    schemaExports[`schema_${identifier(name)}`] = componentSchemaId(name);
  }
  // Most operations share their error responses: an identical response schema is compiled once, and a bare
  // reference to a component reuses that component's validator.
  const responseExports = new Map<string, string>();
  for (const entry of listOperations(doc)) {
    for (const { status, json } of listResponses(doc, entry)) {
      if (!json?.content.schema) continue;
      const schema = toJsonSchema(json.content.schema, componentRef);
      const key = JSON.stringify(schema);
      const bareRef = Object.keys(schema).length === 1 && typeof schema.$ref === 'string' ? String(schema.$ref) : undefined;
      let exportName = responseExports.get(key) ?? (bareRef ? schemaExportOf(index, bareRef) : undefined);
      if (!exportName) {
        const id = `${ID_BASE}responses/${entry.operationId}/${status}`;
        exportName = `response_${identifier(entry.operationId)}_${status}`;
        exact.addSchema({ $id: id, ...schema });
        schemaExports[exportName] = id;
      }
      responseExports.set(key, exportName);
      (index.responses[entry.operationId] ??= {})[status] = exportName;
    }
    const id = `${ID_BASE}requests/${entry.operationId}`;
    const exportName = `request_${identifier(entry.operationId)}`;
    const { schema, jsonBody } = requestSchema(doc, entry, sharedPart);
    coercing.addSchema({ $id: id, ...schema });
    if (jsonBody) {
      const bodyId = `${ID_BASE}bodies/${entry.operationId}`;
      exact.addSchema({ $id: bodyId, ...jsonBody });
      index.bodies[entry.operationId] = `body_${identifier(entry.operationId)}`;
      schemaExports[`body_${identifier(entry.operationId)}`] = bodyId;
    }
    index.requests[entry.operationId] = exportName;
    requestExports[exportName] = id;
  }
  return {
    index,
    schemasCode: esm(standaloneCode.default(exact, schemaExports)),
    requestsCode: esm(standaloneCode.default(coercing, requestExports)),
    declarations: (module) =>
      `import type { ValidateFunction } from './validation.js';\n${Object.keys(module === 'schemas' ? schemaExports : requestExports)
        .map((name) => `export declare const ${name}: ValidateFunction;`)
        .join('\n')}\n`,
  };
}

/**
 * The JSON Schema of a whole request: `{ params, query, headers (lower case), body }`. Form bodies are validated
 * here with coercion (their fields are strings); a JSON body is returned apart, to be validated exactly.
 */
function requestSchema(doc: OpenApiDocument, entry: ReturnType<typeof listOperations>[number], sharedPart: (part: JsonSchema) => JsonSchema): { schema: JsonSchema; jsonBody?: JsonSchema } {
  const part = (where: string, lower = false) => {
    const parameters = entry.parameters.filter((p) => p.in === where);
    const key = (name: string) => (lower ? name.toLowerCase() : name);
    return {
      type: 'object',
      properties: Object.fromEntries(parameters.map((p) => [key(p.name), toJsonSchema(p.schema ?? {}, componentRef)])),
      required: parameters.filter((p) => p.required).map((p) => key(p.name)),
    };
  };
  const schema: JsonSchema = {
    type: 'object',
    properties: { params: sharedPart(part('path')), query: sharedPart(part('query')), headers: sharedPart(part('header', true)) },
    required: ['params', 'query', 'headers'],
  };
  const body = entry.operation.requestBody ? resolve<{ required?: boolean; content?: Record<string, { schema?: unknown }> }>(doc, entry.operation.requestBody) : undefined;
  const [mediaType, media] = Object.entries(body?.content ?? {})[0] ?? [];
  if (body?.required && mediaType) (schema.required as string[]).push('body');
  if (mediaType && media?.schema && /json/i.test(mediaType)) return { schema, jsonBody: toJsonSchema(media.schema, componentRef) };
  if (mediaType && media?.schema && /multipart\/form-data|x-www-form-urlencoded/i.test(mediaType)) {
    (schema.properties as Record<string, unknown>).body = anyFiles(toJsonSchema(media.schema, componentRef));
  }
  return { schema };
}

/** Files arrive as `Blob`s, not strings: a file schema accepts any value. */
function anyFiles(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(anyFiles);
  if (typeof schema !== 'object' || schema === null) return schema;
  if (isFileSchema(schema)) return {};
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, anyFiles(v)]));
}

/**
 * Ajv's ESM output still calls require() for its runtime helpers and formats: turn those into namespace imports.
 * Node gives a CommonJS module's `module.exports` as `default`; bundlers and Vite give `exports.default` when the
 * module sets `__esModule`. `__cjs` returns what require() would have, in both.
 */
function esm(code: string): string {
  const imports = new Map<string, string>();
  const body = code.replace(/require\("([^"]+)"\)/g, (_, module: string) => {
    const specifier = module.endsWith('.js') ? module : `${module}.js`;
    if (!imports.has(specifier)) imports.set(specifier, `__import${imports.size}`);
    return imports.get(specifier)!;
  });
  const head = [...imports].map(([specifier, name]) => `import * as ${name}_ns from ${JSON.stringify(specifier)};\nconst ${name} = __cjs(${name}_ns);`);
  const helper = 'function __cjs(ns) { const d = ns.default; return d !== null && typeof d === "object" && d.__esModule ? d : ns; }';
  return `${[...head, helper].join('\n')}\n${body.replace(/^"use strict";/, '')}\n`;
}
