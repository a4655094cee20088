/**
 * A bounded fuzz of every operation against the three things that answer as the Service does: a server on the
 * generated package (example handlers, any token), the mock and the stateful fake (its tokens). fast-check draws
 * values that the schemas admit and values that break them, in path, query and body. Every answer is below 500,
 * documented for the operation (the shared 400 counts for every operation that takes input, as the house rules
 * require), and valid against its schema. Each run draws a new seed and prints it; `FUZZ_SEED=<seed> npx vitest run
 * test/fuzz.test.ts` replays a run.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations, type OperationEntry } from '../generators/lib/document.ts';
import type { OpenApiDocument, Parameter } from '../generators/lib/openapi.ts';
import { readDocument } from '@service-api/openapi';
import { validateResponse } from '@service-api/server';
import { createFake } from '../packages/fake/src/index.ts';
import { createMock } from '../packages/mock/src/index.ts';
import { startExampleServer } from './support/example-server.ts';
import { fakeCredentials } from './support/fake-requests.ts';
import { credentialsFor, fillPath, serializeQuery, type Credentials } from './support/requests.ts';
import { invalidArbitrary, validArbitrary, type FilePart } from './support/schema-arbitrary.ts';
import { multipart } from './hostile/cases.ts';

const doc = readDocument({ dereferenced: true }) as unknown as OpenApiDocument;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = 6;
console.log(`fuzz seed ${SEED} (replay: FUZZ_SEED=${SEED} npx vitest run test/fuzz.test.ts)`);

interface Drawn {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: unknown;
}

function bodyOf(entry: OperationEntry): { type: string; schema: unknown; required: boolean } | undefined {
  const body = entry.operation.requestBody as
    | { required?: boolean; content?: Record<string, { schema?: unknown }> }
    | undefined;
  const [type, media] = Object.entries(body?.content ?? {})[0] ?? [];
  return type ? { type, schema: media?.schema ?? {}, required: body?.required === true } : undefined;
}

function validRequest(entry: OperationEntry): fc.Arbitrary<Drawn> {
  const byIn = (where: string) => entry.parameters.filter((p) => p.in === where);
  const record = (parameters: Parameter[]) =>
    fc.record(Object.fromEntries(parameters.map((p) => [p.name, validArbitrary(p.schema ?? {})])), {
      requiredKeys: parameters.filter((p) => p.required).map((p) => p.name),
    });
  const body = bodyOf(entry);
  return fc.record({
    path: fc.record(
      Object.fromEntries(
        byIn('path').map((p) => [p.name, validArbitrary(p.schema ?? {}).filter((v) => text(v) !== '')]),
      ),
    ),
    query: record(byIn('query')),
    ...(body ? { body: validArbitrary(body.schema) } : {}),
  });
}

/** A valid request with one part broken: a parameter or body field of another kind, an unknown field, or any JSON body. */
function invalidRequest(entry: OperationEntry): fc.Arbitrary<Drawn> {
  const body = bodyOf(entry);
  const bodyFields = Object.entries(
    ((body?.schema as { properties?: Record<string, unknown> })?.properties ?? {}) as Record<string, unknown>,
  );
  const targets: fc.Arbitrary<(drawn: Drawn) => Drawn>[] = [
    ...entry.parameters
      .filter((p) => p.in === 'path' || p.in === 'query')
      .map((p) =>
        invalidArbitrary(p.schema)
          .filter((v) => p.in !== 'path' || (text(v) !== '' && text(v).length < 1000))
          .map(
            (value) => (drawn: Drawn) =>
              p.in === 'path'
                ? { ...drawn, path: { ...drawn.path, [p.name]: value } }
                : { ...drawn, query: { ...drawn.query, [p.name]: value } },
          ),
      ),
    ...bodyFields.map(([name, schema]) =>
      invalidArbitrary(schema).map((value) => (drawn: Drawn) => ({
        ...drawn,
        body: { ...(drawn.body as object), [name]: value },
      })),
    ),
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }))
      .map(([name, value]) => (drawn: Drawn) => ({
        ...drawn,
        query: { ...drawn.query, [name]: typeof value === 'object' ? JSON.stringify(value) : value },
      })),
  ];
  if (body && /json/.test(body.type))
    targets.push(fc.jsonValue({ maxDepth: 4 }).map((value) => (drawn: Drawn) => ({ ...drawn, body: value })));
  return fc.tuple(validRequest(entry), fc.oneof(...targets)).map(([drawn, breakIt]) => breakIt(drawn));
}

function multipartParts(fields: Record<string, unknown>): [string, string | FilePart][] {
  const parts: [string, string | FilePart][] = [];
  const add = (name: string, value: unknown): void => {
    if (value && typeof value === 'object' && 'data' in value && Buffer.isBuffer((value as FilePart).data))
      parts.push([name, value as FilePart]);
    else if (Array.isArray(value))
      value.forEach((item) => {
        add(`${name}[]`, item);
      });
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) add(`${name}[${key}]`, item);
    else parts.push([name, text(value)]);
  };
  for (const [name, value] of Object.entries(fields)) add(name, value);
  return parts;
}

/** A scalar as a URL carries it: objects (fast-check draws some without a prototype) as JSON. */
function text(value: unknown): string {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function urlValue(parameter: Parameter | undefined, value: unknown): unknown {
  if (Array.isArray(value)) return value.map(text);
  if (parameter?.style === 'deepObject' && value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, text(v)]));
  return text(value);
}

function toInject(entry: OperationEntry, drawn: Drawn, credentials: Credentials) {
  drawn = {
    ...drawn,
    path: Object.fromEntries(Object.entries(drawn.path).map(([k, v]) => [k, text(v)])),
    query: Object.fromEntries(
      Object.entries(drawn.query).map(([k, v]) => [
        k,
        urlValue(
          entry.parameters.find((p) => p.in === 'query' && p.name === k),
          v,
        ),
      ]),
    ),
  };
  const parameters = entry.parameters.filter((p) => p.in === 'query' && p.name in drawn.query);
  const extra = Object.keys(drawn.query).filter((name) => !parameters.some((p) => p.name === name));
  const pairs: [Parameter, unknown][] = [
    ...parameters.map((p): [Parameter, unknown] => [p, drawn.query[p.name]]),
    ...extra.map((name): [Parameter, unknown] => [{ name, in: 'query' } as Parameter, drawn.query[name]]),
  ];
  const search = [serializeQuery(pairs), credentials.query].filter(Boolean).join('&');
  const url = `/api/v4${fillPath(entry.path, drawn.path)}${search ? `?${search}` : ''}`;
  const headers: Record<string, string> = { ...credentials.headers };
  const body = bodyOf(entry);
  let payload: string | Buffer | undefined;
  if (body && drawn.body !== undefined) {
    if (body.type === 'multipart/form-data') {
      const form = multipart(
        multipartParts(
          drawn.body && typeof drawn.body === 'object'
            ? (drawn.body as Record<string, unknown>)
            : { value: drawn.body },
        ),
      );
      Object.assign(headers, form.headers);
      payload = form.body;
    } else {
      headers['content-type'] = body.type;
      payload = JSON.stringify(drawn.body);
    }
  }
  return { method: entry.method.toUpperCase() as 'GET', url, headers, payload };
}

interface Target {
  name: string;
  start(): Promise<{ app: FastifyInstance; close(): Promise<unknown> }>;
  credentials(entry: OperationEntry): Credentials;
}

const targets: Target[] = [
  {
    name: 'a server on the stubs',
    start: async () => startExampleServer(),
    credentials: (entry) => credentialsFor(doc, entry),
  },
  {
    name: 'the mock',
    start: async () => {
      const app = await createMock();
      return { app, close: () => app.close() };
    },
    credentials: (entry) => credentialsFor(doc, entry),
  },
  {
    name: 'the fake',
    start: async () => {
      const { app } = await createFake();
      return { app, close: () => app.close() };
    },
    credentials: (entry) => fakeCredentials(doc, entry),
  },
];

describe.each(targets)('fuzzing every operation against $name', { timeout: 180_000 }, (target) => {
  let app: FastifyInstance;
  let close: () => Promise<unknown>;
  beforeAll(async () => {
    ({ app, close } = await target.start());
  });
  afterAll(async () => {
    await close?.();
  });
  const entries = listOperations(doc);

  it.each([
    ['valid', validRequest],
    ['invalid', invalidRequest],
  ] as const)('%s inputs get documented answers valid against their schemas', async (_kind, arbitrary) => {
    for (const entry of entries) {
      const documented = new Set(Object.keys(entry.operation.responses));
      if (entry.parameters.length > 0 || entry.operation.requestBody) documented.add('400');
      await fc.assert(
        fc.asyncProperty(arbitrary(entry), async (drawn) => {
          const request = toInject(entry, drawn, target.credentials(entry));
          const response = await app.inject(request);
          const where = `seed ${SEED}: ${entry.operationId} ${request.method} ${request.url.slice(0, 300)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
          expect(response.statusCode, where).toBeLessThan(500);
          expect(documented.has(String(response.statusCode)), where).toBe(true);
          if (/json/.test(String(response.headers['content-type'])) && entry.method !== 'head') {
            const body = JSON.parse(response.body) as unknown;
            let check: { valid: boolean; errors: string[] } | undefined;
            try {
              check = validateResponse(entry.operationId as never, response.statusCode, body);
            } catch {
              check = undefined; // no JSON body documented for that status
            }
            if (check) expect(check.errors, where).toEqual([]);
            if (response.statusCode === 400)
              expect(body, where).toMatchObject({ message: expect.stringMatching(/^400 /) });
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }
    expect((await app.inject({ method: 'GET', url: '/api/v4/user/activities' })).statusCode).toBe(401);
  });
});
