import { describe, expect, it } from 'vitest';
import oasExampleShared from '../../scripts/spectral/oas-example-shared.js';

const job = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer' }, name: { type: 'string', readOnly: true } },
};
const media = { schemaField: 'schema', oasVersion: 3, type: 'media' };
const context = (path: (string | number)[]) => ({
  path,
  document: { formats: new Set() },
  documentInventory: {},
  rule: {},
});
const response = ['paths', '/jobs', 'get', 'responses', '200', 'content', 'application/json'];
const request = ['paths', '/jobs', 'post', 'requestBody', 'content', 'application/json'];

const messages = (target: object, path: (string | number)[], options = media) =>
  ((oasExampleShared(target, options, context(path)) ?? []) as { message: string }[]).map((r) => r.message);

describe('oas-example-shared (Spectral oasExample, repeated occurrences checked once)', () => {
  const cases: [string, object, (string | number)[], number][] = [
    ['accepts a valid response example, twice', { schema: job, example: { id: 1, name: 'rspec' } }, response, 0],
    ['rejects an invalid example every time it occurs', { schema: job, example: { id: 'one' } }, response, 1],
    ['rejects a missing required field in a response', { schema: job, example: { name: 'x' } }, response, 1],
    [
      'relaxes readOnly required fields in a request, as Spectral does',
      { schema: { ...job, required: ['id', 'name'] }, example: { id: 1 } },
      request,
      0,
    ],
  ];
  it.each(cases)('%s', (_title, target, path, problems) => {
    expect(messages(target, path)).toHaveLength(problems);
    expect(messages(target, path)).toHaveLength(problems);
  });

  it('does not reuse a valid request result for a response with the same schema and example', () => {
    const target = { schema: { ...job, required: ['id', 'name'] }, example: { id: 2 } };
    expect(messages(target, request)).toEqual([]);
    expect(messages(target, response)).toHaveLength(1);
  });
});
