import { describe, expect, it } from 'vitest';
import { listOperations } from '../generators/lib/document.ts';
import { fileLimits } from '../generators/lib/input-shape.ts';
import { toJsonSchema } from '../generators/lib/json-schema.ts';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { portableShapes } from '../scripts/lib/portable-shapes.ts';

/** The bundle step's rewrites (scripts/lib/portable-shapes.ts): required lists beside their properties, integer formats. */
const doc = (schemas: Record<string, unknown>, paths: Record<string, unknown> = {}) =>
  ({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths,
    components: { schemas },
  }) as unknown as OpenApiDocument;
const schemasOf = (d: OpenApiDocument) => d.components?.schemas as Record<string, Record<string, unknown>>;

const rule = { type: 'object', if: { required: ['state'] }, then: { required: ['merged_at'] } };
const fields = {
  description: 'The fields.',
  'x-seed': 'Part 3',
  'x-varies-with-caller': true,
  type: 'object',
  properties: { id: { type: 'integer', format: 'int64' }, state: { type: 'string' }, merged_at: { type: 'string' } },
  allOf: [rule],
};

describe('required lists beside their properties', () => {
  it("copies the base's properties, rules and shape keys beside the record's required list", () => {
    const out = portableShapes(
      doc({
        Fields: structuredClone(fields),
        Record: {
          description: 'The record.',
          allOf: [{ $ref: '#/components/schemas/Fields' }],
          required: ['id', 'state'],
        },
      }),
    );
    expect(schemasOf(out).Record).toEqual({
      description: 'The record.',
      'x-varies-with-caller': true,
      type: 'object',
      required: ['id', 'state'],
      properties: fields.properties,
      // The base's only rule, copied, then stands at the record's top level.
      if: rule.if,
      then: rule.then,
    });
  });

  it('leaves out a base nothing names any more, and keeps one still named', () => {
    const alone = portableShapes(
      doc({
        Fields: structuredClone(fields),
        A: { allOf: [{ $ref: '#/components/schemas/Fields' }], required: ['id'] },
      }),
    );
    expect(Object.keys(schemasOf(alone))).toEqual(['A']);
    const named = portableShapes(
      doc({
        Fields: structuredClone(fields),
        A: { allOf: [{ $ref: '#/components/schemas/Fields' }], required: ['id'] },
        B: { type: 'array', items: { $ref: '#/components/schemas/Fields' } },
      }),
    );
    expect(Object.keys(schemasOf(named))).toEqual(['Fields', 'A', 'B']);
  });

  it('merges a member that holds only required names, in a response', () => {
    const out = portableShapes(
      doc(
        { Base: { type: 'object', required: ['id'], properties: { id: {}, error: {} } } },
        {
          '/a': {
            get: {
              responses: {
                '200': {
                  content: {
                    'application/json': {
                      schema: {
                        allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', required: ['error'] }],
                      },
                    },
                  },
                },
              },
            },
          },
        },
      ),
    );
    const schema = (
      out.paths['/a'] as { get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }
    ).get.responses['200']!.content['application/json']!.schema;
    expect(schema).toEqual({ type: 'object', required: ['id', 'error'], properties: { id: {}, error: {} } });
  });

  it('leaves alone a record whose required list names its own properties', () => {
    const record = {
      allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', required: ['x'], properties: { x: {} } }],
    };
    const out = portableShapes(doc({ Base: { type: 'object', properties: { id: {} } }, R: structuredClone(record) }));
    expect(schemasOf(out).R).toEqual(record);
  });

  it('refuses a base that is not a component with properties', () => {
    expect(() =>
      portableShapes(
        doc({ B: { type: 'string' }, A: { allOf: [{ $ref: '#/components/schemas/B' }], required: ['id'] } }),
      ),
    ).toThrow(/Cannot copy #\/components\/schemas\/B/);
  });
});

describe('integer formats', () => {
  const cases: [string, Record<string, unknown>, string | undefined][] = [
    ['an id', { type: 'integer' }, 'int64'],
    ['a nullable count', { type: ['integer', 'null'] }, 'int64'],
    ['a value bounded within 32 bits', { type: 'integer', minimum: 1, maximum: 100 }, 'int32'],
    ['a value with one bound', { type: 'integer', minimum: 0 }, 'int64'],
    ['a bound beyond 32 bits', { type: 'integer', minimum: 0, maximum: 2 ** 31 }, 'int64'],
    ['an enum of small values', { type: 'integer', enum: [0, 10, 50] }, 'int32'],
    ['a const', { type: 'integer', const: 7 }, 'int32'],
    ['a format already given', { type: 'integer', format: 'int32', minimum: 0, maximum: 9 }, 'int32'],
    ['a number', { type: 'number' }, undefined],
  ];
  it.each(cases)('%s', (_title, schema, format) => {
    const out = portableShapes(doc({ A: { type: 'object', properties: { value: structuredClone(schema) } } }));
    const property = (schemasOf(out).A!.properties as Record<string, Record<string, unknown>>).value!;
    expect(property.format).toBe(format);
    if (format) expect(Object.keys(property).slice(0, 2)).toEqual(['type', 'format']);
  });

  it('leaves data and our own query rules alone', () => {
    const example = { type: 'integer' };
    const querySchema = { properties: { page: { type: 'integer' } } };
    const out = portableShapes(
      doc(
        { A: { type: 'object', examples: [example], default: { type: 'integer' } } },
        {
          '/a': { get: { 'x-query-schema': structuredClone(querySchema), responses: {} } },
        },
      ),
    );
    expect(schemasOf(out).A).toEqual({ type: 'object', examples: [example], default: { type: 'integer' } });
    expect((out.paths['/a'] as { get: Record<string, unknown> }).get['x-query-schema']).toEqual(querySchema);
  });
});

describe("a file's size limit", () => {
  const upload = (avatar: Record<string, unknown>) =>
    doc(
      {},
      {
        '/avatar': {
          put: {
            operationId: 'users/upload-avatar',
            requestBody: {
              content: {
                'multipart/form-data': { schema: { type: 'object', properties: { avatar, note: { type: 'string' } } } },
              },
            },
            responses: {},
          },
        },
      },
    );
  const cases: [string, Record<string, unknown>, number | null][] = [
    [
      'x-max-file-size is the limit the server enforces',
      { type: 'string', format: 'binary', 'x-max-file-size': 204800 },
      204800,
    ],
    ['a file without one has no limit of its own', { type: 'string', format: 'binary' }, null],
    ['maxLength on a file is no byte limit', { type: 'string', format: 'binary', maxLength: 10 }, null],
  ];
  it.each(cases)('%s', (_title, avatar, limit) => {
    const [entry] = listOperations(upload(avatar));
    expect(fileLimits(upload(avatar), entry!)).toEqual({ avatar: limit });
  });
});

describe('an anyOf of single types, as our validators compile it', () => {
  const ref = (r: string) => r;
  const cases: [string, unknown, unknown][] = [
    [
      'a string or an integer: the type list the sources wrote before (same values, same URL conversions)',
      {
        anyOf: [
          { type: 'string', minLength: 1 },
          { type: 'integer', format: 'int64' },
        ],
      },
      { type: ['integer', 'string'], minLength: 1, format: 'int64' },
    ],
    [
      'a property of that kind',
      { properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } },
      { properties: { id: { type: ['integer', 'string'] } } },
    ],
    [
      'members of one type are left alone',
      { anyOf: [{ type: 'string' }, { type: 'string', minLength: 2 }] },
      { anyOf: [{ type: 'string' }, { type: 'string', minLength: 2 }] },
    ],
    [
      'objects are left alone',
      { anyOf: [{ type: 'string' }, { type: 'object', properties: {} }] },
      { anyOf: [{ type: 'string' }, { type: 'object', properties: {} }] },
    ],
    [
      'a keyword of another type is left alone',
      { anyOf: [{ type: 'string', minimum: 1 }, { type: 'integer' }] },
      { anyOf: [{ type: 'string', minimum: 1 }, { type: 'integer' }] },
    ],
    [
      'a string format is left alone',
      { anyOf: [{ type: 'string', format: 'date' }, { type: 'integer' }] },
      { anyOf: [{ type: 'string', format: 'date' }, { type: 'integer' }] },
    ],
  ];
  it.each(cases)('%s', (_title, schema, want) => {
    expect(toJsonSchema(schema, ref)).toEqual(want);
  });
});

describe("a schema's only rule at its top level", () => {
  const base = { $ref: '#/components/schemas/Base' };
  const baseSchema = { type: 'object', properties: { state: { type: 'string' } } };
  const condition = { required: ['state'], properties: { state: { const: 'merged' } } };
  const then = { required: ['merged_at'] };

  it("moves a sole rules member's if/then (and its description) to the schema", () => {
    const out = portableShapes(
      doc({
        Base: baseSchema,
        A: { description: 'A.', allOf: [base, { description: 'Merged.', type: 'object', if: condition, then }] },
        B: { allOf: [{ type: 'object', if: condition, then, else: then }] },
      }),
    );
    expect(schemasOf(out).A).toEqual({ description: 'A. Merged.', allOf: [base], type: 'object', if: condition, then });
    expect(schemasOf(out).B).toEqual({ type: 'object', if: condition, then, else: then });
  });

  it('leaves several rules members, and a schema with a rule of its own, where they are', () => {
    const rules = (state: string) => ({ type: 'object', if: { properties: { state: { const: state } } }, then });
    const several = { allOf: [base, rules('a'), rules('b')] };
    const own = { allOf: [base, rules('a')], if: condition, then };
    const withProperties = { allOf: [base, { ...rules('a'), properties: { state: { enum: ['a'] } } }] };
    const out = portableShapes(
      doc({
        Base: baseSchema,
        S: structuredClone(several),
        O: structuredClone(own),
        P: structuredClone(withProperties),
      }),
    );
    expect(schemasOf(out).S).toEqual(several);
    expect(schemasOf(out).O).toEqual(own);
    // A member with properties beside its rule is split (below): the properties stay a member, the rule goes on top.
    expect(schemasOf(out).P).toEqual({
      allOf: [base, { type: 'object', properties: { state: { enum: ['a'] } } }],
      type: 'object',
      if: rules('a').if,
      then,
    });
  });
});

describe('a rule apart from the properties', () => {
  const base = { $ref: '#/components/schemas/Base' };
  const baseSchema = { type: 'object', properties: { status: { type: 'string' } } };
  const condition = { required: ['status'], properties: { status: { const: 'failed' } } };
  const then = { required: ['failure_reason'] };

  it("splits a member's properties from its rule, which goes to the top level (Job)", () => {
    const member = {
      type: 'object',
      required: ['runner'],
      properties: { failure_reason: { type: 'string' }, runner: {} },
      if: condition,
      then,
    };
    const out = portableShapes(doc({ Base: baseSchema, Job: { description: 'A job.', allOf: [base, member] } }));
    expect(schemasOf(out).Job).toEqual({
      description: 'A job.',
      allOf: [base, { type: 'object', required: ['runner'], properties: member.properties }],
      type: 'object',
      if: condition,
      then,
    });
  });

  it('keeps the rule in a member of its own beside a rule of the schema', () => {
    const member = { type: 'object', properties: { status: { enum: ['a'] } }, if: condition, then };
    const out = portableShapes(doc({ Base: baseSchema, B: { if: condition, then, allOf: [base, member] } }));
    expect(schemasOf(out).B).toEqual({
      if: condition,
      then,
      allOf: [base, { type: 'object', properties: member.properties }, { type: 'object', if: condition, then }],
    });
  });
});
