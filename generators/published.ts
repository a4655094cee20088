import YAML from 'yaml';
import { documentBanner } from './lib/banner.ts';
import { dereference } from '../packages/server/src/openapi-model.ts';
import type { GeneratedFile } from './lib/files.ts';
import type { OpenApiDocument } from './lib/openapi.ts';

export const folder = 'generated/openapi';

/** The published document, bundled, as YAML and JSON: what a reviewer reads, tracked in generated/openapi/. */
export async function generatePublished(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  return [
    { path: `${folder}/openapi.yaml`, contents: documentBanner(doc, 'published') + toYaml(doc) },
    { path: `${folder}/openapi.json`, contents: toJson(doc) },
  ];
}

/**
 * A document with every `$ref` replaced by its target, as YAML and JSON, by file name (`openapi.dereferenced.json`;
 * `openapi.3.0.dereferenced.json` for the 3.0 rendition). Built into @service-api/openapi, not tracked: each is the
 * bundled document of the same name, expanded.
 */
export function dereferencedFiles(
  bundled: OpenApiDocument,
  banner: string,
  stem: 'openapi' | 'openapi.3.0',
): { name: string; contents: string }[] {
  const dereferenced = dereference(bundled);
  return [
    { name: `${stem}.dereferenced.yaml`, contents: banner + toYaml(dereferenced) },
    { name: `${stem}.dereferenced.json`, contents: toJson(dereferenced) },
  ];
}

/** The 3.1 document, dereferenced (generators/openapi30.ts has the 3.0 rendition's). */
export function dereferencedPublished(doc: OpenApiDocument) {
  return dereferencedFiles(doc, documentBanner(doc, 'published'), 'openapi');
}

/** A document as the published JSON files hold it (the gate compares what `openapi/` bundles to with generated/). */
export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** YAML that YAML 1.1 readers also read back unchanged: strings that look like timestamps or booleans are quoted. */
export function toYaml(value: unknown): string {
  return YAML.stringify(value, { version: '1.1', lineWidth: 0, aliasDuplicateObjects: false }).replace(
    /^%YAML 1\.1\n---\n/,
    '',
  );
}
