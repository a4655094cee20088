/**
 * Open success bodies (`openapi/conventions.md`, "Success bodies the API does not document in full"): a 2xx JSON body
 * whose schema names no field is allowed only where the API names no record for it or documents none of the record's
 * fields, and each such body is listed below with its reason. A body that returns a record the API names uses that
 * record by reference (`allOf: [{$ref}]` with `x-not-shown`) and says it is not documented in full.
 */
import { describe, expect, it } from 'vitest';
import { isReference, resolve } from '../packages/server/src/openapi-model.ts';
import { listOperations, listResponses } from '../generators/lib/document.ts';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { publishedDocument } from './support/documents.ts';

const NO_RECORD = 'The API names no record for the response and does not document its body.';
const RUNNER_JOBS =
  'The API calls the items jobs of the runner without naming their record; the Service sends a reduced job view ' +
  '(GitLab lib/api/ci/runners.rb presents them with Entities::Ci::JobBasicWithProject: no artifacts, runner or ' +
  'tag_list, and the project identity as project), which the job record would refuse.';

/** Every open 2xx JSON body, `<operationId> <status>`, with the reason it stays open. */
const OPEN_BODIES: Record<string, string> = {
  'repository/create-changelog 200': NO_RECORD,
  'repository/create-changelog 201': NO_RECORD,
  'repository/get-changelog 200': NO_RECORD,
  'groups/sync-ldap 201': NO_RECORD,
  'groups/sync-ldap 202': NO_RECORD,
  'members/list-billable-member-memberships 200': NO_RECORD,
  'runners/list-runner-jobs 200': RUNNER_JOBS,
  'runners/list-runner-manager-jobs 200': RUNNER_JOBS,
  'product-analytics/load-query 201': NO_RECORD,
  'product-analytics/dry-run-query 201': NO_RECORD,
  'product-analytics/get-meta 200': NO_RECORD,
  'error-tracking/create-client-key 201': NO_RECORD,
  'error-tracking/list-client-keys 200': NO_RECORD,
};

type Schema = Record<string, unknown>;

/** A property schema that says the field is never sent (`false`, `{not: {}}`): it names no field a body carries. */
function neverSent(schema: unknown): boolean {
  if (schema === false) return true;
  const not = (schema as Schema | undefined)?.not;
  return typeof not === 'object' && not !== null && Object.keys(not).length === 0;
}

/** The fields a body schema names (of its items, for a list), through references and `allOf`/`oneOf`/`anyOf`. */
function namedFields(doc: OpenApiDocument, raw: unknown, seen = new Set<unknown>()): string[] {
  const schema = resolve<Schema | boolean>(doc, raw as Schema);
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return [];
  seen.add(schema);
  const own = Object.entries((schema.properties ?? {}) as Schema)
    .filter(([, property]) => !neverSent(property))
    .map(([name]) => name);
  const members = ['allOf', 'oneOf', 'anyOf'].flatMap((key) => (schema[key] ?? []) as unknown[]);
  const items = schema.type === 'array' && schema.items ? [schema.items] : [];
  return [...own, ...[...members, ...items].flatMap((member) => namedFields(doc, member, seen))];
}

interface Body {
  key: string;
  schema: Schema;
  responseDescription: string;
}

/** Every 2xx JSON body of the document. */
function successBodies(doc: OpenApiDocument): Body[] {
  return listOperations(doc).flatMap((entry) =>
    listResponses(doc, entry)
      .filter(({ status, json }) => status.startsWith('2') && json?.content.schema)
      .map(({ status, response, json }) => ({
        key: `${entry.operationId} ${status}`,
        schema: json!.content.schema as Schema,
        responseDescription: response.description ?? '',
      })),
  );
}

/** The descriptions a body's schema gives: its own, its record's, and its items' (for a list). */
function schemaDescriptions(doc: OpenApiDocument, raw: unknown): string[] {
  const schema = resolve<Schema>(doc, raw as Schema);
  const own = typeof schema.description === 'string' ? [schema.description] : [];
  return schema.type === 'array' && schema.items ? [...own, ...schemaDescriptions(doc, schema.items)] : own;
}

/** The body schema, or its items for a list, when it is `x-not-shown` beside an `allOf`: a record not shown in full. */
function partlyShownRecord(doc: OpenApiDocument, raw: unknown): Schema | undefined {
  const schema = resolve<Schema>(doc, raw as Schema);
  if (schema['x-not-shown'] === true && Array.isArray(schema.allOf)) return schema;
  return schema.type === 'array' && schema.items ? partlyShownRecord(doc, schema.items) : undefined;
}

const doc = publishedDocument();
const bodies = successBodies(doc);
const open = bodies.filter((body) => namedFields(doc, body.schema).length === 0);

describe('namedFields', () => {
  const docWith = { components: { schemas: { Job: { type: 'object', properties: { id: { type: 'integer' } } } } } };
  const job = { $ref: '#/components/schemas/Job' };
  it.each([
    ['an untyped schema', {}, []],
    ['an object without properties', { type: 'object', 'x-not-shown': true }, []],
    ['a record whose only property is never sent', { properties: { token: false, secret: { not: {} } } }, []],
    ['a list of open items', { type: 'array', items: { type: 'object' } }, []],
    ['a record by reference', job, ['id']],
    ['a record in allOf', { 'x-not-shown': true, allOf: [job] }, ['id']],
    ['a list of records', { type: 'array', items: { allOf: [job] } }, ['id']],
    ['a union', { anyOf: [{ type: 'object' }, job] }, ['id']],
  ])('%s', (_name, schema, fields) => {
    expect(namedFields(docWith as unknown as OpenApiDocument, schema)).toEqual(fields);
  });
});

describe('open success bodies', () => {
  it('every open 2xx JSON body is listed with its reason', () => {
    expect(open.map((body) => body.key).filter((key) => !(key in OPEN_BODIES))).toEqual([]);
  });

  it('every listed body is still open', () => {
    const openKeys = new Set(open.map((body) => body.key));
    expect(Object.keys(OPEN_BODIES).filter((key) => !openKeys.has(key))).toEqual([]);
  });

  it.each(open.map((body) => [body.key, body] as const))('%s says that its body is not documented', (_key, body) => {
    const texts = [body.responseDescription, ...schemaDescriptions(doc, body.schema)];
    expect(
      texts.some((text) => /not documented/.test(text)),
      texts.join(' | '),
    ).toBe(true);
  });
});

describe('bodies that return a record not documented in full', () => {
  const partial = bodies.flatMap((body) => {
    const record = partlyShownRecord(doc, body.schema);
    return record ? [[body.key, body, record] as const] : [];
  });

  it('exist (the typed "not shown" bodies)', () => {
    expect(partial.map(([key]) => key)).toContain('jobs/get-project-job 200');
  });

  it.each(partial)('%s uses the record by reference and says it is not documented in full', (_key, body, record) => {
    expect(record.allOf as unknown[]).toHaveLength(1);
    expect(isReference((record.allOf as unknown[])[0])).toBe(true);
    expect(record.description).toMatch(/not documented/);
    expect(body.responseDescription).toMatch(/not documented in full/);
  });
});
