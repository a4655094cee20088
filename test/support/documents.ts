import { readFileSync } from 'node:fs';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { PUBLISHED_JSON } from '../../scripts/lib/paths.ts';

/** The published (bundled) document that the tests are driven by. */
export function publishedDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(PUBLISHED_JSON, 'utf8')) as OpenApiDocument;
}
