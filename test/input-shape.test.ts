import { describe, expect, it } from 'vitest';
import { shapeOf } from '../generators/lib/input-shape.ts';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';

const doc = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} } as unknown as OpenApiDocument;
const ids = { type: 'array', items: { type: 'integer' } };

describe('shapeOf: how a form or query value is read for a schema', () => {
  it.each([
    ['an array of integers', ids, { a: 'i' }],
    ['a list of IDs or the single 0 (assignee_ids)', { anyOf: [ids, { type: 'integer', const: 0 }] }, { a: 'i' }],
    ['a list of IDs or an untyped 0', { anyOf: [ids, { const: 0 }] }, { a: 'i' }],
    ['a list of IDs or a word (None, Any): kept as sent', { anyOf: [ids, { type: 'string', enum: ['None'] }] }, 0],
    ['a list or an object: kept as sent', { anyOf: [ids, { type: 'object', properties: { a: {} } }] }, 0],
    ['an integer or a string: kept as sent', { anyOf: [{ type: 'integer' }, { type: 'string' }] }, 0],
    ['an integer', { type: 'integer' }, 'i'],
    ['a boolean', { type: 'boolean' }, 'b'],
  ])('%s', (_name, schema, expected) => {
    expect(shapeOf(doc, schema)).toEqual(expected);
  });
});
