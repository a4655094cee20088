import { describe, expect, it } from 'vitest';
import writeAcceptsBody from '../../scripts/spectral/write-accepts-body.js';

const cases: [string, object, number][] = [
  ['accepts a JSON body', { requestBody: { content: { 'application/json': {} } } }, 0],
  ['accepts a multipart upload', { requestBody: { content: { 'multipart/form-data': {} } } }, 0],
  ['rejects no body', { responses: {} }, 1],
  ['rejects a form-urlencoded body only', { requestBody: { content: { 'application/x-www-form-urlencoded': {} } } }, 1],
];

describe('write-accepts-body', () => {
  it.each(cases)('%s', (_title, given, want) => {
    expect(writeAcceptsBody(given)).toHaveLength(want);
  });
});
