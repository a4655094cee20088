import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleServer, type ExampleServer } from './support/example-server.ts';

/** Missing or invalid credentials give 401; an operation open to anonymous callers lets only the missing ones in. */
describe('server package: credentials on an operation open to anonymous callers', () => {
  let server: ExampleServer;
  beforeAll(async () => {
    server = await startExampleServer({ authenticate: ({ credentials }) => (credentials.some((c) => c.value === 'good') ? { user: 'alice' } : null) });
  });
  afterAll(() => server.close());

  const file = '/api/v4/projects/42/repository/files/README.md?ref=main';
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
