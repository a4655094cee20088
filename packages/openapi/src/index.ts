/**
 * Typed access to the files of @service-api/openapi from Node: where each rendition of the document is (for tools that
 * take a file name), the parsed JSON documents, and the documented examples. Every file is also exported by its own
 * path (`@service-api/openapi/3.0/openapi.yaml`, `@service-api/openapi/examples.json`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `3.1`: the published document (OpenAPI 3.1.0); `3.0`: its OpenAPI 3.0.3 rendition, for tools that read 3.0 only. */
export type Rendition = '3.1' | '3.0';

export interface DocumentFile {
  /** Default `3.1`. */
  rendition?: Rendition;
  /** Every `$ref` replaced by its target (a reference that would recurse into itself stays a `$ref`). Default false. */
  dereferenced?: boolean;
  /** Default `json`. */
  format?: 'json' | 'yaml';
}

/** A documented example's value by example name. */
export type ExamplesByName = Record<string, unknown>;
/** Response examples: operationId → status (`200`, `404`) → example name → value. */
export type ResponseExamples = Record<string, Record<string, ExamplesByName>>;
/** Request body examples: operationId → example name → value. */
export type RequestExamples = Record<string, ExamplesByName>;
/** Component schema examples: schema name → example name → value. */
export type SchemaExamples = Record<string, ExamplesByName>;

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const readJson = <T>(file: string): T => JSON.parse(readFileSync(here(file), 'utf8')) as T;

/** The package's files sit beside this module in dist/. */
function fileName({ rendition = '3.1', dereferenced = false, format = 'json' }: DocumentFile): string {
  if (rendition !== '3.1' && rendition !== '3.0') throw new Error(`Unknown rendition "${rendition}": 3.1 or 3.0`);
  if (format !== 'json' && format !== 'yaml') throw new Error(`Unknown format "${format}": json or yaml`);
  return `./${rendition === '3.0' ? '3.0/' : ''}openapi${dereferenced ? '.dereferenced' : ''}.${format}`;
}

/** The absolute path of one of the document's files: `documentPath({ rendition: '3.0', format: 'yaml' })`. */
export function documentPath(file: DocumentFile = {}): string {
  return here(fileName(file));
}

/** One of the JSON documents, parsed (a new object on every call). */
export function readDocument(file: Omit<DocumentFile, 'format'> = {}): Record<string, unknown> {
  return readJson(fileName({ ...file, format: 'json' }));
}

let responses: ResponseExamples | undefined;
let requests: RequestExamples | undefined;
let schemas: SchemaExamples | undefined;

/** Every documented response example (examples.json), read once. */
export function responseExamples(): ResponseExamples {
  responses ??= readJson<ResponseExamples>('./examples.json');
  return responses;
}

/** Every documented request body example (request-examples.json), read once. */
export function requestExamples(): RequestExamples {
  requests ??= readJson<RequestExamples>('./request-examples.json');
  return requests;
}

/**
 * Every documented example of each component schema (schema-examples.json), read once: the examples of the responses
 * whose schema is exactly that component.
 */
export function schemaExamples(): SchemaExamples {
  schemas ??= readJson<SchemaExamples>('./schema-examples.json');
  return schemas;
}

/**
 * One documented response example, by operationId, status and name: a fixture for a mocked handler or a test. Throws
 * naming what exists when there is no such example.
 */
export function responseExample(operationId: string, status: string | number, name: string): unknown {
  const byStatus = responseExamples()[operationId];
  if (!byStatus) throw new Error(`No documented response examples for operation "${operationId}"`);
  const byName = byStatus[String(status)];
  if (!byName)
    throw new Error(`${operationId} documents examples for ${Object.keys(byStatus).join(', ')}, not for ${status}`);
  if (!(name in byName))
    throw new Error(`${operationId} ${status} has the examples ${Object.keys(byName).join(', ')}, not "${name}"`);
  return byName[name];
}

/** The contract version (`info.version`) of the document this package holds, written by the build. */
export { contractVersion } from './contract.js';
