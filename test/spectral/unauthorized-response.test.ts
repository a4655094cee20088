import { describe, expect, it } from 'vitest';
import unauthorizedResponse from '../../scripts/spectral/unauthorized-response.js';

const documentSecurity = { document: { data: { security: [{ privateTokenHeader: [] }] } } };
const noSecurity = { document: { data: {} } };
const message = 'Authenticated operation must document a 401 response';
const cases: [string, object, object, string[]][] = [
  ['accepts 401 under document security', { responses: { '200': {}, '401': {} } }, documentSecurity, []],
  ['rejects no 401 under document security', { responses: { '200': {} } }, documentSecurity, [message]],
  [
    'rejects no 401 under operation security',
    { security: [{ jobTokenHeader: [] }], responses: { '200': {} } },
    noSecurity,
    [message],
  ],
  [
    'requires 401 when anonymous access is also allowed',
    { security: [{ privateTokenHeader: [] }, {}], responses: { '200': {} } },
    noSecurity,
    [message],
  ],
  ['accepts a public operation without 401', { security: [{}], responses: { '200': {} } }, documentSecurity, []],
  ['accepts an operation when nothing requires credentials', { responses: { '200': {} } }, noSecurity, []],
];

describe('unauthorized-response', () => {
  it.each(cases)('%s', (_title, given, context, want) => {
    expect(unauthorizedResponse(given, undefined, context).map((p: { message: string }) => p.message)).toEqual(want);
  });
});
