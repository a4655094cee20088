import openapiTS, { astToString } from 'openapi-typescript';
import { slashBanner } from './lib/banner.ts';
import type { GeneratedFile } from './lib/files.ts';
import type { OpenApiDocument } from './lib/openapi.ts';

export const folder = 'generated/types';

/** TypeScript types of every path, operation and component (openapi-typescript), plus a root alias per schema. */
export async function generateTypes(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const ast = await openapiTS(structuredClone(doc) as Parameters<typeof openapiTS>[0], {
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    silent: true,
  });
  return [{ path: `${folder}/index.ts`, contents: slashBanner(doc, 'types') + astToString(ast) }];
}
