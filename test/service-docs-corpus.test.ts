/**
 * Response bodies nobody here wrote: the example responses of the Service's own API documentation (its public
 * repository's `doc/api/*.md`), each stored with its source and mapped to the operation it documents
 * (test/fixtures/service-docs/*.json). Each is validated against the operation's response schema on both renditions:
 * the 3.1 document with Ajv (JSON Schema 2020-12) and the 3.0 rendition with Ajv's OpenAPI 3.0 reading (`nullable`
 * adds `null` to the `type` beside it, as 3.0.3 defines it). The documentation trims bodies (fields left out), so the
 * verdict is on types: `required` is not checked (except inside `if` and `not`, where it is a condition). The full
 * verdict of the generated validators (`validateResponse`) is counted beside it. A body listed as `wrong` (with the
 * reason the documentation's body is not what the Service sends) must fail; every other must pass, and at least 95 %
 * of the bodies pass on both renditions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateResponse } from '@service-api/validators';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { HTTP_METHODS, pointerSegment } from '../packages/server/src/openapi-model.ts';
import { ROOT } from '../scripts/lib/paths.ts';

type Json = Record<string, unknown>;
interface Body {
  /** `doc/api/<file>.md § <section>`: where the example is in the Service's repository (at the corpus's commit). */
  source: string;
  /** `GET /projects/{id}/jobs`: the operation in our document. */
  operation: string;
  status: number;
  body: unknown;
  /**
   * Why the documentation's body is not what the Service sends (it must then fail on types): for both renditions, or
   * by rendition where only one of them can tell (`format: byte` is checked on 3.0 only).
   */
  wrong?: string | Partial<Record<'3.0' | '3.1', string>>;
}
interface Corpus {
  repository: string;
  commit: string;
  bodies: Body[];
}

const FOLDER = join(ROOT, 'test', 'fixtures', 'service-docs');
const corpora = readdirSync(FOLDER)
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({ name, ...(JSON.parse(readFileSync(join(FOLDER, name), 'utf8')) as Corpus) }));
const bodies = corpora.flatMap((c) => c.bodies.map((b) => ({ ...b, file: c.name })));

const read = (name: string) => JSON.parse(readFileSync(join(ROOT, 'generated', 'openapi', name), 'utf8')) as Json;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** Keys whose values are data, never schemas. */
const DATA = new Set(['example', 'examples', 'default', 'enum', 'const']);

/**
 * The document judged on types: `required` dropped where it asserts (a trimmed body leaves fields out), kept where it
 * is a condition (inside `if`) or negated (inside one `not`: the 3.0 rendition writes `if A then B` as
 * `not: {allOf: [A, {not: B}]}`, so `required` under two `not`s asserts again), and `oneOf` read as `anyOf` (without
 * `required`, alternatives that differ only in their required fields overlap).
 */
type Mode = 'assert' | 'negated' | 'condition';
function typesOnly(node: unknown, mode: Mode = 'assert'): unknown {
  if (Array.isArray(node)) return node.map((item) => typesOnly(item, mode));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (DATA.has(key)) out[key] = value;
    else if (mode === 'assert' && key === 'required' && Array.isArray(value)) continue;
    else if (mode === 'assert' && key === 'oneOf') out.anyOf = typesOnly(value, mode);
    else out[key] = typesOnly(value, inner(mode, key));
  }
  return out;
}

function inner(mode: Mode, key: string): Mode {
  if (mode === 'condition' || key === 'if' || key === 'x-if') return 'condition';
  if (key === 'not' || key === 'x-not') return mode === 'assert' ? 'negated' : 'assert';
  return mode;
}

/** The pointer of an operation's JSON response schema (`GET /projects/{id}/jobs`, 200). */
function schemaPointer(doc: Json, operation: string, status: number): string | undefined {
  const [method, path] = operation.split(' ') as [string, string];
  const paths = doc.paths as Record<string, Record<string, Json>>;
  if (!HTTP_METHODS.includes(method.toLowerCase() as never) || !paths[path]?.[method.toLowerCase()]) return undefined;
  const response = (paths[path]![method.toLowerCase()]!.responses as Record<string, Json>)[String(status)];
  const content = (response?.content ?? {}) as Record<string, Json>;
  if (!content['application/json']?.schema) return undefined;
  return `#/paths/${pointerSegment(path)}/${method.toLowerCase()}/responses/${status}/content/${pointerSegment('application/json')}/schema`;
}

/** A validator per rendition of the document: `(operation, status, body) => errors` (none: valid on types). */
function validator(doc: Json, ajv: { addSchema(s: object, k: string): unknown; getSchema(k: string): unknown }) {
  ajv.addSchema(typesOnly(doc) as object, 'doc');
  return (operation: string, status: number, body: unknown): string[] | undefined => {
    const pointer = schemaPointer(doc, operation, status);
    if (!pointer) return undefined;
    const check = ajv.getSchema(`doc${pointer}`) as
      | (((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null })
      | undefined;
    if (!check) return undefined;
    return check(body) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
  };
}

const ajv31 = new Ajv2020.default({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv31);
const ajv30 = new Ajv.default({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv30);
const rendition = {
  '3.1': validator(read('openapi.json'), ajv31),
  '3.0': validator(read('openapi.3.0.json'), ajv30),
};

/** What the generated validators say of fields left out: the field itself, and the rules and unions that need it. */
const REQUIRED_ONLY =
  /must have required property|must match "then" schema|must match a schema in anyOf|must match exactly one schema in oneOf|^and \d+ more problem/;

const wrongOn = (body: Body, name: string) =>
  typeof body.wrong === 'string' ? body.wrong : body.wrong?.[name as '3.0'];

describe('the Service documentation’s example responses', () => {
  it('name their source and an operation and status of the document with a JSON body', () => {
    expect(bodies.length).toBeGreaterThanOrEqual(20);
    for (const corpus of corpora) expect(corpus.commit, corpus.name).toMatch(/^[0-9a-f]{40}$/);
    for (const body of bodies) {
      expect(body.source, body.source).toMatch(/^doc\/api\/[\w/]+\.md § .+/);
      for (const [name, check] of Object.entries(rendition))
        expect(
          check(body.operation, body.status, body.body),
          `${name}: ${body.operation} ${body.status}`,
        ).toBeDefined();
    }
  });

  for (const [name, check] of Object.entries(rendition))
    it(`are valid on types on the ${name} rendition, except those listed as wrong (at least 95 %)`, () => {
      const verdicts = bodies.map((body) => ({ body, errors: check(body.operation, body.status, body.body) ?? [] }));
      const unexpected = verdicts
        .filter(({ body, errors }) => errors.length > 0 !== (wrongOn(body, name) !== undefined))
        .map(
          ({ body, errors }) =>
            `${body.source} (${body.operation} ${body.status}): ${errors.slice(0, 5).join('; ') || 'valid, but listed as wrong'}`,
        );
      expect(unexpected).toEqual([]);
      const valid = verdicts.filter((v) => v.errors.length === 0).length;
      console.info(
        `service docs corpus, ${name}: ${valid} of ${bodies.length} bodies valid on types (${((100 * valid) / bodies.length).toFixed(1)} %)`,
      );
      expect(valid / bodies.length).toBeGreaterThanOrEqual(0.95);
    });

  it('fail on types when a field has the wrong type (the check can fail)', () => {
    const job = bodies.find((b) => b.operation === 'GET /projects/{id}/jobs/{job_id}')!;
    for (const check of Object.values(rendition)) {
      expect(check(job.operation, job.status, { ...(job.body as Json), id: 'eight' })).toContain('/id must be integer');
      expect(check(job.operation, job.status, job.body)).toEqual([]);
    }
  });

  it('fail the generated validators only for the fields they leave out, where valid on types', () => {
    const ids = new Map<string, string>();
    for (const [path, item] of Object.entries(read('openapi.json').paths as Record<string, Record<string, Json>>))
      for (const [method, operation] of Object.entries(item))
        if (typeof operation?.operationId === 'string')
          ids.set(`${method.toUpperCase()} ${path}`, operation.operationId);
    const typed = bodies.filter((b) => wrongOn(b, '3.1') === undefined);
    const verdicts = typed.map((b) => ({
      b,
      result: validateResponse(ids.get(b.operation) as never, b.status, b.body),
    }));
    const complete = verdicts.filter((v) => v.result.valid).length;
    console.info(
      `service docs corpus, generated validators (required included): ${complete} of ${typed.length} complete`,
    );
    const other = verdicts.flatMap(({ b, result }) =>
      result.errors.filter((e) => !REQUIRED_ONLY.test(e)).map((e) => `${b.source}: ${e}`),
    );
    expect(other).toEqual([]);
  });
});
