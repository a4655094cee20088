import { documentBanner } from './lib/banner.ts';
import { dereference } from '../packages/server/src/openapi-model.ts';
import { downConvert } from './lib/down-convert.ts';
import type { GeneratedFile } from './lib/files.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { folder, toJson, toYaml } from './published.ts';

/**
 * The OpenAPI 3.0.3 rendition of the published document, for tools that read 3.0 only: bundled and dereferenced, each
 * as YAML and JSON, beside the 3.1 files (generators/lib/down-convert.ts says how it is converted).
 */
export async function generateOpenApi30(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const rendition = downConvert(doc);
  const dereferenced = dereference(rendition);
  const banner = documentBanner(doc, 'openapi30');
  return [
    { path: `${folder}/openapi.3.0.yaml`, contents: banner + toYaml(rendition) },
    { path: `${folder}/openapi.3.0.json`, contents: toJson(rendition) },
    { path: `${folder}/openapi.3.0.dereferenced.yaml`, contents: banner + toYaml(dereferenced) },
    { path: `${folder}/openapi.3.0.dereferenced.json`, contents: toJson(dereferenced) },
  ];
}
