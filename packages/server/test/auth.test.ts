import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthenticateContext, ServiceApiOptions } from '@service-api/server';
import { startExampleServer, type ExampleServer } from '../../../test/support/example-server.ts';

const file = '/api/v4/projects/42/repository/files/README.md?ref=main';
const jobs = '/api/v4/projects/1/jobs';

/** Missing or invalid credentials give 401; an operation open to anonymous callers lets only the missing ones in. */
describe('server package: credentials on an operation open to anonymous callers', () => {
  let server: ExampleServer;
  beforeAll(async () => {
    server = await startExampleServer({
      authenticate: ({ credentials }) => (credentials.some((c) => c.value === 'good') ? { user: 'alice' } : null),
    });
  });
  afterAll(() => server.close());

  it.each([
    ['no credentials: anonymous, public data', {}, 200],
    ['a valid token', { 'PRIVATE-TOKEN': 'good' }, 200],
    ['an invalid token', { 'PRIVATE-TOKEN': 'bad' }, 401],
    ['an invalid bearer token', { Authorization: 'Bearer bad' }, 401],
  ] as const)('%s → %i', async (_title, headers, status) => {
    const response = await fetch(server.origin + file, { headers });
    expect(response.status).toBe(status);
    if (status === 401) expect(await response.json()).toEqual({ message: '401 Unauthorized' });
  });
});

type Authenticate = NonNullable<ServiceApiOptions['authenticate']>;
const user = { user: 'alice' };

/**
 * `authenticate` is only called with at least one credential: written the natural way, it cannot let an anonymous
 * caller in. (`credentials[0].value` type-checks without `?.`: the credentials are a non-empty tuple.)
 */
describe('authenticate written the natural way never admits an anonymous caller', () => {
  const natural: [string, Authenticate][] = [
    ['credentials ? user : undefined', ({ credentials }) => (credentials ? user : undefined)],
    ['credentials.length ? user : undefined', ({ credentials }) => (credentials.length ? user : undefined)],
    [
      "credentials[0].value === 'good' ? user : undefined",
      ({ credentials }) => (credentials[0].value === 'good' ? user : undefined),
    ],
    [
      "credentials.every((c) => c.value === 'good') ? user : undefined",
      ({ credentials }) => (credentials.every((c) => c.value === 'good') ? user : undefined),
    ],
    [
      'async, credentials ? user : undefined',
      async ({ credentials }) => Promise.resolve(credentials ? user : undefined),
    ],
  ];
  const calls: AuthenticateContext['credentials'][] = [];
  const servers = new Map<string, ExampleServer>();
  beforeAll(async () => {
    for (const [name, authenticate] of natural)
      servers.set(
        name,
        await startExampleServer({
          authenticate: (context) => {
            calls.push(context.credentials);
            return authenticate(context);
          },
        }),
      );
  });
  afterAll(async () => {
    for (const server of servers.values()) await server.close();
  });

  it.each(natural.map(([name]) => [name] as const))('%s', async (name) => {
    const origin = servers.get(name)!.origin;
    calls.length = 0;
    expect((await fetch(origin + jobs)).status).toBe(401);
    expect(
      (
        await fetch(`${origin}/api/v4/projects/1/merge_requests`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(401);
    expect((await fetch(origin + file)).status).toBe(200);
    expect(calls).toEqual([]);
    expect((await fetch(origin + jobs, { headers: { 'PRIVATE-TOKEN': 'good' } })).status).toBe(200);
    expect(calls).toEqual([[{ scheme: 'privateTokenHeader', value: 'good' }]]);
  });
});
