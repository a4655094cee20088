import ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import { slashBanner } from './lib/banner.ts';
import { listOperations, listResponses } from './lib/document.ts';
import type { GeneratedFile } from './lib/files.ts';
import { toJsonSchema } from './lib/json-schema.ts';
import type { OpenApiDocument } from './lib/openapi.ts';

export const folder = 'generated/validators';

/** Absolute ids, so that references resolve the same from every schema. `.invalid` is never a real host. */
const ID_BASE = 'https://contract.service.invalid/';
const COMPONENTS_ID = `${ID_BASE}components`;
const componentRef = (ref: string) => ref.replace(/^#\/components\/schemas\//, `${COMPONENTS_ID}#/$defs/`);

export interface ValidatorIndex {
  /** Component schema name → export name in the standalone module. */
  schemas: Record<string, string>;
  /** operationId → status → export name of the validator of that JSON response body. */
  responses: Record<string, Record<string, string>>;
}

/**
 * Ajv standalone validators (no schema compilation at run time) for every component schema and every JSON
 * response of every operation, with an index module that looks them up by name, operationId and status.
 */
export async function generateValidators(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  // ajv and its plugins are CommonJS: under NodeNext their classes and functions sit on `.default`.
  const ajv = new ajv2020.default({
    code: { source: true, esm: true },
    allErrors: true,
    inlineRefs: false,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
  });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);

  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: Object.fromEntries(Object.entries(schemas).map(([n, s]) => [n, toJsonSchema(s, componentRef)])) });

  const index: ValidatorIndex = { schemas: {}, responses: {} };
  const exports: Record<string, string> = {};
  for (const name of Object.keys(schemas)) {
    const exportName = `schema_${identifier(name)}`;
    index.schemas[name] = exportName;
    exports[exportName] = `${COMPONENTS_ID}#/$defs/${name}`;
  }
  for (const entry of listOperations(doc)) {
    for (const { status, json } of listResponses(doc, entry)) {
      if (!json?.content.schema) continue;
      const id = `${ID_BASE}responses/${entry.operationId}/${status}`;
      const exportName = `response_${identifier(entry.operationId)}_${status}`;
      ajv.addSchema({ $id: id, ...toJsonSchema(json.content.schema, componentRef) });
      (index.responses[entry.operationId] ??= {})[status] = exportName;
      exports[exportName] = id;
    }
  }

  const code = standaloneCode.default(ajv, exports);
  // Ajv's ESM output still calls require() for its runtime helpers and formats.
  const standalone = `${slashBanner(doc, 'validators')}import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${code}\n`;
  return [
    { path: `${folder}/standalone.js`, contents: standalone },
    { path: `${folder}/index.js`, contents: indexModule(doc, index) },
    { path: `${folder}/index.d.ts`, contents: declarations(doc, index) },
  ];
}

function identifier(name: string): string {
  return name.replace(/[^A-Za-z0-9_$]/g, '_');
}

function indexModule(doc: OpenApiDocument, index: ValidatorIndex): string {
  const schemaEntries = Object.entries(index.schemas).map(([name, fn]) => `  ${JSON.stringify(name)}: v.${fn},`);
  const responseEntries = Object.entries(index.responses).map(
    ([op, byStatus]) => `  ${JSON.stringify(op)}: { ${Object.entries(byStatus).map(([s, fn]) => `${JSON.stringify(s)}: v.${fn}`).join(', ')} },`,
  );
  return `${slashBanner(doc, 'validators')}import * as v from './standalone.js';

export const specVersion = ${JSON.stringify(doc.info.version)};

/** Validators of the component schemas, by schema name. */
export const schemaValidators = {
${schemaEntries.join('\n')}
};

/** Validators of JSON response bodies, by operationId and status. */
export const responseValidators = {
${responseEntries.join('\n')}
};

/** Readable messages for the errors of the last run of a validator. */
export function formatErrors(errors) {
  return (errors ?? []).map((e) => \`\${e.instancePath || '(root)'} \${e.message}\${e.params && e.params.additionalProperty ? \` (\${e.params.additionalProperty})\` : ''}\`);
}

/** Validates a value against a component schema by name. */
export function validateSchema(name, value) {
  const validate = schemaValidators[name];
  if (!validate) throw new Error(\`Unknown schema \${name}\`);
  const valid = validate(value);
  return { valid, errors: valid ? [] : formatErrors(validate.errors) };
}

/** Validates a JSON response body of an operation; statuses without a JSON body have no validator. */
export function validateResponse(operationId, status, body) {
  const byStatus = responseValidators[operationId];
  if (!byStatus) throw new Error(\`Unknown operation \${operationId}\`);
  const validate = byStatus[String(status)];
  if (!validate) throw new Error(\`Operation \${operationId} documents no JSON body for status \${status}\`);
  const valid = validate(body);
  return { valid, errors: valid ? [] : formatErrors(validate.errors) };
}
`;
}

function declarations(doc: OpenApiDocument, index: ValidatorIndex): string {
  const schemaNames = Object.keys(index.schemas).map((n) => JSON.stringify(n)).join(' | ') || 'never';
  const ops = Object.entries(index.responses)
    .map(([op, byStatus]) => `  ${JSON.stringify(op)}: ${Object.keys(byStatus).map((s) => JSON.stringify(s)).join(' | ')};`)
    .join('\n');
  return `${slashBanner(doc, 'validators')}export interface ValidationResult {
  valid: boolean;
  errors: string[];
}

export interface ValidateFunction {
  (value: unknown): boolean;
  errors?: { instancePath: string; message?: string; params?: Record<string, unknown> }[] | null;
}

export type SchemaName = ${schemaNames};

/** For each operationId, the statuses whose JSON body has a validator. */
export interface ResponseStatuses {
${ops}
}

export declare const specVersion: string;
export declare const schemaValidators: Record<SchemaName, ValidateFunction>;
export declare const responseValidators: { [Op in keyof ResponseStatuses]: Record<ResponseStatuses[Op], ValidateFunction> };
export declare function formatErrors(errors: ValidateFunction['errors']): string[];
export declare function validateSchema(name: SchemaName, value: unknown): ValidationResult;
export declare function validateResponse<Op extends keyof ResponseStatuses>(operationId: Op, status: ResponseStatuses[Op] | number, body: unknown): ValidationResult;
`;
}
