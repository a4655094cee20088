/** Each conversion of the OpenAPI 3.0 rendition (generators/lib/down-convert.ts), one row per 3.1 shape. */
import { describe, expect, it } from 'vitest';
import { downConvert, downConvertSchema } from '../generators/lib/down-convert.ts';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';

const NOTE = (...fields: string[]) =>
  `Rules OpenAPI 3.0 cannot state are kept as JSON Schema 2020-12 in ${fields.map((f) => `\`${f}\``).join(', ')}.`;

describe('schemas', () => {
  it.each([
    [
      'a type with null',
      { type: ['string', 'null'], format: 'date-time' },
      { type: 'string', nullable: true, format: 'date-time' },
    ],
    ['null first', { type: ['null', 'integer'] }, { type: 'integer', nullable: true }],
    [
      'an enum that lists null',
      { type: ['string', 'null'], enum: ['a', null] },
      { type: 'string', nullable: true, enum: ['a', null] },
    ],
    [
      'an enum with null and no type: the type of its values',
      { enum: ['a', null] },
      { type: 'string', nullable: true, enum: ['a', null] },
    ],
    [
      'oneOf a $ref and null',
      { description: 'd', oneOf: [{ $ref: '#/components/schemas/U' }, { type: 'null' }] },
      {
        description: 'd',
        oneOf: [{ $ref: '#/components/schemas/U' }, { type: 'object', nullable: true, enum: [null] }],
      },
    ],
    [
      'anyOf null and an inline schema',
      { anyOf: [{ type: 'null' }, { type: 'string', minLength: 1 }] },
      { type: 'string', minLength: 1, nullable: true },
    ],
    [
      'an inline member whose keywords clash with the schema',
      { description: 'd', oneOf: [{ type: 'string', description: 'e' }, { type: 'null' }] },
      {
        description: 'd',
        anyOf: [
          { type: 'string', description: 'e' },
          { type: 'string', nullable: true, enum: [null] },
        ],
        type: 'string',
        nullable: true,
      },
    ],
    [
      'oneOf two schemas and null',
      { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
      { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'string', nullable: true, enum: [null] }] },
    ],
    ['null alone', { type: 'null' }, { enum: [null] }],
    ['const', { type: 'string', const: 'failed' }, { type: 'string', enum: ['failed'] }],
    ['const false: the type of its value', { const: false }, { type: 'boolean', enum: [false] }],
    [
      'const true in a condition',
      { properties: { a: { const: true } } },
      { properties: { a: { type: 'boolean', enum: [true] } } },
    ],
    ['an untyped enum of integers and numbers', { enum: [1, 2.5] }, { type: 'number', enum: [1, 2.5] }],
    [
      'an untyped enum of integers',
      { description: 'd', enum: [0, 5] },
      { description: 'd', type: 'integer', enum: [0, 5] },
    ],
    [
      'an untyped enum of two types and null: a branch per type',
      { enum: ['a', 1, null] },
      {
        anyOf: [
          { type: 'string', enum: ['a'] },
          { type: 'integer', enum: [1] },
          { type: 'string', nullable: true, enum: [null] },
        ],
      },
    ],
    ['const null', { const: null }, { enum: [null] }],
    ['examples', { type: 'integer', examples: [1] }, { type: 'integer', example: 1 }],
    ['several examples', { type: 'integer', examples: [1, 2] }, { type: 'integer', example: 1, 'x-examples': [1, 2] }],
    [
      'exclusiveMinimum alone',
      { type: 'integer', exclusiveMinimum: 0 },
      { type: 'integer', minimum: 0, exclusiveMinimum: true },
    ],
    [
      'exclusiveMaximum stricter than maximum',
      { type: 'number', maximum: 10, exclusiveMaximum: 5 },
      { type: 'number', maximum: 5, exclusiveMaximum: true },
    ],
    [
      'minimum stricter than exclusiveMinimum',
      { type: 'number', minimum: 10, exclusiveMinimum: 5 },
      { type: 'number', minimum: 10 },
    ],
    [
      'contentMediaType',
      { type: 'string', contentMediaType: 'application/gzip' },
      { type: 'string', 'x-contentMediaType': 'application/gzip', format: 'binary' },
    ],
    [
      'contentMediaType beside format binary',
      { type: 'string', format: 'binary', contentMediaType: 'image/png' },
      { type: 'string', format: 'binary', 'x-contentMediaType': 'image/png' },
    ],
    [
      'contentEncoding base64',
      { type: 'string', contentEncoding: 'base64' },
      { type: 'string', 'x-contentEncoding': 'base64', format: 'byte' },
    ],
    [
      'annotations 3.0 lacks',
      { $schema: 'https://json-schema.org/draft/2020-12/schema', $comment: 'c', type: 'object' },
      { 'x-schema': 'https://json-schema.org/draft/2020-12/schema', 'x-comment': 'c', type: 'object' },
    ],
    [
      'two types',
      { type: ['integer', 'string'], minLength: 1, format: 'int64', enum: [1, 'a'] },
      {
        anyOf: [
          { type: 'integer', format: 'int64', enum: [1] },
          { type: 'string', minLength: 1, enum: ['a'] },
        ],
      },
    ],
    [
      'two types and null',
      { type: ['integer', 'string', 'null'], description: 'd' },
      {
        description: 'd',
        anyOf: [{ type: 'integer' }, { type: 'string' }, { type: 'integer', nullable: true, enum: [null] }],
      },
    ],
    [
      'two types beside an anyOf',
      { type: ['integer', 'string'], anyOf: [{ minimum: 1 }, { minLength: 1 }] },
      { anyOf: [{ minimum: 1 }, { minLength: 1 }], allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }] },
    ],
    ['an array without items', { type: 'array' }, { type: 'array', items: {} }],
    ['an empty required list', { type: 'object', required: [] }, { type: 'object' }],
    [
      'a $ref with siblings',
      { $ref: '#/components/schemas/U', description: 'd' },
      { allOf: [{ $ref: '#/components/schemas/U' }], description: 'd' },
    ],
    [
      'boolean subschemas',
      { type: 'object', properties: { a: true, b: false }, additionalProperties: false },
      { type: 'object', properties: { a: {}, b: { not: {} } }, additionalProperties: false },
    ],
    [
      'never sent',
      { properties: { token: { not: {}, description: 'Never sent.' } } },
      { properties: { token: { not: {}, description: 'Never sent.' } } },
    ],
    [
      'a not 3.0 can state',
      { type: 'string', not: { pattern: '/\\.\\./' } },
      { type: 'string', not: { pattern: '/\\.\\./' } },
    ],
    [
      'a not whose schema loses a rule',
      { type: 'object', not: { propertyNames: { pattern: '^a' } } },
      { type: 'object', 'x-not': { propertyNames: { pattern: '^a' } }, description: NOTE('x-not') },
    ],
    [
      'if/then/else',
      {
        type: 'object',
        description: 'd',
        if: { properties: { a: { const: 1 } } },
        then: { required: ['b'] },
        else: { not: {} },
      },
      {
        type: 'object',
        description: 'd',
        not: {
          anyOf: [
            { allOf: [{ properties: { a: { type: 'integer', enum: [1] } } }, { not: { required: ['b'] } }] },
            { allOf: [{ not: { properties: { a: { type: 'integer', enum: [1] } } } }, { not: { not: {} } }] },
          ],
        },
      },
    ],
    [
      'if/then without else, beside an allOf',
      { allOf: [{ required: ['a'] }], if: { required: ['a'] }, then: { required: ['b'] } },
      {
        allOf: [{ required: ['a'] }],
        not: { allOf: [{ required: ['a'], properties: { a: {} } }, { not: { required: ['b'] } }] },
      },
    ],
    [
      'if/else without then',
      { if: { required: ['a'] }, else: { required: ['b'] } },
      { not: { allOf: [{ not: { required: ['a'], properties: { a: {} } } }, { not: { required: ['b'] } }] } },
    ],
    [
      'an if whose condition loses a rule in 3.0 (propertyNames): kept in x- fields',
      { if: { propertyNames: { pattern: '^a' } }, then: { required: ['b'] } },
      {
        'x-if': { propertyNames: { pattern: '^a' } },
        'x-then': { required: ['b'] },
        description: NOTE('x-if', 'x-then'),
      },
    ],
    [
      'an if beside a not: kept in x- fields',
      { not: { required: ['c'] }, if: { required: ['a'] }, then: { required: ['b'] } },
      {
        not: { required: ['c'] },
        'x-if': { required: ['a'] },
        'x-then': { required: ['b'] },
        description: NOTE('x-if', 'x-then'),
      },
    ],
    [
      'dependentRequired and dependentSchemas',
      { dependentRequired: { a: ['b'] }, dependentSchemas: { c: { required: ['d'] } } },
      {
        not: {
          anyOf: [
            { allOf: [{ required: ['c'], properties: { c: {} } }, { not: { required: ['d'] } }] },
            { allOf: [{ required: ['a'], properties: { a: {} } }, { not: { required: ['b'] } }] },
          ],
        },
      },
    ],
    [
      'unevaluatedProperties',
      { type: 'object', unevaluatedProperties: false },
      { type: 'object', 'x-unevaluatedProperties': false, description: NOTE('x-unevaluatedProperties') },
    ],
    [
      'patternProperties beside additionalProperties',
      { type: 'object', patternProperties: { '^a': { type: 'string' } }, additionalProperties: { type: 'integer' } },
      {
        type: 'object',
        'x-patternProperties': { '^a': { type: 'string' } },
        additionalProperties: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
        description: NOTE('x-patternProperties'),
      },
    ],
    [
      'patternProperties of a closed object',
      { type: 'object', patternProperties: { '^a': { type: 'string' } }, additionalProperties: false },
      {
        type: 'object',
        'x-patternProperties': { '^a': { type: 'string' } },
        additionalProperties: { anyOf: [{ type: 'string' }] },
        description: NOTE('x-patternProperties'),
      },
    ],
    [
      'a tuple',
      { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
      {
        type: 'array',
        'x-prefixItems': [{ type: 'string' }, { type: 'integer' }],
        items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        maxItems: 2,
        description: NOTE('x-prefixItems'),
      },
    ],
    [
      'a tuple with more items',
      { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'boolean' } },
      {
        type: 'array',
        'x-prefixItems': [{ type: 'string' }],
        items: { anyOf: [{ type: 'string' }, { type: 'boolean' }] },
        description: NOTE('x-prefixItems'),
      },
    ],
    [
      'a tuple whose rest admits a member whole',
      {
        type: 'array',
        prefixItems: [{ type: 'string' }, { type: 'string', enum: ['asc', 'desc'] }],
        items: { type: 'string' },
      },
      {
        type: 'array',
        'x-prefixItems': [{ type: 'string' }, { type: 'string', enum: ['asc', 'desc'] }],
        items: { type: 'string' },
        description: NOTE('x-prefixItems'),
      },
    ],
    [
      'a oneOf whose member loses a rule',
      { oneOf: [{ type: 'string' }, { type: 'object', propertyNames: { pattern: '^a' } }] },
      {
        'x-oneOf': [{ type: 'string' }, { type: 'object', propertyNames: { pattern: '^a' } }],
        anyOf: [
          { type: 'string' },
          { type: 'object', 'x-propertyNames': { pattern: '^a' }, description: NOTE('x-propertyNames') },
        ],
        description: NOTE('x-oneOf'),
      },
    ],
    [
      'nested schemas',
      {
        type: 'array',
        items: { type: 'object', properties: { a: { type: ['string', 'null'] } }, additionalProperties: { const: 1 } },
      },
      {
        type: 'array',
        items: {
          type: 'object',
          properties: { a: { type: 'string', nullable: true } },
          additionalProperties: { type: 'integer', enum: [1] },
        },
      },
    ],
    [
      'allOf and anyOf members',
      { allOf: [{ const: 1 }], anyOf: [{ type: ['string', 'null'] }] },
      { allOf: [{ type: 'integer', enum: [1] }], anyOf: [{ type: 'string', nullable: true }] },
    ],
    [
      'extensions stay as they are',
      { type: 'string', 'x-seed': 'Part 1', 'x-query-schema': { const: 1 } },
      { type: 'string', 'x-seed': 'Part 1', 'x-query-schema': { const: 1 } },
    ],
  ] as [string, unknown, unknown][])('%s', (_name, schema, expected) => {
    const before = structuredClone(schema);
    expect(downConvertSchema(schema)).toEqual(expected);
    expect(schema).toEqual(before);
  });

  it('keeps the order of the keywords, nullable right after type', () => {
    const converted = downConvertSchema({ description: 'd', type: ['string', 'null'], format: 'date-time' });
    expect(Object.keys(converted as object)).toEqual(['description', 'type', 'nullable', 'format']);
  });

  it('a not of a component schema that loses a rule is kept as x-not', () => {
    const components = { Loose: { type: 'object', patternProperties: { '^a': {} } }, Exact: { type: 'string' } };
    expect(downConvertSchema({ not: { $ref: '#/components/schemas/Loose' } }, components)).toEqual({
      'x-not': { $ref: '#/components/schemas/Loose' },
      description: NOTE('x-not'),
    });
    expect(downConvertSchema({ not: { $ref: '#/components/schemas/Exact' } }, components)).toEqual({
      not: { $ref: '#/components/schemas/Exact' },
    });
  });

  it('a nullable reference keeps null a member of its own, typed as the schema it names (OpenAPI 3.0.3 nullable)', () => {
    // 3.0.3: nullable adds null to its own schema's type only, and cannot relax an allOf member or a $ref. The schema
    // is nullable beside the same type too (openapi-zod-client reads nullable there only), and a oneOf an anyOf.
    const components = { Milestone: { type: 'object', properties: { id: { type: 'integer' } } } };
    const schema = { oneOf: [{ $ref: '#/components/schemas/Milestone' }, { type: 'null' }] };
    expect(downConvertSchema(schema, components)).toEqual({
      anyOf: [{ $ref: '#/components/schemas/Milestone' }, { type: 'object', nullable: true, enum: [null] }],
      type: 'object',
      nullable: true,
    });
    const any = { anyOf: [{ type: 'null' }, { $ref: '#/components/schemas/Milestone' }] };
    expect(downConvertSchema(any, components)).toEqual({
      anyOf: [{ type: 'object', nullable: true, enum: [null] }, { $ref: '#/components/schemas/Milestone' }],
      type: 'object',
      nullable: true,
    });
  });

  it('two types, null and an enum: null is a branch only where the enum lists it', () => {
    expect(downConvertSchema({ type: ['integer', 'string', 'null'], enum: [1, 'a'] })).toEqual({
      anyOf: [
        { type: 'integer', enum: [1] },
        { type: 'string', enum: ['a'] },
      ],
    });
    expect(downConvertSchema({ type: ['integer', 'string', 'null'], enum: [1, null] })).toEqual({
      anyOf: [
        { type: 'integer', enum: [1] },
        { type: 'integer', nullable: true, enum: [null] },
      ],
    });
  });

  it('a nullable primitive component is written in place of its reference (openapi-zod-client drops its null)', () => {
    const components = { NullableTimestamp: { type: ['string', 'null'], format: 'date-time' } };
    expect(downConvertSchema({ $ref: '#/components/schemas/NullableTimestamp' }, components)).toEqual({
      type: 'string',
      nullable: true,
      format: 'date-time',
    });
    // Beside a description, the nullable primitive's keywords stand in the schema itself, not in an allOf member.
    const described = { $ref: '#/components/schemas/NullableTimestamp', description: 'Last contact.' };
    expect(downConvertSchema(described, components)).toEqual({
      type: 'string',
      nullable: true,
      format: 'date-time',
      description: 'Last contact.',
    });
    const object = { Thing: { type: ['object', 'null'], properties: {} } };
    expect(downConvertSchema({ $ref: '#/components/schemas/Thing' }, object)).toEqual({
      $ref: '#/components/schemas/Thing',
    });
  });

  it('a tuple whose members repeat admits each distinct member once', () => {
    const schema = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'string' }], items: false };
    expect((downConvertSchema(schema) as { items: unknown }).items).toEqual({ type: 'string' });
  });

  it('refuses a reference into $defs, which 3.0 has no form for', () => {
    expect(() => downConvertSchema({ not: { $ref: '#/components/schemas/A/$defs/B' } })).toThrow(/\$defs/);
  });
});

describe('the document', () => {
  const doc = {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: { title: 'T', version: '1.0.0', summary: 'S', license: { name: 'Proprietary', identifier: 'LicenseRef-X' } },
    webhooks: { ping: { post: { responses: { '200': { description: 'ok' } } } } },
    paths: {
      '/a': {
        parameters: [{ name: 'p', in: 'query', schema: { type: ['integer', 'null'] } }],
        get: {
          responses: {
            '200': {
              description: 'ok',
              headers: { 'X-Total': { schema: { type: 'integer', exclusiveMinimum: 0 } } },
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/A' },
                  examples: { One: { value: { schema: { const: 1 }, type: ['x'] } } },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: { A: { type: 'object', properties: { at: { type: ['string', 'null'] } }, examples: [{ at: null }] } },
      parameters: { Q: { name: 'q', in: 'query', schema: { const: 'x' } } },
    },
  } as unknown as OpenApiDocument;

  it('is OpenAPI 3.0.3, with the 3.1-only fields kept as extensions and every schema converted', () => {
    const before = structuredClone(doc);
    expect(downConvert(doc)).toEqual({
      openapi: '3.0.3',
      'x-jsonSchemaDialect': 'https://spec.openapis.org/oas/3.1/dialect/base',
      info: {
        title: 'T',
        version: '1.0.0',
        'x-summary': 'S',
        license: { name: 'Proprietary', 'x-identifier': 'LicenseRef-X' },
      },
      'x-webhooks': { ping: { post: { responses: { '200': { description: 'ok' } } } } },
      paths: {
        '/a': {
          parameters: [{ name: 'p', in: 'query', schema: { type: 'integer', nullable: true } }],
          get: {
            responses: {
              '200': {
                description: 'ok',
                headers: { 'X-Total': { schema: { type: 'integer', minimum: 0, exclusiveMinimum: true } } },
                content: {
                  'application/json': {
                    schema: { $ref: '#/components/schemas/A' },
                    // Example values are data: never converted.
                    examples: { One: { value: { schema: { const: 1 }, type: ['x'] } } },
                  },
                },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          A: { type: 'object', properties: { at: { type: 'string', nullable: true } }, example: { at: null } },
        },
        parameters: { Q: { name: 'q', in: 'query', schema: { type: 'string', enum: ['x'] } } },
      },
    });
    expect(doc).toEqual(before);
  });

  it('refuses a mutualTLS security scheme, which 3.0 has no form for', () => {
    const withTls = { ...doc, components: { securitySchemes: { tls: { type: 'mutualTLS' } } } } as OpenApiDocument;
    expect(() => downConvert(withTls)).toThrow(/mutualTLS/);
  });
});

describe('components written in place', () => {
  it('leaves out a nullable primitive component that every reference now writes in place, and keeps the others', () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 'T', version: '1.0.0' },
      paths: {},
      components: {
        schemas: {
          NullableTimestamp: { type: ['string', 'null'], format: 'date-time' },
          Timestamp: { type: 'string', format: 'date-time' },
          Runner: {
            type: 'object',
            properties: {
              contacted_at: { $ref: '#/components/schemas/NullableTimestamp', description: 'Last contact.' },
              created_at: { $ref: '#/components/schemas/Timestamp' },
            },
          },
        },
      },
    } as unknown as OpenApiDocument;
    const schemas = (downConvert(doc).components as { schemas: Record<string, unknown> }).schemas;
    expect(Object.keys(schemas)).toEqual(['Timestamp', 'Runner']);
  });
});
