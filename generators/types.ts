import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { slashBanner } from './lib/banner.ts';
import type { GeneratedFile } from './lib/files.ts';
import { isFileSchema } from './lib/json-schema.ts';
import type { OpenApiDocument } from './lib/openapi.ts';

export const folder = 'generated/types';

/**
 * The openapi-typescript source for the document: `paths`, `operations`, `components` and a root alias per schema.
 * Files are typed `Blob`, which is what a client uploads and a download returns.
 */
export async function typesSource(doc: OpenApiDocument): Promise<string> {
  const ast = await openapiTS(structuredClone(doc) as Parameters<typeof openapiTS>[0], {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    // A default is what the server assumes when a field is absent: the caller may leave it out.
    defaultNonNullable: false,
    // An object schema without properties is open (`x-not-shown`): any fields, not none.
    emptyObjectsUnknown: true,
    silent: true,
    transform(schema) {
      return isFileSchema(schema) ? ts.factory.createTypeReferenceNode('Blob') : undefined;
    },
  });
  return astToString(ast);
}

/** TypeScript types of every path, operation and component (openapi-typescript), plus a root alias per schema. */
export async function generateTypes(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  return [{ path: `${folder}/index.ts`, contents: slashBanner(doc, 'types') + (await typesSource(doc)) }];
}

