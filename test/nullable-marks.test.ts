/** The bundle step's `x-nullable` marks (scripts/lib/nullable-marks.ts): one row per JSON Schema form, and the bundle. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { admitsNull, markNullable } from '../scripts/lib/nullable-marks.ts';
import { ROOT } from '../scripts/lib/paths.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const components = {
  NullableTimestamp: { type: ['string', 'null'], format: 'date-time' },
  Timestamp: { type: 'string', format: 'date-time' },
  User: { type: 'object', properties: { id: { type: 'integer' } } },
};

describe('admitsNull', () => {
  it.each([
    ['a type list with null', { type: ['number', 'null'] }, true],
    ['null alone', { type: 'null' }, true],
    ['const null', { const: null }, true],
    ['oneOf a $ref and null', { oneOf: [{ $ref: '#/components/schemas/User' }, { type: 'null' }] }, true],
    ['anyOf with null', { anyOf: [{ type: 'string' }, { type: 'null' }] }, true],
    ['a $ref to a nullable component', { $ref: '#/components/schemas/NullableTimestamp' }, true],
    ['a $ref with a description', { $ref: '#/components/schemas/NullableTimestamp', description: 'd' }, true],
    ['one type', { type: 'number' }, false],
    ['a $ref to a non-null component', { $ref: '#/components/schemas/Timestamp' }, false],
    ['oneOf without null', { oneOf: [{ type: 'string' }, { type: 'integer' }] }, false],
    ['an enum that lists null is read by its type', { type: 'string', enum: ['a', null] }, false],
  ])('%s', (_name, schema, expected) => {
    expect(admitsNull(schema, components)).toBe(expected);
  });

  it('stops at a reference cycle', () => {
    const cyclic = { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } };
    expect(admitsNull({ $ref: '#/components/schemas/A' }, cyclic)).toBe(false);
  });
});

describe('markNullable', () => {
  it('marks the properties that admit null, in allOf members and inline bodies too, and nothing else', () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 'T', version: '1.0.0' },
      paths: {},
      components: {
        schemas: {
          ...components,
          Job: {
            allOf: [
              { $ref: '#/components/schemas/User' },
              { type: 'object', properties: { at: { $ref: '#/components/schemas/NullableTimestamp' } } },
            ],
          },
          Base: { type: 'object', properties: { n: { type: ['number', 'null'] }, s: { type: 'string' } } },
        },
      },
    } as unknown as OpenApiDocument;
    const schemas = markNullable(doc).components?.schemas as Record<string, Json>;
    expect(schemas.Base).toEqual({
      type: 'object',
      properties: { n: { type: ['number', 'null'], 'x-nullable': true }, s: { type: 'string' } },
    });
    expect((schemas.Job as { allOf: Json[] }).allOf[1]).toEqual({
      type: 'object',
      properties: { at: { $ref: '#/components/schemas/NullableTimestamp', 'x-nullable': true } },
    });
    // A component that is nullable itself is not a property: no mark.
    expect(schemas.NullableTimestamp).toEqual(components.NullableTimestamp);
  });
});

describe('the bundle', () => {
  const doc = JSON.parse(readFileSync(join(ROOT, 'generated', 'openapi', 'openapi.json'), 'utf8')) as Json;
  const schemas = ((doc.components as Json).schemas ?? {}) as Record<string, unknown>;

  /** Every property schema of the document with where it is. */
  function* properties(node: unknown, pointer = '#'): Generator<[string, Json]> {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) yield* properties(item, `${pointer}/${i}`);
      return;
    }
    if (!isObject(node)) return;
    if (isObject(node.properties))
      for (const [name, property] of Object.entries(node.properties))
        if (isObject(property)) yield [`${pointer}/properties/${name}`, property];
    for (const [key, value] of Object.entries(node))
      if (!['example', 'examples', 'default', 'enum', 'const', 'value'].includes(key))
        yield* properties(value, `${pointer}/${key}`);
  }

  it('marks exactly the properties that admit null', () => {
    const all = [...properties(doc)];
    const marked = all.filter(([, property]) => property['x-nullable'] === true);
    expect(marked.length).toBeGreaterThan(100);
    expect(all.filter(([, p]) => admitsNull(p, schemas) !== (p['x-nullable'] === true)).map(([at]) => at)).toEqual([]);
  });

  it('the sources never write the mark (the bundle step does)', () => {
    const files = readdirSync(join(ROOT, 'openapi'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.yaml'),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => readFileSync(join(ROOT, 'openapi', f), 'utf8').includes('x-nullable'))).toEqual([]);
  });
});
