import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { slashBanner } from './lib/banner.ts';
import { componentName } from '../packages/server/src/openapi-model.ts';
import { listOperations } from './lib/document.ts';
import { compileContractPackage, contractModule, type ContractPackage } from './lib/package.ts';
import type { GeneratedFile } from './lib/files.ts';
import { isFileSchema, isNeverSchema, isRuleOnlySchema } from './lib/json-schema.ts';
import { nameSchemaTypes } from './lib/named-types.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { operationModels } from './lib/model.ts';
import { patternPropertiesType } from './lib/pattern-keys.ts';

export const typesPackageName = '@service-api/types';
export const typesPackage: ContractPackage = { name: typesPackageName, id: 'types' };
export const folder = `generated/${typesPackage.id}`;

/** Names the operation helpers of `operation-types.ts` export: a component schema must not take one of them. */
const helperNames = [
  'OperationId',
  'Input',
  'Success',
  'ErrorBodyOf',
  'ErrorStatus',
  'ErrorResponses',
  'Item',
  'ResponseHeadersOf',
  'When',
  'Sent',
  'QueryValue',
  'ExtraParameters',
  'AnonymousOperationId',
  'ContractVersion',
];

interface TypesSource {
  source: string;
  /** The root type of each component schema, by schema name (`Job` for `Job`): the names editors show. */
  schemaTypes: Map<string, string>;
}

const sources = new WeakMap<OpenApiDocument, Promise<TypesSource>>();

/**
 * The openapi-typescript source for the document: `paths`, `operations`, `components` and a root type per schema
 * that holds its type (see `nameSchemaTypes`). Files are typed `Blob`, which is what a client uploads and a download
 * returns. Computed once per document: the types, client, server and validators generators all read it.
 */
function typesModel(doc: OpenApiDocument): Promise<TypesSource> {
  let source = sources.get(doc);
  if (!source) {
    source = openapiSource(doc);
    sources.set(doc, source);
  }
  return source;
}

export const typesSource = async (doc: OpenApiDocument): Promise<string> => (await typesModel(doc)).source;
export const schemaTypeNames = async (doc: OpenApiDocument): Promise<Map<string, string>> =>
  (await typesModel(doc)).schemaTypes;

/**
 * The component schemas that path parameters reference and that are strings (`IdOrPath`: a project or group, its ID or
 * its URL-encoded path). The contract types them `string` for generators in every language (openapi/conventions.md,
 * `path-parameter-string`); in TypeScript they are `string | number`, so a caller keeps passing `{ id: 42 }`, which the
 * client sends as its digits.
 */
function pathStringComponents(doc: OpenApiDocument): Set<string> {
  const out = new Set<string>();
  for (const entry of listOperations(doc))
    for (const parameter of entry.parameters) {
      const ref = (parameter.schema as { $ref?: unknown } | undefined)?.$ref;
      const name = parameter.in === 'path' && typeof ref === 'string' ? componentName(ref) : undefined;
      const schema = name === undefined ? undefined : doc.components?.schemas?.[name];
      if (name !== undefined && (schema as { type?: unknown } | undefined)?.type === 'string')
        out.add(`#/components/schemas/${name}`);
    }
  return out;
}

async function openapiSource(doc: OpenApiDocument): Promise<TypesSource> {
  const numericPaths = pathStringComponents(doc);
  const ast = await openapiTS(structuredClone(doc) as Parameters<typeof openapiTS>[0], {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    // A default is what the server assumes when a field is absent: the caller may leave it out.
    defaultNonNullable: false,
    // An object schema without properties is open (`x-not-shown`): any fields, not none.
    emptyObjectsUnknown: true,
    silent: true,
    transform(schema, options) {
      if (isFileSchema(schema)) return ts.factory.createTypeReferenceNode('Blob');
      if (numericPaths.has(options.path ?? ''))
        return ts.factory.createUnionTypeNode([
          ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
          ts.factory.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword),
        ]);
      // `{ not: {} }` is the portable "never sent" (openapi/conventions.md): no value has this type.
      if (isNeverSchema(schema)) return ts.factory.createKeywordTypeNode(ts.SyntaxKind.NeverKeyword);
      // An `allOf` member of `if`/`then` rules says nothing of the record's shape: it adds no type (its
      // `type: object` is there for generators that read a member without a type as `any`).
      if (isRuleOnlySchema(schema)) return ts.factory.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword);
      return patternPropertiesType(schema as Record<string, unknown>, options);
    },
  });
  const { nodes, aliases } = nameSchemaTypes(ast);
  return { source: astToString(nodes), schemaTypes: aliases };
}

/**
 * The generated sources of `@service-api/types`: openapi-typescript's types of the document, the operations callable
 * without credentials and the contract version. Its hand-written `src/` adds the operation helper types.
 */
export async function generateTypes(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const banner = slashBanner(doc, 'types');
  const clash = Object.keys(doc.components?.schemas ?? {}).find((name) => helperNames.includes(name));
  if (clash)
    throw new Error(
      `Component schema ${clash} would clash with the operation helper type of that name in ${typesPackageName}`,
    );
  const anonymous = operationModels(doc)
    .filter((m) => !m.authenticated)
    .map((m) => JSON.stringify(m.operationId));
  return [
    { path: `${folder}/schema.ts`, contents: banner + (await typesSource(doc)) },
    {
      path: `${folder}/anonymous.ts`,
      contents: `${banner}/** Operations that allow anonymous access: a server's handlers may get no principal. */\nexport type AnonymousOperationId = ${anonymous.join(' | ') || 'never'};\n`,
    },
    { path: `${folder}/contract.ts`, contents: banner + contractModule(doc, 'type') },
  ];
}

const compiled = new WeakMap<OpenApiDocument, GeneratedFile[]>();

/** The compiled `dist/` of the types package: its `src/` and the generated sources, checked and compiled together. */
export function buildTypes(doc: OpenApiDocument, generated: GeneratedFile[]): GeneratedFile[] {
  let files = compiled.get(doc);
  if (!files) {
    files = compileContractPackage(typesPackage, generated);
    compiled.set(doc, files);
  }
  return files;
}

/** The `.d.ts` files of the types package, for the compiler of a package that depends on it. */
export async function typesDeclarations(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const dist = buildTypes(doc, await generateTypes(doc));
  return dist.filter((f) => f.path.endsWith('.d.ts'));
}
