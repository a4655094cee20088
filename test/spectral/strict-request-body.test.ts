import { describe, expect, it } from 'vitest';
import strictRequestBody from '../../scripts/spectral/strict-request-body.js';

const cases: [string, object, number][] = [
  ['accepts additionalProperties: false', { type: 'object', additionalProperties: false }, 0],
  ['accepts unevaluatedProperties: false', { allOf: [{ type: 'object' }], unevaluatedProperties: false }, 0],
  ['accepts a body whose fields the seed does not show', { type: 'object', 'x-not-shown': true }, 0],
  ['rejects an open body', { type: 'object', properties: { name: { type: 'string' } } }, 1],
  ['rejects additionalProperties: true', { type: 'object', additionalProperties: true }, 1],
];

describe('strict-request-body', () => {
  it.each(cases)('%s', (_title, given, want) => {
    expect(strictRequestBody(given)).toHaveLength(want);
  });
});
