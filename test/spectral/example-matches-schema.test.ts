import { describe, expect, it } from 'vitest';
import exampleMatchesSchema from '../../scripts/spectral/example-matches-schema.js';

const job = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer' }, created_at: { type: 'string', format: 'date-time' } },
};
const cases: [string, object, string[]][] = [
  ['accepts a valid example', { schema: job, example: { id: 1 } }, []],
  [
    'accepts valid named examples',
    { schema: job, examples: { A: { value: { id: 1, created_at: '2025-03-11T10:02:11.912Z' } } } },
    [],
  ],
  ['rejects a wrong type', { schema: job, example: { id: '1' } }, ['example']],
  ['rejects a missing required field', { schema: job, examples: { A: { value: {} } } }, ['examples.A.value']],
  ['rejects a bad format', { schema: job, example: { id: 1, created_at: 'yesterday' } }, ['example']],
  ['checks JSON Schema 2020-12 type arrays', { schema: { type: ['integer', 'null'] }, example: null }, []],
  ['ignores OpenAPI extensions in the schema', { schema: { type: 'string', 'x-not-shown': true }, example: 'a' }, []],
  ['passes when there is no schema', { example: 1 }, []],
];

describe('example-matches-schema', () => {
  it.each(cases)('%s', (_title, given, want) => {
    expect(exampleMatchesSchema(given).map((p: { path: string[] }) => p.path.join('.'))).toEqual(want);
  });
});
