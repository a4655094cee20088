/**
 * fast-check arbitraries from the JSON Schemas of the document (dereferenced): values a schema admits (best effort:
 * `oneOf` exclusivity and cross-field rules are not solved, so a "valid" value may still be refused with a 400) and
 * values that break a schema. The randomness is fast-check's, so a run is reproduced by its seed.
 */
import fc from 'fast-check';
import { isFileSchema } from '../../generators/lib/json-schema.ts';

type Schema = Record<string, unknown>;

const MAX_DEPTH = 4;
const FORMATS: Record<string, fc.Arbitrary<string>> = {
  'date-time': fc
    .date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  date: fc
    .date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  email: fc.emailAddress(),
  uri: fc.webUrl(),
  url: fc.webUrl(),
};

/** A file part for a multipart body. */
export interface FilePart {
  filename: string;
  type: string;
  data: Buffer;
}

function merged(schemas: Schema[]): Schema {
  const out: Schema = { type: 'object', properties: {}, required: [] };
  for (const schema of schemas) {
    Object.assign(out.properties as Schema, schema.properties ?? {});
    (out.required as string[]).push(...((schema.required as string[] | undefined) ?? []));
  }
  return out;
}

/** Values the schema admits. */
export function validArbitrary(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema !== 'object' || schema === null) return fc.constant('x');
  const s = schema as Schema;
  if (isFileSchema(s))
    return fc.uint8Array({ maxLength: 64 }).map(
      (data): FilePart => ({
        filename: 'upload.bin',
        type: String(s.contentMediaType ?? 'application/octet-stream'),
        data: Buffer.from(data),
      }),
    );
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if (Array.isArray(s.allOf) && !s.properties) return validArbitrary(merged(s.allOf as Schema[]), depth);
  const alternatives = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0)
    return fc.oneof(
      ...alternatives.map((a) =>
        validArbitrary(
          s.properties
            ? {
                ...s,
                oneOf: undefined,
                anyOf: undefined,
                ...a,
                properties: { ...(s.properties as Schema), ...((a.properties as Schema) ?? {}) },
              }
            : a,
          depth + 1,
        ),
      ),
    );
  const types = [s.type].flat().filter((t): t is string => typeof t === 'string');
  const type = types.find((t) => t !== 'null') ?? (s.properties ? 'object' : s.items ? 'array' : undefined);
  switch (type) {
    case 'string': {
      if (typeof s.format === 'string' && FORMATS[s.format]) return FORMATS[s.format]!;
      if (typeof s.pattern === 'string')
        return fc.stringMatching(new RegExp(s.pattern as string)).filter((v) => v.length <= 200);
      const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
      const maxLength = Math.max(minLength, Math.min(typeof s.maxLength === 'number' ? s.maxLength : 20, 20));
      return fc.string({ minLength, maxLength });
    }
    case 'integer':
      return fc.integer({
        min: typeof s.minimum === 'number' ? s.minimum : -1000,
        max: typeof s.maximum === 'number' ? s.maximum : 100_000,
      });
    case 'number':
      return fc.double({
        min: typeof s.minimum === 'number' ? s.minimum : -1000,
        max: typeof s.maximum === 'number' ? s.maximum : 100_000,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      if (depth >= MAX_DEPTH) return fc.constant([]);
      const minLength = typeof s.minItems === 'number' ? s.minItems : 0;
      const maxLength = Math.max(minLength, Math.min(typeof s.maxItems === 'number' ? s.maxItems : 3, 3));
      return fc.array(validArbitrary(s.items ?? {}, depth + 1), { minLength, maxLength });
    }
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      if (depth >= MAX_DEPTH || Object.keys(properties).length === 0) return fc.constant({});
      const required = ((s.required as string[] | undefined) ?? []).filter((name) => name in properties);
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, validArbitrary(value, depth + 1)])),
        { requiredKeys: required },
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of another kind than the schema asks for, or anything at all. */
export function invalidArbitrary(schema: unknown): fc.Arbitrary<unknown> {
  const types = [(schema as Schema | undefined)?.type].flat();
  const others: fc.Arbitrary<unknown>[] = [
    fc.jsonValue({ maxDepth: 3 }),
    fc.string({ maxLength: 30 }),
    fc.constantFrom('', 'True', '1e999', '-1', '0x10', 'null', '[]', '%', '\u0000', 'é'.repeat(50)),
  ];
  if (!types.includes('integer') && !types.includes('number')) others.push(fc.integer());
  if (!types.includes('object'))
    others.push(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }));
  if (!types.includes('array')) others.push(fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }));
  return fc.oneof(...others);
}
