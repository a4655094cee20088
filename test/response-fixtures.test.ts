import { describe, expect, it } from 'vitest';
import { validateSchema } from '@service-api/validators';
import { listOperations, listResponses } from '../generators/lib/document.ts';
import { publishedDocument } from './support/documents.ts';
import { loadResponseFixtures } from './support/response-fixtures.ts';

/**
 * Realistic response bodies written from the API's field lists, one file per record (`<SchemaName>.yaml`), each a map
 * of named forms (`minimal`: the fewest fields a real response carries; others: a full caller, merged, never contacted …).
 * Every form must validate against the record's schema: a schema that refuses one requires or narrows too much.
 */
const fixtures = loadResponseFixtures();

type Body = { items?: Body; oneOf?: unknown[]; anyOf?: unknown[]; allOf?: unknown[] };
/** The record of a body not documented in full: the one member of its `allOf`. */
const records = (s: Body | undefined) => (s?.allOf?.length === 1 ? s.allOf : []);

/**
 * Component schemas that a 2xx JSON response returns: directly, as list items, as one member of a union, or as the
 * record of a body not documented in full (`allOf` of one `$ref`).
 */
function responseRecords(): string[] {
  const doc = publishedDocument();
  const names = new Set<string>();
  const refName = (s: unknown) => (s as { $ref?: string })?.$ref?.replace('#/components/schemas/', '');
  for (const entry of listOperations(doc)) {
    for (const { status, json } of listResponses(doc, entry)) {
      if (!status.startsWith('2') || !json?.content.schema) continue;
      const top = json.content.schema as Body;
      for (const s of [
        top,
        top.items,
        ...(top.oneOf ?? []),
        ...(top.anyOf ?? []),
        ...records(top),
        ...records(top.items),
      ]) {
        const name = refName(s);
        if (name) names.add(name);
      }
    }
  }
  return [...names].sort();
}

describe('realistic response bodies', () => {
  it.each(responseRecords())('%s has a fixture with a minimal form and another', (name) => {
    expect(Object.keys(fixtures), `write test/fixtures/responses/${name}.yaml`).toContain(name);
    expect(Object.keys(fixtures[name] ?? {})).toContain('minimal');
    expect(Object.keys(fixtures[name] ?? {}).length).toBeGreaterThan(1);
  });

  const forms = Object.entries(fixtures).flatMap(([name, byForm]) =>
    Object.entries(byForm).map(([form, body]) => [name, form, body] as const),
  );
  it.each(forms)('%s (%s) is valid', (name, _form, body) => {
    expect(validateSchema(name as Parameters<typeof validateSchema>[0], body).errors).toEqual([]);
  });
});
