import { describe, expect, it } from 'vitest';
import portableShapes, { shapes } from '../../scripts/spectral/portable-shapes.js';

/** A document whose component schemas are `schemas`. */
const withSchemas = (schemas: Record<string, unknown>) => ({ components: { schemas } });
/** A document with one JSON response of schema `schema`. */
const withResponse = (schema: unknown) => ({
  paths: { '/a': { get: { responses: { '200': { content: { 'application/json': { schema } } } } } } },
});
const pathParameter = (name: string, schema: object = { type: 'string' }) => ({
  name,
  in: 'path',
  required: true,
  schema,
});

/** [shape, title, document, the paths of the problems (dotted)] */
const cases: [string, string, object, string[]][] = [
  [
    'no-boolean-schema',
    'accepts { not: {} } and {}',
    withSchemas({ A: { properties: { token: { not: {} } }, additionalProperties: {} } }),
    [],
  ],
  [
    'no-boolean-schema',
    'rejects a false property',
    withSchemas({ A: { properties: { token: false } } }),
    ['components.schemas.A.properties.token'],
  ],
  [
    'no-boolean-schema',
    'rejects additionalProperties: true',
    withSchemas({ A: { type: 'object', additionalProperties: true } }),
    ['components.schemas.A.additionalProperties'],
  ],
  [
    'no-boolean-schema',
    'rejects a boolean items schema in a response',
    withResponse({ type: 'array', items: true }),
    ['paths./a.get.responses.200.content.application/json.schema.items'],
  ],
  ['no-boolean-schema', 'ignores booleans in examples', withSchemas({ A: { type: 'boolean', examples: [false] } }), []],

  [
    'required-beside-properties',
    'accepts required beside its properties',
    withSchemas({ A: { required: ['id'], properties: { id: { type: 'integer' } } } }),
    [],
  ],
  [
    'required-beside-properties',
    'accepts "one of these fields" members',
    withSchemas({ A: { properties: { cn: {}, filter: {} }, oneOf: [{ required: ['cn'] }, { required: ['filter'] }] } }),
    [],
  ],
  [
    'required-beside-properties',
    'accepts a rule in if/then',
    withSchemas({ A: { properties: { a: {} }, if: { required: ['a'] }, then: { required: ['b'] } } }),
    [],
  ],
  [
    'required-beside-properties',
    'rejects required beside an allOf base (hey-api reads the base with every field optional)',
    withSchemas({
      B: { properties: { id: {} } },
      A: { allOf: [{ $ref: '#/components/schemas/B' }], required: ['id'] },
    }),
    ['components.schemas.A.required'],
  ],
  [
    'required-beside-properties',
    'rejects an allOf member that holds only required',
    withResponse({ allOf: [{ $ref: '#/components/schemas/B' }, { type: 'object', required: ['id'] }] }),
    ['paths./a.get.responses.200.content.application/json.schema.allOf.1.required'],
  ],
  [
    'required-beside-properties',
    'rejects a name its properties lack',
    withSchemas({ A: { required: ['id', 'name'], properties: { id: {} } } }),
    ['components.schemas.A.required'],
  ],

  ['integer-format', 'accepts int64', withSchemas({ A: { type: 'integer', format: 'int64' } }), []],
  [
    'integer-format',
    'accepts int32 within bounds',
    withSchemas({ A: { type: 'integer', format: 'int32', minimum: 1, maximum: 100 } }),
    [],
  ],
  [
    'integer-format',
    'accepts int32 on a small enum',
    withSchemas({ A: { type: ['integer', 'null'], format: 'int32', enum: [10, 20, null] } }),
    [],
  ],
  ['integer-format', 'ignores numbers', withSchemas({ A: { type: 'number' } }), []],
  [
    'integer-format',
    'rejects an integer without a format',
    withSchemas({ A: { properties: { id: { type: 'integer' } } } }),
    ['components.schemas.A.properties.id'],
  ],
  [
    'integer-format',
    'rejects a nullable integer without a format',
    withResponse({ type: ['integer', 'null'] }),
    ['paths./a.get.responses.200.content.application/json.schema'],
  ],
  [
    'integer-format',
    'rejects int32 with one bound',
    withSchemas({ A: { type: 'integer', format: 'int32', minimum: 0 } }),
    ['components.schemas.A.format'],
  ],
  [
    'integer-format',
    'rejects int32 beyond 32 bits',
    withSchemas({ A: { type: 'integer', format: 'int32', minimum: 0, maximum: 2 ** 31 } }),
    ['components.schemas.A.format'],
  ],
  [
    'integer-format',
    'rejects a path parameter without a format',
    { paths: { '/a/{id}': { parameters: [pathParameter('id', { type: 'integer' })] } } },
    ['paths./a/{id}.parameters.0.schema'],
  ],

  [
    'file-size',
    'accepts x-max-file-size',
    withSchemas({ A: { properties: { f: { type: 'string', format: 'binary', 'x-max-file-size': 204800 } } } }),
    [],
  ],
  ['file-size', 'accepts maxLength on a text', withSchemas({ A: { type: 'string', maxLength: 255 } }), []],
  [
    'file-size',
    'rejects maxLength on a binary',
    withSchemas({ A: { type: 'string', format: 'binary', maxLength: 204800 } }),
    ['components.schemas.A.maxLength'],
  ],
  [
    'file-size',
    'rejects maxLength on a contentMediaType file',
    withSchemas({ A: { type: 'string', contentMediaType: 'image/png', maxLength: 10 } }),
    ['components.schemas.A.maxLength'],
  ],
  [
    'file-size',
    'rejects a size that is not bytes',
    withSchemas({ A: { type: 'string', format: 'binary', 'x-max-file-size': '200 KiB' } }),
    ['components.schemas.A.x-max-file-size'],
  ],

  [
    'additional-properties-admit',
    'accepts an open map beside properties',
    withSchemas({ A: { properties: { a: { type: 'boolean' } }, additionalProperties: {} } }),
    [],
  ],
  [
    'additional-properties-admit',
    'accepts a map whose type admits every property',
    withSchemas({
      A: { properties: { a: { type: 'integer' } }, additionalProperties: { type: ['number', 'string'] } },
    }),
    [],
  ],
  [
    'additional-properties-admit',
    'rejects a string map beside a boolean (TS2411)',
    withSchemas({
      A: {
        properties: { ssl: { type: 'boolean' }, key: { type: 'string' } },
        additionalProperties: { type: 'string' },
      },
    }),
    ['components.schemas.A.additionalProperties'],
  ],
  [
    'additional-properties-admit',
    'rejects a map beside a property of another component type',
    withSchemas({
      N: { type: 'integer' },
      A: { properties: { n: { $ref: '#/components/schemas/N' } }, additionalProperties: { type: 'string' } },
    }),
    ['components.schemas.A.additionalProperties'],
  ],

  [
    'path-parameter-once',
    'accepts a path parameter declared on the path item only',
    { paths: { '/f/{p}': { parameters: [pathParameter('p')], get: { parameters: [{ name: 'ref', in: 'query' }] } } } },
    [],
  ],
  [
    'path-parameter-once',
    'accepts the parameter declared on each operation',
    { paths: { '/f/{p}': { get: { parameters: [pathParameter('p')] }, put: { parameters: [pathParameter('p')] } } } },
    [],
  ],
  [
    'path-parameter-once',
    'rejects a path parameter on the path item and again on an operation (through $ref)',
    {
      components: { parameters: { P: pathParameter('p') } },
      paths: {
        '/f/{p}': { parameters: [{ $ref: '#/components/parameters/P' }], put: { parameters: [pathParameter('p')] } },
      },
    },
    ['paths./f/{p}.put.parameters.0'],
  ],

  [
    'rules-member-type',
    'accepts a typed rules member',
    withSchemas({ A: { type: 'object', allOf: [{ type: 'object', if: {}, then: {} }] } }),
    [],
  ],
  [
    'rules-member-type',
    'accepts a member with a $ref',
    withSchemas({ A: { allOf: [{ $ref: '#/components/schemas/B' }] } }),
    [],
  ],
  [
    'rules-member-type',
    'rejects an untyped if/then member',
    withSchemas({ A: { type: 'object', allOf: [{ description: 'x', if: {}, then: {} }] } }),
    ['components.schemas.A.allOf.0'],
  ],

  [
    'rule-at-top',
    'accepts a rule at the top level, several rules members, and a member with properties',
    withSchemas({
      A: { allOf: [{ $ref: '#/components/schemas/B' }], if: {}, then: {} },
      C: {
        allOf: [
          { type: 'object', if: {}, then: {} },
          { type: 'object', if: {}, else: {} },
        ],
      },
      D: { allOf: [{ type: 'object', properties: { s: {} }, if: {}, then: {} }] },
    }),
    [],
  ],
  [
    'rule-at-top',
    "rejects a schema's only rule in an allOf member",
    withResponse({ allOf: [{ $ref: '#/components/schemas/B' }, { type: 'object', if: {}, then: {} }] }),
    ['paths./a.get.responses.200.content.application/json.schema.allOf.1'],
  ],

  ['single-type', 'accepts one type and null', withSchemas({ A: { type: ['string', 'null'] } }), []],
  [
    'single-type',
    'accepts an anyOf of single types',
    withSchemas({ A: { anyOf: [{ type: 'string' }, { type: 'integer', format: 'int64' }] } }),
    [],
  ],
  [
    'single-type',
    'rejects two non-null types',
    withSchemas({ A: { type: ['integer', 'string'] } }),
    ['components.schemas.A.type'],
  ],

  [
    'server-variables',
    'accepts default and enum',
    { servers: [{ url: '{b}/v4', variables: { b: { default: 'x', enum: ['x'] } } }] },
    [],
  ],
  [
    'server-variables',
    "rejects a variable's description (swagger-parser's 3.1 schema)",
    { servers: [{ url: '{b}/v4', variables: { b: { default: 'x', description: 'Base' } } }] },
    ['servers.0.variables.b.description'],
  ],

  [
    'path-parameter-string',
    'accepts a string id and an integer iid',
    {
      paths: {
        '/p/{id}/m/{iid}': {
          parameters: [pathParameter('id', { type: 'string', minLength: 1 })],
          get: { parameters: [pathParameter('iid', { type: 'integer', format: 'int64' })] },
        },
      },
    },
    [],
  ],
  [
    'path-parameter-string',
    'rejects an id that is a string or an integer (through $ref)',
    {
      components: { schemas: { Ref: { anyOf: [{ type: 'string' }, { type: 'integer', format: 'int64' }] } } },
      paths: { '/p/{id}': { get: { parameters: [pathParameter('id', { $ref: '#/components/schemas/Ref' })] } } },
    },
    ['paths./p/{id}.get.parameters.0.schema'],
  ],
  [
    'path-parameter-string',
    'rejects a type list',
    { paths: { '/p/{id}': { parameters: [pathParameter('id', { type: ['string', 'integer'] })], get: {} } } },
    ['paths./p/{id}.parameters.0.schema'],
  ],

  [
    'no-never-property',
    'accepts a record that leaves a never-sent field out',
    withSchemas({ A: { description: 'The token is never sent.', properties: { id: { type: 'string' } } } }),
    [],
  ],
  [
    'no-never-property',
    'rejects a not: {} property',
    withSchemas({ A: { properties: { token: { not: {} } } } }),
    ['components.schemas.A.properties.token'],
  ],
  [
    'no-never-property',
    'rejects one in a response allOf member',
    withResponse({ allOf: [{ $ref: '#/components/schemas/B' }, { properties: { token: { not: {} } } }] }),
    ['paths./a.get.responses.200.content.application/json.schema.allOf.1.properties.token'],
  ],

  [
    'rule-beside-properties',
    'accepts a rule on the schema beside its properties, and a member with the rule alone',
    withSchemas({
      A: { allOf: [{ $ref: '#/components/schemas/B' }], properties: { s: {} }, if: {}, then: {} },
      C: { allOf: [{ type: 'object', description: 'x', if: {}, then: {} }] },
    }),
    [],
  ],
  [
    'rule-beside-properties',
    'rejects a member with a rule beside properties (Job)',
    withSchemas({
      Job: {
        allOf: [
          { $ref: '#/components/schemas/JobBase' },
          { type: 'object', required: ['runner'], properties: { runner: {} }, if: {}, then: {} },
        ],
      },
    }),
    ['components.schemas.Job.allOf.1'],
  ],

  [
    'inline-name',
    'accepts a component, a title, a nullable reference and a plain string',
    withSchemas({
      Project: { type: 'object' },
      RepositoryFileEncoding: { type: 'string', enum: ['text'] },
      RepositoryFile: {
        properties: {
          encoding: { $ref: '#/components/schemas/RepositoryFileEncoding' },
          project: { title: 'AllowedProject', type: 'object', properties: { id: {} } },
          file: { oneOf: [{ $ref: '#/components/schemas/Project' }, { type: 'null' }] },
          name: { type: 'string' },
        },
      },
    }),
    [],
  ],
  [
    'inline-name',
    "rejects an inline enum named as a component (oapi-codegen's RepositoryFileEncoding)",
    withSchemas({
      RepositoryFileEncoding: { type: 'string', enum: ['text'] },
      RepositoryFile: { properties: { encoding: { type: 'string', enum: ['base64'] } } },
    }),
    ['components.schemas.RepositoryFile.properties.encoding'],
  ],
  [
    'inline-name',
    "rejects an inline object named as a component (datamodel-code-generator's Project)",
    withSchemas({
      Project: { type: 'object' },
      AllowedAgents: { properties: { project: { type: 'object', properties: { id: {} } } } },
    }),
    ['components.schemas.AllowedAgents.properties.project'],
  ],
  [
    'inline-name',
    "rejects an inline object in an inline union member (openapi-python-client's InvitationCreateResult message)",
    withSchemas({
      InvitationCreateResult: {
        oneOf: [
          { type: 'object', properties: { status: { const: 'success' } } },
          {
            type: 'object',
            properties: {
              status: { const: 'error' },
              message: { title: 'Failures', type: 'object', additionalProperties: { type: 'string' } },
              items: { type: 'array', items: { type: 'object' } },
              owner: { anyOf: [{ type: 'object', properties: { id: {} } }, { type: 'null' }] },
            },
          },
        ],
      },
    }),
    [
      'components.schemas.InvitationCreateResult.oneOf.1.properties.message',
      'components.schemas.InvitationCreateResult.oneOf.1.properties.items',
      'components.schemas.InvitationCreateResult.oneOf.1.properties.owner',
    ],
  ],
  [
    'inline-name',
    'accepts a component, an enum or a scalar in an inline union member, and an inline object in a property union',
    withSchemas({
      Failures: { type: 'object', additionalProperties: { type: 'string' } },
      InvitationCreateResult: {
        anyOf: [
          { type: 'object', properties: { status: { type: 'string', enum: ['success'] }, count: { type: 'integer' } } },
          { type: 'object', properties: { message: { $ref: '#/components/schemas/Failures' } } },
          { $ref: '#/components/schemas/Failures' },
        ],
        properties: { p: { oneOf: [{ type: 'object', properties: { a: { type: 'object' } } }, { type: 'string' }] } },
      },
    }),
    [],
  ],

  [
    'array-of-any',
    'accepts one array with anyOf items',
    withSchemas({ A: { type: 'array', items: { anyOf: [{ type: 'string' }, { $ref: '#/components/schemas/L' }] } } }),
    [],
  ],
  [
    'array-of-any',
    'rejects anyOf of two arrays (MergeRequest.labels)',
    withSchemas({
      L: { type: 'object' },
      A: {
        anyOf: [
          { type: 'array', items: { type: 'string' } },
          { type: 'array', items: { $ref: '#/components/schemas/L' } },
        ],
      },
    }),
    ['components.schemas.A.anyOf'],
  ],

  [
    'one-error-schema',
    'accepts one error schema, and a union in a success body',
    {
      components: { responses: { Forbidden: { content: { 'application/json': { schema: { $ref: '#/x' } } } } } },
      paths: {
        '/a': {
          get: {
            responses: {
              '200': {
                content: { 'application/json': { schema: { anyOf: [{ type: 'object' }, { type: 'object' }] } } },
              },
            },
          },
        },
      },
    },
    [],
  ],
  [
    'one-error-schema',
    'rejects a 403 that is anyOf two objects',
    {
      components: {
        schemas: { E: { type: 'object' }, S: { type: 'object' } },
        responses: {
          Forbidden: {
            content: {
              'application/json': {
                schema: { anyOf: [{ $ref: '#/components/schemas/E' }, { $ref: '#/components/schemas/S' }] },
              },
            },
          },
        },
      },
    },
    ['components.responses.Forbidden.content.application/json.schema'],
  ],

  [
    'parameter-go-name',
    'accepts twins with Go names of their own',
    {
      paths: {
        '/a': {
          get: {
            parameters: [
              { name: 'Sudo', in: 'header', 'x-go-name': 'SudoHeader' },
              { name: 'sudo', in: 'query', 'x-go-name': 'SudoQuery' },
              { name: 'page', in: 'query' },
            ],
          },
        },
      },
    },
    [],
  ],
  [
    'parameter-go-name',
    'rejects a header and a query parameter of one name (through $ref and the path item)',
    {
      components: { parameters: { SudoHeader: { name: 'Sudo', in: 'header', 'x-go-name': 'Sudo' } } },
      paths: {
        '/a': {
          parameters: [{ $ref: '#/components/parameters/SudoHeader' }],
          get: { parameters: [{ name: 'sudo', in: 'query' }] },
        },
      },
    },
    ['paths./a.parameters.0', 'paths./a.get.parameters.0'],
  ],

  [
    'part-content-type',
    'accepts a multipart body whose encoding gives a style only',
    {
      paths: {
        '/import': {
          post: {
            requestBody: {
              content: {
                'multipart/form-data': {
                  schema: { properties: { file: { type: 'string', contentMediaType: 'application/gzip' } } },
                  encoding: { override_params: { style: 'deepObject', explode: true } },
                },
              },
            },
          },
        },
      },
    },
    [],
  ],
  [
    'part-content-type',
    'rejects a part with an encoding contentType',
    {
      paths: {
        '/import': {
          post: {
            requestBody: {
              content: { 'multipart/form-data': { encoding: { file: { contentType: 'application/gzip' } } } },
            },
          },
        },
      },
    },
    ['paths./import.post.requestBody.content.multipart/form-data.encoding.file.contentType'],
  ],

  [
    'enum-type',
    'accepts typed const and enum schemas and union members, a number beside integers, null alone and 3.0 nullable',
    withSchemas({
      A: {
        properties: {
          ids: {
            anyOf: [
              { type: 'array', items: { type: 'integer' } },
              { type: 'integer', const: 0 },
            ],
          },
          who: { oneOf: [{ $ref: '#/components/schemas/B' }, { type: 'string', enum: ['None', 'Any'] }] },
          ratio: { type: 'number', enum: [1, 0.5] },
          state: { type: ['string', 'null'], enum: ['opened', null] },
          gone: { const: null },
        },
        not: {
          properties: {
            merged: { type: 'boolean', enum: [true] },
            level: { type: 'integer', nullable: true, enum: [null] },
          },
        },
      },
    }),
    [],
  ],
  [
    'enum-type',
    'rejects an untyped const or enum member of a union',
    withSchemas({
      A: {
        properties: {
          ids: { anyOf: [{ type: 'array', items: { type: 'integer' } }, { const: 0 }] },
          who: { oneOf: [{ type: 'integer' }, { enum: ['None', 'Any'] }] },
        },
      },
    }),
    ['components.schemas.A.properties.ids.anyOf.1', 'components.schemas.A.properties.who.oneOf.1'],
  ],
  [
    'enum-type',
    'rejects an untyped boolean const (3.1) and enum (the 3.0 rendition of a rule), and a value not of its type',
    {
      ...withSchemas({
        A: { if: { properties: { merged: { const: true } } }, then: { required: ['merged_at'] } },
        B: { not: { allOf: [{ properties: { merged: { enum: [true] } } }, { not: { required: ['merged_at'] } }] } },
        C: { type: 'string', nullable: true, enum: ['a', 1, null] },
      }),
      ...withResponse({ type: 'object', properties: { message: { const: 'Branch cannot be merged' } } }),
    },
    [
      'components.schemas.A.if.properties.merged',
      'components.schemas.B.not.allOf.0.properties.merged',
      'components.schemas.C',
      'paths./a.get.responses.200.content.application/json.schema.properties.message',
    ],
  ],

  [
    'nullable-open-object',
    'accepts a nullable object with additionalProperties: {}',
    withSchemas({ Job: { properties: { runner: { type: ['object', 'null'], additionalProperties: {} } } } }),
    [],
  ],
  [
    'nullable-open-object',
    'accepts a nullable object with properties, and an object with no fields that is never null',
    withSchemas({ A: { type: ['object', 'null'], properties: { id: {} } }, B: { type: 'object' } }),
    [],
  ],
  [
    'nullable-open-object',
    'rejects a nullable object with no fields (3.1 and 3.0 forms)',
    withSchemas({
      Job: { properties: { runner: { type: ['object', 'null'], description: 'Not documented.' } } },
      Old: { type: 'object', nullable: true },
    }),
    ['components.schemas.Job.properties.runner', 'components.schemas.Old'],
  ],

  [
    'parameter-union-component',
    'accepts a union that is a component',
    { paths: { '/a': { get: { parameters: [{ name: 'assignee_id', in: 'query', schema: { $ref: '#/c' } }] } } } },
    [],
  ],
  [
    'parameter-union-component',
    'rejects an inline oneOf',
    {
      paths: {
        '/a': {
          get: {
            parameters: [
              {
                name: 'assignee_id',
                in: 'query',
                schema: {
                  oneOf: [
                    { type: 'integer', format: 'int64' },
                    { type: 'string', enum: ['None'] },
                  ],
                },
              },
            ],
          },
        },
      },
    },
    ['paths./a.get.parameters.0.schema'],
  ],

  [
    'rule-alternatives',
    'accepts the rule as if/then/else, and alternatives that are schemas',
    withSchemas({
      A: {
        properties: { cn: {}, filter: {} },
        if: { required: ['cn'] },
        then: { not: { required: ['filter'] } },
        else: { required: ['filter'] },
      },
      B: {
        properties: { a: {} },
        anyOf: [{ required: ['a'], properties: { a: { type: 'string' } } }, { type: 'object' }],
      },
      C: { allOf: [{ anyOf: [{ required: ['a'] }, { required: ['b'] }] }], properties: { a: {}, b: {} } },
    }),
    [],
  ],
  [
    'rule-alternatives',
    'rejects a oneOf of required-only members beside properties (LDAP group link)',
    withSchemas({ A: { properties: { cn: {}, filter: {} }, oneOf: [{ required: ['cn'] }, { required: ['filter'] }] } }),
    ['components.schemas.A.oneOf'],
  ],
  [
    'rule-alternatives',
    'rejects an anyOf of typed members with a not beside properties (invitation), in a request body',
    {
      paths: {
        '/a': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    properties: { email: {}, user_id: {} },
                    anyOf: [
                      { type: 'object', required: ['email'] },
                      { type: 'object', required: ['user_id'], not: { required: ['email'] } },
                    ],
                  },
                },
              },
            },
          },
        },
      },
    },
    ['paths./a.post.requestBody.content.application/json.schema.anyOf'],
  ],
];

describe('portable-shapes', () => {
  it.each(cases)('%s: %s', (shape, _title, doc, want) => {
    const problems = portableShapes(doc, { shape }) as { path: (string | number)[]; message: string }[];
    expect(problems.map((p) => p.path.join('.'))).toEqual(want);
    for (const problem of problems) expect(problem.message).toMatch(/\w/);
  });

  it('has a case that passes and one that fails for every shape', () => {
    for (const shape of shapes) {
      const mine = cases.filter(([s]) => s === shape);
      expect(
        mine.some(([, , , want]) => want.length === 0),
        shape,
      ).toBe(true);
      expect(
        mine.some(([, , , want]) => want.length > 0),
        shape,
      ).toBe(true);
    }
  });

  it('refuses an unknown shape', () => {
    expect(() => portableShapes({}, { shape: 'nope' })).toThrow(/unknown shape/);
  });
});
