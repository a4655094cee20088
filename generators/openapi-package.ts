/**
 * @service-api/openapi: the published document on the registry. Its dist/ holds both renditions as the build writes
 * them to generated/openapi/ (3.1 at the root, 3.0 under `3.0/`) and their dereferenced forms, the HTML reference,
 * every documented example as JSON keyed by operationId, and its small Node module (packages/openapi/src). Built,
 * never committed: the dereferenced forms and the HTML reference are in no other place.
 */
import { compilePackage } from './lib/compile.ts';
import { resolve } from '../packages/server/src/openapi-model.ts';
import { listOperations } from './lib/document.ts';
import type { GeneratedFile } from './lib/files.ts';
import type { MediaType, OpenApiDocument } from './lib/openapi.ts';
import { type ContractPackage, contractModule, moduleSources, packageDir } from './lib/package.ts';
import { dereferencedOpenApi30 } from './openapi30.ts';
import { dereferencedPublished, folder as publishedFolder, toJson } from './published.ts';
import { generateReference } from './reference.ts';
import { typesDeclarations, typesPackageName } from './types.ts';

export const openapiPackage: ContractPackage = { name: '@service-api/openapi', id: 'openapi' };
const dist = `${packageDir(openapiPackage)}/dist`;

/** A document file's name in generated/openapi/ (and in the generators' output) → its place in the package's dist/. */
function distName(name: string): string {
  return name.replace(/^openapi\.3\.0\./, '3.0/openapi.');
}

/** The bundled documents, copied from generated/openapi/. */
const BUNDLED = ['openapi.json', 'openapi.yaml', 'openapi.3.0.json', 'openapi.3.0.yaml'];

type ExamplesByName = Record<string, unknown>;

/**
 * The named examples of one operation's media types, by name (`$ref`s to `components/examples` resolved). Two media
 * types may show the same example; one name with two different values is refused.
 */
function namedExamples(doc: OpenApiDocument, content: Record<string, MediaType> | undefined, where: string) {
  const byName: ExamplesByName = {};
  for (const [type, media] of Object.entries(content ?? {})) {
    const entries = Object.entries(media.examples ?? {}).map(([name, example]) => {
      const resolved = resolve(doc, example) as { value?: unknown; externalValue?: string };
      if (!('value' in resolved)) throw new Error(`${where} ${type} example ${name} has no value`);
      return [name, resolved.value] as const;
    });
    if ('example' in media) entries.push(['example', media.example]);
    for (const [name, value] of entries) {
      if (name in byName && JSON.stringify(byName[name]) !== JSON.stringify(value))
        throw new Error(`${where}: two media types show different examples named ${name}`);
      byName[name] = value;
    }
  }
  return byName;
}

/** Every documented example: responses by operationId, status and name; request bodies by operationId and name. */
export function examplesByOperation(doc: OpenApiDocument): {
  responses: Record<string, Record<string, ExamplesByName>>;
  requests: Record<string, ExamplesByName>;
} {
  const responses: Record<string, Record<string, ExamplesByName>> = {};
  const requests: Record<string, ExamplesByName> = {};
  for (const { operationId, operation } of listOperations(doc)) {
    for (const [status, raw] of Object.entries(operation.responses)) {
      const examples = namedExamples(doc, resolve(doc, raw).content, `${operationId} ${status}`);
      if (Object.keys(examples).length > 0) (responses[operationId] ??= {})[status] = examples;
    }
    if (operation.requestBody) {
      const body = resolve<{ content?: Record<string, MediaType> }>(doc, operation.requestBody);
      const examples = namedExamples(doc, body.content, `${operationId} request body`);
      if (Object.keys(examples).length > 0) requests[operationId] = examples;
    }
  }
  return { responses, requests };
}

const COMPONENT_SCHEMA = '#/components/schemas/';

/** The component a response schema is: `$ref` to it, or `allOf` of that one `$ref` (the record, open to more fields). */
function componentOf(schema: unknown): string | undefined {
  const { $ref, allOf } = (schema ?? {}) as { $ref?: string; allOf?: unknown[] };
  if ($ref) return $ref;
  return allOf?.length === 1 ? (allOf[0] as { $ref?: string }).$ref : undefined;
}

/**
 * The documented response examples of each component schema, by example name: those of every JSON response whose
 * schema is `$ref: '#/components/schemas/<name>'` (or `allOf` of that one reference). One name with two different values is refused.
 */
export function examplesBySchema(doc: OpenApiDocument): Record<string, ExamplesByName> {
  const bySchema: Record<string, ExamplesByName> = {};
  for (const { operationId, operation } of listOperations(doc))
    for (const [status, raw] of Object.entries(operation.responses)) {
      const media = resolve(doc, raw).content?.['application/json'];
      const ref = componentOf(media?.schema);
      if (!ref?.startsWith(COMPONENT_SCHEMA)) continue;
      const schema = ref.slice(COMPONENT_SCHEMA.length);
      const examples = namedExamples(doc, { 'application/json': media! }, `${operationId} ${status}`);
      for (const [name, value] of Object.entries(examples)) {
        const known = bySchema[schema]?.[name];
        if (known !== undefined && JSON.stringify(known) !== JSON.stringify(value))
          throw new Error(`${operationId} ${status}: two examples of ${schema} are named ${name}`);
        (bySchema[schema] ??= {})[name] = value;
      }
    }
  return bySchema;
}

const literal = (text: string) => JSON.stringify(text);
const union = (names: string[]) => names.map(literal).join(' | ');

/**
 * `src/example-names.ts` of the package: the documented example names as types, by operationId and status and by
 * schema, for the typed fixtures of `src/fixtures.ts`. Compiled into dist/, never committed.
 */
export function exampleNamesModule(
  responses: Record<string, Record<string, ExamplesByName>>,
  schemas: Record<string, ExamplesByName>,
): string {
  const operations = Object.entries(responses).map(([operationId, byStatus]) => {
    const statuses = Object.entries(byStatus).map(
      ([status, byName]) => `    ${/^\d+$/.test(status) ? status : literal(status)}: ${union(Object.keys(byName))};`,
    );
    return `  ${literal(operationId)}: {\n${statuses.join('\n')}\n  };`;
  });
  const bySchema = Object.entries(schemas).map(
    ([schema, byName]) => `  ${literal(schema)}: ${union(Object.keys(byName))};`,
  );
  return [
    '/** Generated from the document (generators/openapi-package.ts): the documented example names. */',
    '/** Response example names: operationId → status → the names of its examples. */',
    `export interface ResponseExampleNames {\n${operations.join('\n')}\n}`,
    '/** Example names of each component schema, from the responses whose schema is exactly that component. */',
    `export interface SchemaExampleNames {\n${bySchema.join('\n')}\n}`,
    '',
  ].join('\n');
}

/**
 * The package's dist/: the bundled documents (from the published generator's output), their dereferenced forms and
 * the HTML reference (built here only), the examples, the module (with
 * its contract version).
 */
export async function buildOpenApiPackage(doc: OpenApiDocument, generated: GeneratedFile[]): Promise<GeneratedFile[]> {
  // The renderer is a child process: it runs while this one compiles the module.
  const reference = generateReference(doc);
  const bundled = BUNDLED.map((name) => {
    const file = generated.find((f) => f.path === `${publishedFolder}/${name}`);
    if (!file) throw new Error(`${publishedFolder}/${name} was not generated`);
    return { name, contents: file.contents };
  });
  const documents = [...bundled, ...dereferencedPublished(doc), ...dereferencedOpenApi30(doc)].map(
    ({ name, contents }) => ({ path: `${dist}/${distName(name)}`, contents }),
  );
  const { responses, requests } = examplesByOperation(doc);
  const schemas = examplesBySchema(doc);
  const src = `${packageDir(openapiPackage)}/src`;
  const names = { path: `${src}/example-names.ts`, contents: exampleNamesModule(responses, schemas) };
  // The contract version, from info.version at build time like the other packages' generated contract.ts.
  const contract = { path: `${src}/contract.ts`, contents: contractModule(doc, 'const') };
  const module = compilePackage([...moduleSources(src), names, contract], {
    types: ['node'],
    nodeOnly: true,
    rootDir: src,
    packages: { [typesPackageName]: await typesDeclarations(doc) },
  });
  return [
    ...documents,
    await reference,
    { path: `${dist}/examples.json`, contents: toJson(responses) },
    { path: `${dist}/request-examples.json`, contents: toJson(requests) },
    { path: `${dist}/schema-examples.json`, contents: toJson(schemas) },
    ...module,
  ];
}
