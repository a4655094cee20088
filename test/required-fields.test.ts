/**
 * The required/nullable rule of openapi/conventions.md against the seed inventory: every field the inventory lists in
 * a response record is a property of the record's schema, required unless the schema says why it may be absent, and
 * nullable where the inventory says it can be null.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import type { Aliases } from '../scripts/lib/coverage.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import { requiredFieldViolations, type RecordInventory } from '../scripts/lib/required-fields.ts';
import { publishedDocument } from './support/documents.ts';
import { readShared, sharedMissing } from './support/shared.ts';

const record = (schema: object): OpenApiDocument =>
  ({
    openapi: '3.1.0',
    info: { title: 't', version: '0' },
    paths: {},
    components: { schemas: { Widget: schema } },
  }) as OpenApiDocument;
const inventory = (...fields: { name: string; nullable?: boolean }[]): RecordInventory => ({
  resources: [{ name: 'Widget', fields }],
});
const prop = (extra: object = {}) => ({ type: 'string', ...extra });

describe('requiredFieldViolations', () => {
  const cases: [string, object, { name: string; nullable?: boolean }, string[]][] = [
    ['a required field passes', { type: 'object', required: ['a'], properties: { a: prop() } }, { name: 'a' }, []],
    [
      'an optional field without a reason fails',
      { type: 'object', properties: { a: prop() } },
      { name: 'a' },
      ['Widget.a: not required'],
    ],
    ['a field the schema lacks fails', { type: 'object', properties: {} }, { name: 'a' }, ['Widget.a: missing']],
    [
      'a tier-bound field may be optional',
      { type: 'object', properties: { a: prop({ 'x-tiers': ['premium'] }) } },
      { name: 'a' },
      [],
    ],
    [
      'an admin-only field may be optional',
      { type: 'object', properties: { a: prop({ 'x-admin-only': true }) } },
      { name: 'a' },
      [],
    ],
    [
      'an admin-only field of an administrators-only view must be required',
      { 'x-admin-only': true, allOf: [{ type: 'object', properties: { a: prop({ 'x-admin-only': true }) } }] },
      { name: 'a' },
      ['Widget.a: not required'],
    ],
    [
      'a conditional description is a reason',
      { type: 'object', properties: { a: prop({ description: 'Present only when the job failed.' }) } },
      { name: 'a' },
      [],
    ],
    [
      'a deprecated field is still sent',
      { type: 'object', properties: { a: prop({ deprecated: true }) } },
      { name: 'a' },
      ['Widget.a: not required'],
    ],
    [
      'x-varies-with-caller on the declaring object is a reason',
      { type: 'object', 'x-varies-with-caller': true, properties: { a: prop() } },
      { name: 'a' },
      [],
    ],
    [
      'x-varies-with-caller does not reach the fields of another allOf member',
      {
        allOf: [
          { type: 'object', properties: { a: prop() } },
          { type: 'object', 'x-varies-with-caller': true, properties: { b: prop() } },
        ],
      },
      { name: 'a' },
      ['Widget.a: not required'],
    ],
    [
      'a field required by a then branch is conditional',
      {
        type: 'object',
        properties: { a: prop(), s: prop() },
        if: { properties: { s: { const: 'x' } } },
        then: { required: ['a'] },
      },
      { name: 'a' },
      [],
    ],
    [
      'a field an if tests is conditional',
      { type: 'object', properties: { s: prop() }, if: { required: ['s'] }, then: {} },
      { name: 's' },
      [],
    ],
    [
      'a field the inventory says may be null must accept null',
      { type: 'object', required: ['a'], properties: { a: prop() } },
      { name: 'a', nullable: true },
      ['Widget.a: not nullable'],
    ],
    [
      'a nullable field passes',
      { type: 'object', required: ['a'], properties: { a: { type: ['string', 'null'] } } },
      { name: 'a', nullable: true },
      [],
    ],
  ];
  it.each(cases)('%s', (_title, schema, field, want) => {
    expect(requiredFieldViolations(record(schema), inventory(field)).map((v) => `${v.field}: ${v.problem}`)).toEqual(
      want,
    );
  });
});

const inventoryText = readShared('seed-inventory.json');
if (inventoryText === undefined) sharedMissing('seed-inventory.json');
else {
  describe('the published document against the seed inventory', () => {
    const aliases = JSON.parse(readFileSync(join(ROOT, 'scripts', 'coverage-aliases.json'), 'utf8')) as Aliases;
    const found = requiredFieldViolations(
      publishedDocument(),
      JSON.parse(inventoryText) as RecordInventory,
      aliases,
    ).map((v) => `${v.field}: ${v.problem}`);

    it('every field the inventory lists is required, or the schema says why not', () => {
      expect(found).toEqual([]);
    });
  });
}
