import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { compareSampled } from '../scripts/lib/equivalence.ts';

/** The equivalence check (scripts/lib/equivalence.ts): a shape rewrite shows no difference, a change of meaning does. */
const doc = (id: unknown, body: unknown, forbidden: unknown, schemas: Record<string, unknown> = {}) =>
  ({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    components: { schemas },
    paths: {
      '/p/{id}': {
        post: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: id }],
          requestBody: { content: { 'application/json': { schema: body } } },
          responses: { '403': { content: { 'application/json': { schema: forbidden } } } },
        },
      },
    },
  }) as unknown as OpenApiDocument;

const errorBody = { type: 'object', properties: { message: {} } };
const scope = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string', const: 'insufficient_scope' } },
};
const stringOrInteger = { anyOf: [{ type: 'string', minLength: 1 }, { type: 'integer' }] };
const twoArrays = {
  anyOf: [
    { type: 'array', items: { type: 'string' } },
    { type: 'array', items: { type: 'integer' } },
  ],
};
const body = (labels: unknown) => ({ type: 'object', properties: { labels } });
const union403 = { anyOf: [{ $ref: '#/components/schemas/E' }, { $ref: '#/components/schemas/S' }] };
const before = doc(stringOrInteger, body(twoArrays), union403, { E: errorBody, S: scope });

describe('compareSampled', () => {
  it('finds no difference between a document and itself', () => {
    expect(compareSampled(before, structuredClone(before))).toEqual([]);
  });

  it('reads a string path id as the same values as a string-or-integer one (the wire carries text)', () => {
    const after = doc({ type: 'string', minLength: 1 }, body(twoArrays), union403, { E: errorBody, S: scope });
    expect(compareSampled(before, after)).toEqual([]);
  });

  it('reports a body that accepts more, with a value only the new one accepts', () => {
    const oneArray = { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } };
    const after = doc(stringOrInteger, body(oneArray), union403, { E: errorBody, S: scope });
    const differences = compareSampled(before, after, 60);
    expect(differences.map((d) => d.where)).toEqual(['POST /p/{id} › body application/json']);
    const mixed = differences[0]!.onlyNew as { labels: unknown[] };
    expect(new Set(mixed.labels.map((label) => typeof label)).size).toBe(2);
    expect(differences[0]).not.toHaveProperty('onlyOld');
  });

  it('reports a response that refuses what it accepted, through a changed component', () => {
    // A 403 with a non-string `error` was an ErrorBody; the one schema types `error` as a string.
    const oneSchema = { type: 'object', properties: { message: {}, error: { type: 'string' } } };
    const after = doc(stringOrInteger, body(twoArrays), oneSchema);
    const differences = compareSampled(before, after);
    expect(differences.map((d) => d.where)).toEqual(['POST /p/{id} › 403 application/json']);
    expect(differences[0]).toHaveProperty('onlyOld');
  });
});
