import { describe, expect, it } from 'vitest';
import openSchema from '../../scripts/spectral/open-schema.js';

const cases: [string, object, (string | number)[][]][] = [
  ['accepts an open object', { type: 'object', properties: { id: { type: 'integer' } } }, []],
  ['accepts additionalProperties with a schema', { type: 'object', additionalProperties: { type: 'integer' } }, []],
  ['rejects a closed object', { type: 'object', additionalProperties: false }, [['additionalProperties']]],
  [
    'rejects a closed nested object',
    { type: 'array', items: { allOf: [{ type: 'object', unevaluatedProperties: false }] } },
    [['items', 'allOf', 0, 'unevaluatedProperties']],
  ],
];

describe('open-schema', () => {
  it.each(cases)('%s', (_title, given, want) => {
    expect(openSchema(given).map((p: { path: (string | number)[] }) => p.path)).toEqual(
      want.map((path) => path.map(String)),
    );
  });
});
