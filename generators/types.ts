import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { slashBanner } from './lib/banner.ts';
import { compilePackage } from './lib/compile.ts';
import type { GeneratedFile } from './lib/files.ts';
import { isFileSchema } from './lib/json-schema.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { patternPropertiesType } from './lib/pattern-keys.ts';
import { packageJson, packageReadme, type PackageSpec } from './lib/package.ts';
import { template } from './lib/templates.ts';

export const folder = 'generated/types';
export const typesPackageName = '@service-api/types';

const spec: PackageSpec = {
  folder,
  name: typesPackageName,
  description:
    'TypeScript types of the Service HTTP API v4: every path, operation and component schema by name (types only, no code)',
};

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
];

const sources = new WeakMap<OpenApiDocument, Promise<string>>();

/**
 * The openapi-typescript source for the document: `paths`, `operations`, `components` and a root alias per schema.
 * Files are typed `Blob`, which is what a client uploads and a download returns. Computed once per document: the
 * types, client, server and validators generators all read it.
 */
export function typesSource(doc: OpenApiDocument): Promise<string> {
  let source = sources.get(doc);
  if (!source) {
    source = openapiSource(doc);
    sources.set(doc, source);
  }
  return source;
}

async function openapiSource(doc: OpenApiDocument): Promise<string> {
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
      return patternPropertiesType(schema as Record<string, unknown>, options);
    },
  });
  return astToString(ast);
}

/** The dependency on the types package of the same version, for the packages that re-export it. */
export function typesDependency(doc: OpenApiDocument): Record<string, string> {
  return { [typesPackageName]: doc.info.version };
}

/** The `src/types.ts` of a package that uses the types package: it re-exports every type from it. */
export function typesModule(banner: string): string {
  return `${banner}export type * from '${typesPackageName}';\n`;
}

const compiled = new WeakMap<OpenApiDocument, Promise<GeneratedFile[]>>();

/** The types package (`@service-api/types`): sources, compiled `dist/`, package.json and README. */
export function generateTypes(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  let files = compiled.get(doc);
  if (!files) {
    files = typesPackage(doc);
    compiled.set(doc, files);
  }
  return files;
}

async function typesPackage(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const banner = slashBanner(doc, 'types');
  const clash = Object.keys(doc.components?.schemas ?? {}).find((name) => helperNames.includes(name));
  if (clash)
    throw new Error(
      `Component schema ${clash} would clash with the operation helper type of that name in ${typesPackageName}`,
    );
  const sources: GeneratedFile[] = [
    { path: `${folder}/src/schema.ts`, contents: banner + (await typesSource(doc)) },
    { path: `${folder}/src/operation-types.ts`, contents: banner + (await template('operation-types.ts')) },
    {
      path: `${folder}/src/index.ts`,
      contents: `${banner}export type * from './schema.js';\nexport type * from './operation-types.js';\n`,
    },
  ];
  return [
    packageJson(doc, spec),
    packageReadme(doc, spec, 'types', README),
    ...sources,
    ...compilePackage(sources, banner),
  ];
}

/** The `.d.ts` files of the types package, for the compiler of a package that depends on it. */
export async function typesDeclarations(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  return (await generateTypes(doc)).filter((f) => f.path.endsWith('.d.ts') || f.path.endsWith('package.json'));
}

const README = `
\`\`\`ts
import type { MergeRequest, Job, paths, operations, components, Input, Success, ErrorBodyOf } from '${typesPackageName}';

function title(mr: MergeRequest): string {
  return mr.title;
}
type ListJobsQuery = Input<'jobs/list-project-jobs'>['query'];
\`\`\`

- One type alias per component schema, by its name (\`MergeRequest\`, \`Job\`), plus openapi-typescript's \`paths\`,
  \`operations\` and \`components\`.
- Per operationId: \`Input<K>\` (\`{ path, query, headers, body }\`), \`Success<K>\`, \`ErrorBodyOf<K>\`, \`ErrorStatus<K>\`,
  \`ErrorResponses<K>\` (error body by status) and \`Item<K>\` (one item of a list).
- Types only: the package has no code. \`@service-api/client\`, \`@service-api/server\` and \`@service-api/validators\`
  depend on it and re-export everything, so one copy of the types is installed and parsed.
`;
