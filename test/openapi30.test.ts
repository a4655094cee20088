/**
 * The OpenAPI 3.0 rendition (generated/openapi/openapi.3.0.json, and its dereferenced form that the build writes into
 * @service-api/openapi) read by a real 3.0 validator, and checked for fidelity against the 3.1 document it is made
 * from: every operation, parameter, response, component and example is there, every field that may be null is
 * `nullable: true`, and every documented example validates against its 3.0 schema (Ajv in draft-04 mode, the JSON
 * Schema dialect of OpenAPI 3.0).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { readDocument } from '@service-api/openapi';
import { describe, expect, it } from 'vitest';
import { downConvert } from '../generators/lib/down-convert.ts';
import { componentName, HTTP_METHODS, pointerSegment, pointerValue } from '../packages/server/src/openapi-model.ts';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import portableShapes from '../scripts/spectral/portable-shapes.js';
import { asDraft04, draft04Validator } from './support/openapi30.ts';

type Json = Record<string, unknown>;
const read = (name: string) =>
  JSON.parse(readFileSync(join(ROOT, 'generated', 'openapi', name), 'utf8')) as OpenApiDocument & Json;
const doc31 = read('openapi.json');
const doc30 = read('openapi.3.0.json');
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys whose values are data (examples, defaults, enum values), never schemas or OpenAPI objects. */
const DATA = new Set(['example', 'examples', 'default', 'enum', 'const', 'value']);

/** Every object of a document with its JSON pointer, not descending into data. */
function* objects(node: unknown, pointer = '#'): Generator<[string, Json]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* objects(item, `${pointer}/${i}`);
    return;
  }
  if (!isObject(node)) return;
  yield [pointer, node];
  for (const [key, value] of Object.entries(node))
    if (!DATA.has(key) || (key === 'examples' && isObject(value) && !('value' in value)))
      yield* objects(value, `${pointer}/${pointerSegment(key)}`);
}

/** The node at a `#/…` pointer as `objects` writes it (not percent-encoded). */
const at = (doc: unknown, pointer: string): unknown => pointerValue(doc, pointer.slice(1));

/** The document without its schemas: what must be the same in both renditions. */
function withoutSchemas(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSchemas);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'schema')
      .map(([key, item]) => [key, DATA.has(key) ? item : withoutSchemas(item)]),
  );
}

/** 3.1 components left out of 3.0: nullable primitives, written in place of every reference to them. */
const inlined = new Set(
  Object.keys(doc31.components?.schemas ?? {}).filter((name) => !(name in (doc30.components?.schemas ?? {}))),
);

describe('the 3.0 rendition', () => {
  it('is what the converter makes of the published 3.1 document', () => {
    expect(doc30).toEqual(downConvert(doc31));
  });

  it.each([
    ['openapi.3.0.json', () => read('openapi.3.0.json')],
    ['openapi.3.0.dereferenced.json', () => readDocument({ rendition: '3.0', dereferenced: true })],
  ])('%s is a valid OpenAPI 3.0.3 document (@readme/openapi-parser)', async (_name, load) => {
    const document = load();
    expect(document.openapi).toBe('3.0.3');
    const result = await validate(document as never);
    expect(result.valid ? [] : result.errors.map((e) => e.message)).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('the validator does refuse a 3.1 schema in a document that claims to be 3.0.3', async () => {
    const claims = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1.0.0' },
      paths: {},
      components: { schemas: { A: { type: ['string', 'null'] } } },
    };
    expect((await validate(claims as never)).valid).toBe(false);
    expect((await validate({ ...claims, components: { schemas: { A: { type: 'string' } } } } as never)).valid).toBe(
      true,
    );
  });

  it('has every path, operation, parameter, request body, response, header and example of 3.1, unchanged but for schemas', () => {
    expect(withoutSchemas(doc30.paths)).toEqual(withoutSchemas(doc31.paths));
    const { schemas: schemas30, ...components30 } = doc30.components ?? {};
    const { schemas: schemas31, ...components31 } = doc31.components ?? {};
    expect(withoutSchemas(components30)).toEqual(withoutSchemas(components31));
    // A nullable primitive component is written in place of each reference in 3.0, and then not published on its own.
    expect(Object.keys(schemas30 ?? {})).toEqual(Object.keys(schemas31 ?? {}).filter((name) => !inlined.has(name)));
    expect([...inlined]).toEqual(['NullableTimestamp']);
    const operations = (doc: OpenApiDocument) =>
      Object.values(doc.paths).flatMap((item) => HTTP_METHODS.filter((m) => m in item).map((m) => item[m]));
    expect(operations(doc30).length).toBe(operations(doc31).length);
    expect(operations(doc30).length).toBeGreaterThan(100);
  });

  it('keeps info and servers; the 3.1-only fields as extensions', () => {
    const { summary, license, ...info } = doc31.info as Json;
    expect(doc30.info).toEqual({
      ...info,
      'x-summary': summary,
      license: { name: (license as Json).name, 'x-identifier': (license as Json).identifier },
    });
    expect(doc30.servers).toEqual(doc31.servers);
    expect(doc30.security).toEqual(doc31.security);
    expect(doc30.tags).toEqual(doc31.tags);
  });

  it('every schema that admits null in 3.1 admits it at the same place in 3.0, as 3.0.3 reads nullable (or kept verbatim in an x- field)', () => {
    const nullable = [...objects(doc31)].filter(
      ([, node]) =>
        (Array.isArray(node.type) && node.type.includes('null')) ||
        (['oneOf', 'anyOf'] as const).some(
          (k) => Array.isArray(node[k]) && (node[k] as Json[]).some((m) => isObject(m) && m.type === 'null'),
        ),
    );
    expect(nullable.length).toBeGreaterThan(100);
    const ajv = draft04Validator(doc30);
    const missing = nullable
      .map(([pointer]) => pointer)
      .filter((pointer) => {
        if (inlined.has(componentName(pointer) ?? '')) return false;
        if (isObject(at(doc30, pointer))) return !ajv.validate({ $ref: `doc${pointer}` }, null);
        // Under a keyword 3.0 lacks, kept as x-<keyword>: the 3.1 schema is there as it is.
        const verbatim = pointer.replace(
          /\/(if|then|else|not|oneOf|dependentSchemas|patternProperties|prefixItems)\//,
          '/x-$1/',
        );
        return verbatim === pointer || !isObject(at(doc30, verbatim));
      });
    expect(missing).toEqual([]);
  });

  it('a nullable reference admits null as 3.0.3 reads nullable; the allOf form it replaces does not', () => {
    const ajv = draft04Validator(doc30);
    const mergedBy = { $ref: 'doc#/components/schemas/MergeRequest/properties/merged_by' };
    expect(ajv.validate(mergedBy, null)).toBe(true);
    expect(ajv.validate(mergedBy, 5)).toBe(false);
    const allOfForm = { allOf: [{ $ref: 'doc#/components/schemas/UserBasic' }], type: 'object', nullable: true };
    expect(ajv.validate(asDraft04(allOfForm) as object, null)).toBe(false);
  });

  it('states in 3.0 the conditional rules 3.0 can state (anyOf/not), not only in x- fields', () => {
    const ajv = draft04Validator(doc30);
    const request = { $ref: 'doc#/components/schemas/UserRunnerCreateRequest' };
    expect(ajv.validate(request, { runner_type: 'group_type' })).toBe(false);
    expect(ajv.validate(request, { runner_type: 'group_type', group_id: 1 })).toBe(true);
    expect(ajv.validate(request, { runner_type: 'instance_type' })).toBe(true);
    const kept = [...objects(doc30)].flatMap(([pointer, node]) =>
      ['x-if', 'x-dependentSchemas', 'x-dependentRequired']
        .filter((key) => key in node && !JSON.stringify(node[key]).includes('propertyNames'))
        .map((key) => `${pointer}/${key}`),
    );
    expect(kept).toEqual([]);
  });

  it('gives every enum the type of its values (house-portable-enum-type): generators read an untyped enum as strings', () => {
    expect(portableShapes(doc30, { shape: 'enum-type' })).toEqual([]);
  });

  it('every schema example of 3.1 is an example of 3.0 (the first as example, all of several in x-examples)', () => {
    const key = (values: unknown[]) => JSON.stringify(values);
    const available = new Map<string, number>();
    for (const [, node] of objects(doc30)) {
      const values = Array.isArray(node['x-examples'])
        ? node['x-examples']
        : Array.isArray(node.examples)
          ? node.examples
          : 'example' in node
            ? [node.example]
            : undefined;
      if (values) available.set(key(values), (available.get(key(values)) ?? 0) + 1);
    }
    const wanted = [...objects(doc31)].filter(([, node]) => Array.isArray(node.examples));
    expect(wanted.length).toBeGreaterThan(10);
    for (const [pointer, node] of wanted) {
      const count = available.get(key(node.examples as unknown[])) ?? 0;
      expect(count, `${pointer}/examples`).toBeGreaterThan(0);
      available.set(key(node.examples as unknown[]), count - 1);
    }
  });

  it('every documented example of a request, response or parameter validates against its 3.0 schema', () => {
    const ajv = draft04Validator(doc30);
    let checked = 0;
    const problems: string[] = [];
    for (const [pointer, node] of objects(doc30)) {
      if (!isObject(node.schema) || pointer.includes('/x-')) continue;
      const examples = Object.entries(isObject(node.examples) ? node.examples : {}).map(([name, example]) => {
        const resolved = isObject(example) && typeof example.$ref === 'string' ? at(doc30, example.$ref) : example;
        return [name, (resolved as Json).value] as const;
      });
      if ('example' in node) examples.push(['example', node.example]);
      if (examples.length === 0) continue;
      const check = ajv.compile({ $ref: `doc${pointer}/schema` });
      for (const [name, value] of examples) {
        checked++;
        if (!check(value)) problems.push(`${pointer} ${name}: ${ajv.errorsText(check.errors)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(200);
  });
});
