import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { compareDocuments } from '../scripts/lib/breaking.ts';

type Json = Record<string, unknown>;

/** A one-operation document; each case changes one thing in a copy of it. */
function base(): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'T', version: '1.0.0' },
    paths: {
      '/projects/{id}/jobs': {
        post: {
          operationId: 'jobs/create-job',
          tags: ['jobs'],
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
            {
              name: 'scope[]',
              in: 'query',
              schema: { type: 'array', items: { type: 'string', enum: ['failed', 'success'] } },
            },
            { name: 'Sudo', in: 'header', schema: { type: 'string' } },
          ],
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['name'],
                  properties: {
                    name: { type: 'string', maxLength: 255 },
                    ref: { type: 'string' },
                    weight: { type: 'number' },
                    mode: { type: 'string', enum: ['a', 'b'] },
                  },
                },
              },
            },
          },
          responses: {
            '201': {
              description: 'created',
              headers: { 'X-Total': { schema: { type: 'integer' } } },
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } },
            },
            '404': { description: 'not found', content: { 'application/json': { schema: { type: 'object' } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        Job: {
          type: 'object',
          required: ['id', 'status'],
          properties: {
            id: { type: 'integer' },
            status: { type: 'string', enum: ['failed', 'success'] },
            name: { type: 'string' },
            created_at: { type: 'string', format: 'date-time' },
            parent: { $ref: '#/components/schemas/Job' },
            tags: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  };
}

const op = (doc: Json) => (doc.paths as Json)['/projects/{id}/jobs'] as Json & { post: Json };
const post = (doc: Json) => op(doc).post as Json & { parameters: Json[]; requestBody: Json; responses: Json };
const body = (doc: Json) =>
  ((post(doc).requestBody.content as Json)['application/json'] as Json).schema as Json & {
    properties: Json;
    required: string[];
  };
const job = (doc: Json) =>
  ((doc.components as Json).schemas as Json).Job as Json & { properties: Json; required: string[] };
const jobProp = (doc: Json, name: string) => job(doc).properties[name] as Json;

/** [rule, change, every difference it yields]; `setup` first changes both documents. */
type Case = [string, (doc: Json) => void, string[], ((doc: Json) => void)?];
const cases: Case[] = [
  ['operation-removed', (d) => void (d.paths = {}), ['breaking operation-removed']],
  [
    'operation-added',
    (d) => void (op(d).get = { operationId: 'jobs/list-jobs', tags: ['jobs'], responses: {} }),
    ['compatible operation-added'],
  ],
  ['operation-id-changed', (d) => void (post(d).operationId = 'jobs/add-job'), ['breaking operation-id-changed']],
  ['operation-tag-changed', (d) => void (post(d).tags = ['ci']), ['breaking operation-tag-changed']],
  ['operation-deprecated', (d) => void (post(d).deprecated = true), ['compatible operation-deprecated']],
  [
    'security-alternative-removed',
    (d) => void (post(d).security = [{ token: [] }]),
    ['breaking security-alternative-removed'],
    (d) => void (post(d).security = [{ token: [] }, { cookie: [] }]),
  ],
  ['parameter-removed', (d) => void post(d).parameters.splice(2, 1), ['breaking parameter-removed']],
  [
    'parameter-newly-required',
    (d) => void (post(d).parameters[2]!.required = true),
    ['breaking parameter-newly-required'],
  ],
  [
    'parameter-added',
    (d) => void post(d).parameters.push({ name: 'page', in: 'query', schema: { type: 'integer' } }),
    ['compatible parameter-added'],
  ],
  [
    'parameter-added-required',
    (d) => void post(d).parameters.push({ name: 'page', in: 'query', required: true, schema: { type: 'integer' } }),
    ['breaking parameter-added-required'],
  ],
  [
    'parameter-serialization-changed',
    (d) => void (post(d).parameters[1]!.explode = false),
    ['breaking parameter-serialization-changed'],
  ],
  [
    'enum-value-removed (request)',
    (d) => void (((post(d).parameters[1]!.schema as Json).items as Json).enum = ['failed']),
    ['breaking enum-value-removed'],
  ],
  [
    'enum-value-removed (response)',
    (d) => void (jobProp(d, 'status').enum = ['failed']),
    ['breaking enum-value-removed'],
  ],
  [
    'request-enum-value-added',
    (d) => void ((body(d).properties.mode as Json).enum = ['a', 'b', 'c']),
    ['compatible request-enum-value-added'],
  ],
  [
    'request-enum-added',
    (d) => void ((body(d).properties.ref as Json).enum = ['main']),
    ['breaking request-enum-added'],
  ],
  [
    'request-enum-dropped',
    (d) => void delete (body(d).properties.mode as Json).enum,
    ['compatible request-enum-dropped'],
  ],
  ['request-field-removed', (d) => void delete body(d).properties.ref, ['breaking request-field-removed']],
  [
    'request-field-added',
    (d) => void (body(d).properties.note = { type: 'string' }),
    ['compatible request-field-added'],
  ],
  [
    'request-field-added-required',
    (d) => {
      body(d).properties.note = { type: 'string' };
      body(d).required.push('note');
    },
    ['breaking request-field-added-required'],
  ],
  ['request-field-newly-required', (d) => void body(d).required.push('ref'), ['breaking request-field-newly-required']],
  ['request-field-now-optional', (d) => void (body(d).required = []), ['compatible request-field-now-optional']],
  [
    'request-type-narrowed',
    (d) => void ((body(d).properties.weight as Json).type = 'integer'),
    ['breaking request-type-narrowed'],
  ],
  [
    'request-type-widened',
    (d) => void ((body(d).properties.ref as Json).type = ['string', 'integer']),
    ['compatible request-type-widened'],
  ],
  [
    'request-bound-tightened',
    (d) => void ((body(d).properties.name as Json).maxLength = 100),
    ['breaking request-bound-tightened'],
  ],
  [
    'bound-changed (request loosened)',
    (d) => void ((body(d).properties.name as Json).maxLength = 1000),
    ['compatible bound-changed'],
  ],
  [
    'request-format-added',
    (d) => void ((body(d).properties.ref as Json).format = 'uri'),
    ['breaking request-format-added'],
  ],
  [
    'request-rule-added',
    (d) => void ((body(d).properties.ref as Json).pattern = '^[a-z]+$'),
    ['breaking request-rule-added'],
  ],
  [
    'request-extra-fields-refused',
    (d) => void (body(d).additionalProperties = false),
    ['breaking request-extra-fields-refused'],
    (d) => void delete body(d).additionalProperties,
  ],
  [
    'request-body-newly-required',
    (d) => void (post(d).requestBody.required = true),
    ['breaking request-body-newly-required'],
  ],
  ['request-body-removed', (d) => void delete (post(d) as Json).requestBody, ['breaking request-body-removed']],
  [
    'request-media-type-removed',
    (d) =>
      void (post(d).requestBody.content = {
        'multipart/form-data': (post(d).requestBody.content as Json)['application/json'],
      }),
    ['breaking request-media-type-removed', 'compatible request-media-type-added'],
  ],
  [
    'success-response-removed',
    (d) => {
      post(d).responses['200'] = post(d).responses['201'];
      delete post(d).responses['201'];
    },
    ['breaking success-response-removed', 'compatible response-added'],
  ],
  ['error-response-removed', (d) => void delete post(d).responses['404'], ['compatible error-response-removed']],
  [
    'response-header-removed',
    (d) => void delete (post(d).responses['201'] as Json).headers,
    ['breaking response-header-removed'],
  ],
  ['response-field-removed', (d) => void delete job(d).properties.name, ['breaking response-field-removed']],
  [
    'response-field-added',
    (d) => void (job(d).properties.stage = { type: 'string' }),
    ['compatible response-field-added'],
  ],
  [
    'response-field-no-longer-required',
    (d) => void (job(d).required = ['id']),
    ['breaking response-field-no-longer-required'],
  ],
  ['response-field-now-required', (d) => void job(d).required.push('name'), ['compatible response-field-now-required']],
  [
    'response-field-newly-nullable',
    (d) => void (jobProp(d, 'name').type = ['string', 'null']),
    ['breaking response-field-newly-nullable'],
  ],
  [
    'response-type-widened',
    (d) => void (jobProp(d, 'id').type = ['integer', 'string']),
    ['breaking response-type-widened'],
  ],
  [
    'response-type-narrowed',
    (d) => void (jobProp(d, 'id').type = 'integer'),
    ['breaking response-type-narrowed'],
    (d) => void (jobProp(d, 'id').type = ['integer', 'string']),
  ],
  [
    'response-enum-value-added',
    (d) => void (jobProp(d, 'status').enum = ['failed', 'success', 'running']),
    ['breaking response-enum-value-added'],
  ],
  ['response-enum-dropped', (d) => void delete jobProp(d, 'status').enum, ['breaking response-enum-dropped']],
  ['format-changed (response)', (d) => void delete jobProp(d, 'created_at').format, ['compatible format-changed']],
  ['response-closed', (d) => void (job(d).additionalProperties = false), ['compatible response-closed']],
  [
    'component-schema-removed',
    (d) => {
      const schemas = (d.components as Json).schemas as Json;
      schemas.CiJob = schemas.Job;
      delete schemas.Job;
      (((post(d).responses['201'] as Json).content as Json)['application/json'] as Json).schema = {
        $ref: '#/components/schemas/CiJob',
      };
      (schemas.CiJob as Json & { properties: Json }).properties.parent = { $ref: '#/components/schemas/CiJob' };
    },
    ['breaking component-schema-removed', 'compatible component-schema-added', 'compatible operation-text-changed'],
  ],
];

const compare = (before: Json, after: Json) =>
  compareDocuments(before as unknown as OpenApiDocument, after as unknown as OpenApiDocument);

describe('breaking-change classifier: one rule per case', () => {
  it.each(cases)('%s', (_rule, change, expected, setup) => {
    const before = base();
    setup?.(before);
    const after = structuredClone(before);
    change(after);
    expect(
      compare(before, after)
        .map((d) => `${d.severity} ${d.rule}`)
        .sort(),
    ).toEqual([...expected].sort());
  });

  it('reports nothing for identical documents, and terminates on recursive schemas', () => {
    expect(compare(base(), base())).toEqual([]);
  });

  it('reads allOf as one object: moving fields into an allOf member changes nothing for consumers', () => {
    const after = base();
    const schemas = (after.components as Json).schemas as Json;
    const { properties, required, type } = job(after);
    schemas.Job = {
      allOf: [
        { type, properties: { id: properties.id, status: properties.status }, required },
        {
          properties: {
            name: properties.name,
            created_at: properties.created_at,
            parent: properties.parent,
            tags: properties.tags,
          },
        },
      ],
    };
    expect(compare(base(), after)).toEqual([]);
  });

  it('a renamed path parameter is the same operation; a nullable 3.0 field counts as newly nullable', () => {
    const after = base();
    const paths = after.paths as Json;
    paths['/projects/{project_id}/jobs'] = paths['/projects/{id}/jobs'];
    delete paths['/projects/{id}/jobs'];
    (paths['/projects/{project_id}/jobs'] as { post: { parameters: Json[] } }).post.parameters[0]!.name = 'project_id';
    jobProp(after, 'name').nullable = true;
    const rules = compare(base(), after).map((d) => `${d.severity} ${d.rule}`);
    expect(rules).not.toContain('breaking operation-removed');
    expect(rules).toContain('breaking response-field-newly-nullable');
  });

  it('names where each difference is', () => {
    const after = base();
    job(after).required = ['id'];
    expect(compare(base(), after)).toEqual([
      {
        severity: 'breaking',
        rule: 'response-field-no-longer-required',
        location: 'POST /projects/{id}/jobs › 201 application/json › status',
      },
    ]);
  });
});
