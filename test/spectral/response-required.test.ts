import { describe, expect, it } from 'vitest';
import responseRequired from '../../scripts/spectral/response-required.js';

const record = (property: object, required = true) => ({
  type: 'object',
  required: required ? ['f'] : [],
  properties: { f: property },
});
const cases: [string, object, number][] = [
  ['accepts a plain required field', record({ type: 'integer' }), 0],
  ['rejects a required admin-only field', record({ type: 'string', 'x-admin-only': true }), 1],
  ['rejects a required tier-bound field', record({ type: 'string', 'x-tiers': ['premium'] }), 1],
  ['rejects a required offering-bound field', record({ type: 'string', 'x-offerings': ['hosted'] }), 1],
  ['rejects a required flagged field', record({ type: 'string', 'x-feature-flag': { default: 'enabled' } }), 1],
  ['rejects a required field that varies with the caller', record({ type: 'string', 'x-varies-with-caller': true }), 1],
  ['accepts a required deprecated field (sent until v5)', record({ type: 'string', deprecated: true }), 0],
  [
    'accepts a required admin-only field in an administrator-only view',
    { 'x-admin-only': true, allOf: [record({ type: 'string', 'x-admin-only': true })] },
    0,
  ],
  [
    'rejects a required admin-only field in a record inside an administrator-only view',
    { 'x-admin-only': true, properties: { nested: record({ type: 'string', 'x-admin-only': true }) } },
    1,
  ],
  [
    'rejects a required field described as present only on some records',
    record({ type: 'object', description: 'Present only on some jobs.' }),
    1,
  ],
  [
    'rejects a required field described as conditional',
    record({ type: 'string', description: 'Present only when statistics=true.' }),
    1,
  ],
  [
    'rejects a required field the API calls conditional without the condition',
    record({ type: 'string', description: 'Conditional: present only in some cases.' }),
    1,
  ],
  [
    'rejects a required key of an object whose keys are all optional',
    record({ type: 'boolean', description: 'An optional key: like every key of this object, it may be absent.' }),
    1,
  ],
  [
    'rejects a required field of one edition only',
    record({ type: 'string', description: 'Enterprise edition only; absent otherwise.' }),
    1,
  ],
  [
    'accepts a required field described as unconditional',
    record({ type: 'string', description: 'Sent unconditionally.' }),
    0,
  ],
  ['accepts an optional admin-only field', record({ type: 'string', 'x-admin-only': true }, false), 0],
  ['accepts a nullable object', record({ oneOf: [{ $ref: '#/components/schemas/User' }, { type: 'null' }] }, false), 0],
  [
    'rejects a nullable field whose other member is untyped',
    record({ anyOf: [{ description: 'anything' }, { type: 'null' }] }, false),
    1,
  ],
  ['looks into list items', { type: 'array', items: record({ type: 'string', 'x-admin-only': true }) }, 1],
];

describe('response-required', () => {
  it.each(cases)('%s', (_title, given, want) => {
    expect(responseRequired(given)).toHaveLength(want);
  });
});
