import { readFileSync } from 'node:fs';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { PUBLISHED_JSON } from '../../scripts/lib/paths.ts';

/** The published (bundled) document that the tests are driven by. */
export function publishedDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(PUBLISHED_JSON, 'utf8')) as OpenApiDocument;
}

/**
 * The text of the rule across an operation's query parameters (`x-query-schema`) that names every one of `names`
 * (`author_id`, `author_username`): the document's own words, which a server answers when a request breaks the rule.
 */
export function queryRule(doc: OpenApiDocument, operationId: string, ...names: string[]): string {
  const operation = Object.values(doc.paths ?? {})
    .flatMap((item) => Object.values(item as Record<string, { operationId?: string }>))
    .find((op) => op?.operationId === operationId) as { 'x-query-schema'?: { allOf?: { description?: string }[] } };
  const rules = (operation?.['x-query-schema']?.allOf ?? []).filter(({ description: _, ...rule }) =>
    names.every((name) => JSON.stringify(rule).includes(JSON.stringify(name))),
  );
  if (rules.length !== 1 || !rules[0]!.description)
    throw new Error(`${operationId}: ${rules.length} described query rules name ${names.join(', ')}`);
  return rules[0]!.description;
}
