/**
 * The equivalence check of two bundled documents (old and new): for every parameter, request body and response body
 * that both describe, values sampled from each side's schema (valid ones and breaking ones, fast-check) are validated
 * by both sides' schemas; a value one side accepts and the other refuses is a difference. A rewrite into another shape
 * (openapi/conventions.md, "Portable shapes") must show none but the ones its CHANGELOG entry states. Parameters are
 * read as the Service reads them (Ajv's type coercion, as the server package's request validators do), so `42` and
 * `"42"` are the same path value; bodies are JSON and compared exactly.
 */
import ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { listOperations, type OperationEntry } from '../../generators/lib/document.ts';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { sharedDereferencer } from '../../packages/server/src/openapi-model.ts';
import { formats } from '../../packages/validators/src/formats.ts';
import { invalidArbitrary, validArbitrary } from '../../test/support/schema-arbitrary.ts';

/** One place a schema describes: `GET /projects/{id}/jobs › path id`. */
export interface Difference {
  where: string;
  /** A value only the new document accepts (looser), or only the old one (stricter). */
  onlyNew?: unknown;
  onlyOld?: unknown;
}

interface Place {
  where: string;
  schema: unknown;
  /** Parameters: values arrive as text and are coerced as the server package reads them. */
  coerce: boolean;
}

type Entry = Pick<OperationEntry, 'method' | 'path' | 'operation' | 'parameters'>;

/** Every schema of an operation, keyed by where it is. */
function places(entry: Entry): Place[] {
  const at = `${entry.method.toUpperCase()} ${entry.path}`;
  const out: Place[] = entry.parameters.map((p) => ({
    where: `${at} › ${p.in} ${p.name}`,
    schema: p.schema,
    coerce: true,
  }));
  const body = entry.operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined;
  for (const [type, media] of Object.entries(body?.content ?? {}))
    out.push({ where: `${at} › body ${type}`, schema: media.schema, coerce: false });
  const responses = (entry.operation.responses ?? {}) as Record<
    string,
    { content?: Record<string, { schema?: unknown }> }
  >;
  for (const [status, response] of Object.entries(responses))
    for (const [type, media] of Object.entries(response?.content ?? {}))
      if (/json/.test(type)) out.push({ where: `${at} › ${status} ${type}`, schema: media.schema, coerce: false });
  return out.filter((p) => p.schema !== undefined);
}

/** Validators of one document's schemas: `#/components/…` references resolve inside that document. */
function validators(doc: OpenApiDocument, id: string) {
  const make = (coerce: boolean) => {
    // ajv is CommonJS: under NodeNext its class sits on `.default`. The formats are our validators' own.
    const ajv = new ajv2020.default({
      strict: false,
      logger: false,
      coerceTypes: coerce ? 'array' : false,
      formats: formats as never,
    });
    ajv.addSchema({ $id: id, components: doc.components ?? {} });
    return ajv;
  };
  const ajvs = { plain: make(false), coerced: make(true) };
  const cache = new Map<string, ValidateFunction>();
  return (schema: unknown, coerce: boolean): ValidateFunction => {
    const text = JSON.stringify(schema).replaceAll('"#/components/', `"${id}#/components/`);
    const key = `${coerce}:${text}`;
    const validate = cache.get(key) ?? (coerce ? ajvs.coerced : ajvs.plain).compile(JSON.parse(text));
    cache.set(key, validate);
    return validate;
  };
}

/** The schema's text with that of every component it reaches: equal texts accept the same values. */
function closure(doc: OpenApiDocument, schema: unknown): string {
  const components = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const names = new Set<string>();
  const texts = [JSON.stringify(schema)];
  for (let i = 0; i < texts.length; i++)
    for (const [, name] of texts[i]!.matchAll(/"#\/components\/schemas\/([^"]+)"/g))
      if (!names.has(name!)) {
        names.add(name!);
        texts.push(JSON.stringify(components[name!] ?? null));
      }
  return [texts[0], ...[...names].sort().map((name) => `${name}=${JSON.stringify(components[name] ?? null)}`)].join(
    '\n',
  );
}

type Schema = Record<string, unknown>;

/** The properties an object schema names, on itself and in its `allOf`/`anyOf`/`oneOf` members (one level). */
function propertiesOf(schema: unknown): Schema {
  if (typeof schema !== 'object' || schema === null) return {};
  const s = schema as Schema;
  const members = ['allOf', 'anyOf', 'oneOf'].flatMap((k) => (Array.isArray(s[k]) ? (s[k] as Schema[]) : []));
  return Object.assign({}, ...members.map((m) => (m?.properties ?? {}) as Schema), s.properties ?? {});
}

/**
 * The values to try at a place: valid and breaking ones of each side's schema, and for each property either side
 * names, an object of the other side's valid values with that property set to a value of another kind (a property
 * that one side types and the other leaves open tells them apart).
 */
function samples(schemas: unknown[], runs: number, seed: number): unknown[] {
  const names = Object.assign({}, ...schemas.map(propertiesOf)) as Schema;
  return schemas.flatMap((schema, i) => {
    const valid = fc.sample(validArbitrary(schema), { numRuns: runs, seed: seed + i });
    const probes = Object.entries(names).flatMap(([name, property]) =>
      fc
        .sample(fc.oneof(invalidArbitrary(property), validArbitrary(property)), { numRuns: 3, seed: seed + i })
        .map((value, j) => {
          const base = valid[j % Math.max(valid.length, 1)];
          return typeof base === 'object' && base !== null && !Array.isArray(base)
            ? { ...base, [name]: value }
            : { [name]: value };
        }),
    );
    return [
      ...valid,
      ...fc.sample(invalidArbitrary(schema), { numRuns: Math.ceil(runs / 3), seed: seed + i }),
      ...probes,
    ];
  });
}

/** Validates a copy (coercion rewrites the value in place); a value a schema cannot compile is never accepted. */
function accepts(validate: ValidateFunction, value: unknown): boolean {
  const holder = { value: structuredClone(value) };
  try {
    return validate(holder.value) === true;
  } catch {
    return false;
  }
}

/** The places where the two documents accept different values, with one value that tells them apart. */
export function compareSampled(before: OpenApiDocument, after: OpenApiDocument, runs = 30, seed = 1): Difference[] {
  const oldCheck = validators(before, 'old');
  const newCheck = validators(after, 'new');
  const oldDeref = sharedDereferencer(before);
  const newDeref = sharedDereferencer(after);
  const oldPlaces = new Map(listOperations(before).flatMap((e) => places(e).map((p) => [p.where, p] as const)));
  const differences: Difference[] = [];
  for (const entry of listOperations(after)) {
    for (const place of places(entry)) {
      const old = oldPlaces.get(place.where);
      if (!old) continue;
      if (closure(before, old.schema) === closure(after, place.schema)) continue;
      const values = samples([oldDeref(old.schema), newDeref(place.schema)], runs, seed);
      const [a, b] = [oldCheck(old.schema, place.coerce), newCheck(place.schema, place.coerce)];
      const difference: Difference = { where: place.where };
      for (const value of values) {
        const [byOld, byNew] = [accepts(a, value), accepts(b, value)];
        if (byNew && !byOld) difference.onlyNew ??= value;
        if (byOld && !byNew) difference.onlyOld ??= value;
      }
      if ('onlyNew' in difference || 'onlyOld' in difference) differences.push(difference);
    }
  }
  return differences;
}
