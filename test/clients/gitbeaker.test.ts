/**
 * A widely used third-party TypeScript client of this API family (@gitbeaker/rest) against the mock, a server built
 * on @service-api/server and the stateful fake: one call per
 * operation it supports, in default mode (every call passes) and strict mode (the calls in the exact form pass;
 * the others are refused with 400 naming the field). Each call must reach the operation it is listed for.
 * Against the fake the calls run in order on one data set (create, then read, update and delete) and name its
 * records.
 */
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPrefix, routes } from '@service-api/server';
import { fastifyPath } from '@service-api/server/internal';
import { startExampleServer, type ExampleServer } from '../support/example-server.ts';
import { useMock } from '../support/mock.ts';
import { createFake } from '../../packages/fake/src/index.ts';
import { fakeIds, fakeTokens, gitbeakerCalls, mockIds, type CallIds } from './gitbeaker-calls.ts';

/** The operation of each Fastify route of the server package (`GET /api/v4/projects/:id/jobs`). */
const operationOfRoute = new Map(
  routes.map((route) => [`${route.method} ${apiPrefix}${fastifyPath(route.path)}`, route.id]),
);

/** The operations that logged request lines reached (`GET /api/v4/projects/42/jobs → 200 jobs/list-project-jobs …`). */
function reached(lines: string[]): string[] {
  return lines.flatMap((line) => /^[A-Z]+ \S+ → \d{3} ([\w-]+\/[\w-]+)/.exec(line)?.[1] ?? []);
}

interface Target {
  name: string;
  strict: boolean;
  /** The API root, `http://host:port/api/v4`. */
  api: () => string;
  /** Access-log lines of the target, to check which operation each call reached (optional). */
  lines?: string[];
  /** The token the client sends for an operation (default: any). */
  token?: (operationId: string) => string;
  /** The records the calls name. */
  ids: () => CallIds;
  /** The operations the target has a handler for (default: all). */
}

function mockTarget(strict: boolean): Target {
  const lines: string[] = [];
  return {
    name: `mock, ${strict ? 'strict' : 'default'} mode`,
    strict,
    api: useMock({ strict, log: (line) => lines.push(line) }),
    lines,
    ids: () => mockIds,
  };
}

/** A server built on @service-api/server whose handlers answer each operation's first documented example. */
function serverTarget(strict: boolean): Target {
  let server: ExampleServer | undefined;
  beforeAll(async () => {
    server = await startExampleServer({ strict });
  });
  afterAll(() => server?.close());
  return {
    name: `server package, ${strict ? 'strict' : 'default'} mode`,
    strict,
    api: () => `${server!.origin}/api/v4`,
    ids: () => mockIds,
  };
}

/** The fake on its default data set, as its administrator, with responses validated against the contract. */
function fakeTarget(strict: boolean): Target {
  const lines: string[] = [];
  let fake: Awaited<ReturnType<typeof createFake>> | undefined;
  let origin = '';
  let blob = '';
  beforeAll(async () => {
    fake = await createFake({ strict, validateResponses: true });
    fake.app.addHook('onResponse', async (request, reply) => {
      lines.push(
        `${request.method} ${request.url.split('?', 1)[0]} → ${reply.statusCode} ${operationOfRoute.get(`${request.method} ${request.routeOptions.url}`) ?? ''}`,
      );
    });
    await fake.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(fake.app.server.address() as { port: number }).port}`;
    const readme = await fetch(`${origin}/api/v4/projects/1/repository/files/README.md?ref=main`, {
      headers: { 'PRIVATE-TOKEN': 'admin-token' },
    });
    blob = ((await readme.json()) as { blob_id: string }).blob_id;
  });
  afterAll(() => fake?.app.close());
  const ids = (): CallIds => fakeIds(blob);
  return {
    name: `fake, ${strict ? 'strict' : 'default'} mode`,
    strict,
    api: () => `${origin}/api/v4`,
    lines,
    ids,
    // The administrator; runner creation takes a token with the create_runner scope (the group owner's); migration 1
    // is Dev's, read by its owner.
    token: (operationId) => fakeTokens[operationId] ?? 'admin-token',
  };
}

const targets: Target[] = [
  mockTarget(false),
  mockTarget(true),
  serverTarget(false),
  serverTarget(true),
  fakeTarget(false),
  fakeTarget(true),
];

describe.each(targets)('@gitbeaker/rest against the $name', ({ name, strict, api, lines, token, ids }) => {
  // One client per token: constructing a Gitlab instance builds every resource class (about 1.5 ms each time).
  const clients = new Map<string, Gitlab>();
  const client = (operationId: string) => {
    const key = token?.(operationId) ?? 'glpat-test';
    let made = clients.get(key);
    if (!made) clients.set(key, (made = new Gitlab({ host: api().replace(/\/api\/v4$/, ''), token: key })));
    return made;
  };
  const results: boolean[] = [];
  afterAll(() => {
    console.log(
      `@gitbeaker/rest against the ${name}: ${results.filter(Boolean).length} of ${results.length} calls pass`,
    );
  });

  const calls = strict
    ? gitbeakerCalls.map((c) => ({ ...c, expectPass: !c.tolerated }))
    : gitbeakerCalls.map((c) => ({ ...c, expectPass: true }));
  it.for(calls.map((c) => [c.operationId, c] as const))(
    '%s',
    async ([operationId, { call, expectPass, tolerated }]) => {
      if (lines) lines.length = 0;
      const outcome = await Promise.resolve()
        .then(() => call(client(operationId), ids()))
        .then(
          () => ({ ok: true, status: 0 }),
          (error: { cause?: { response?: { status?: number } }; message?: string }) => ({
            ok: false,
            status: error.cause?.response?.status ?? 0,
            message: error.message,
          }),
        );
      if (lines) expect(reached(lines), lines.join('\n')).toContain(operationId);
      results.push(outcome.ok);
      if (expectPass) expect(outcome, lines?.join('\n')).toMatchObject({ ok: true });
      else expect(outcome, `strict mode refuses: ${tolerated}`).toMatchObject({ ok: false, status: 400 });
    },
  );
});

describe("@gitbeaker/rest's paginationInfo against the mock", () => {
  const api = useMock();
  const gitlab = () => new Gitlab({ host: api().replace(/\/api\/v4$/, ''), token: 'glpat-test' });

  it('pages a list to its end and gets every pagination header as a number', async () => {
    const whole = await gitlab().Jobs.all(42);
    expect(whole.length).toBeGreaterThan(1);
    const paged = await gitlab().Jobs.all(42, { perPage: 1, showExpanded: true });
    expect(paged.data.map((job) => job.id)).toEqual(whole.map((job) => job.id));
    const last = whole.length;
    expect(paged.paginationInfo).toEqual({
      total: last,
      next: null,
      current: last,
      previous: last - 1,
      perPage: 1,
      totalPages: last,
    });
  });

  it('reads one page: its place among the others', async () => {
    const first = await gitlab().Jobs.all(42, { perPage: 1, page: 1, showExpanded: true });
    expect(first.data).toHaveLength(1);
    expect(first.paginationInfo).toMatchObject({ current: 1, next: 2, previous: null, perPage: 1 });
    expect(first.paginationInfo.total).toBeGreaterThan(1);
  });
});
