import { documentBanner } from './lib/banner.ts';
import { downConvert } from './lib/down-convert.ts';
import type { GeneratedFile } from './lib/files.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { dereferencedFiles, folder, toJson, toYaml } from './published.ts';

/**
 * The OpenAPI 3.0.3 rendition of the published document, for tools that read 3.0 only: bundled, as YAML and JSON,
 * beside the 3.1 files (generators/lib/down-convert.ts says how it is converted).
 */
export async function generateOpenApi30(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const rendition = downConvert(doc);
  const banner = documentBanner(doc, 'openapi30');
  return [
    { path: `${folder}/openapi.3.0.yaml`, contents: banner + toYaml(rendition) },
    { path: `${folder}/openapi.3.0.json`, contents: toJson(rendition) },
  ];
}

/** The 3.0 rendition, dereferenced: built into @service-api/openapi, not tracked. */
export function dereferencedOpenApi30(doc: OpenApiDocument) {
  return dereferencedFiles(downConvert(doc), documentBanner(doc, 'openapi30'), 'openapi.3.0');
}
