import YAML from 'yaml';
import { documentBanner } from './lib/banner.ts';
import { dereference } from '../packages/server/src/openapi-model.ts';
import type { GeneratedFile } from './lib/files.ts';
import type { OpenApiDocument } from './lib/openapi.ts';

export const folder = 'generated/openapi';

/** The published document: bundled and dereferenced, each as YAML and JSON. */
export async function generatePublished(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const dereferenced = dereference(doc);
  return [
    { path: `${folder}/openapi.yaml`, contents: documentBanner(doc, 'published') + toYaml(doc) },
    { path: `${folder}/openapi.json`, contents: toJson(doc) },
    { path: `${folder}/openapi.dereferenced.yaml`, contents: documentBanner(doc, 'published') + toYaml(dereferenced) },
    { path: `${folder}/openapi.dereferenced.json`, contents: toJson(dereferenced) },
  ];
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
