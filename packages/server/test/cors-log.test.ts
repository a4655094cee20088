/**
 * The server package's `cors` and `accessLog` options, on a server whose handlers answer the documented examples:
 * CORS headers on every answer and preflights on known paths, one access-log entry per answer with its operation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLogEntry } from '@service-api/server';
import { startExampleServer, type ExampleServer } from '../../../test/support/example-server.ts';

const token = { 'PRIVATE-TOKEN': 'x' };
const entries: AccessLogEntry[] = [];
let server: ExampleServer;
let plain: ExampleServer;
let listed: ExampleServer;

beforeAll(async () => {
  server = await startExampleServer({ cors: true, accessLog: (entry) => entries.push(entry) });
  plain = await startExampleServer();
  listed = await startExampleServer({ cors: ['http://localhost:5173'] });
});
afterAll(async () => {
  await server?.close();
  await plain?.close();
  await listed?.close();
});

describe('cors', () => {
  const LISTED = 'http://localhost:5173';
  const cases: [
    title: string,
    server: () => ExampleServer,
    path: string,
    init: RequestInit,
    status: number,
    headers: Record<string, string | null>,
  ][] = [
    [
      'true: any origin, without credentials',
      () => server,
      '/projects/1/jobs',
      { headers: { ...token, Origin: 'http://evil.test' } },
      200,
      { 'access-control-allow-origin': '*', 'access-control-allow-credentials': null },
    ],
    [
      'true: Origin null gets *, never null with credentials',
      () => server,
      '/projects/1/jobs',
      { headers: { ...token, Origin: 'null' } },
      200,
      { 'access-control-allow-origin': '*', 'access-control-allow-credentials': null },
    ],
    [
      'a list: a listed origin, with credentials',
      () => listed,
      '/projects/1/jobs',
      { headers: { ...token, Origin: LISTED } },
      200,
      { 'access-control-allow-origin': LISTED, 'access-control-allow-credentials': 'true', vary: 'Origin' },
    ],
    [
      'a list: an unlisted origin gets no CORS header',
      () => listed,
      '/projects/1/jobs',
      { headers: { ...token, Origin: 'http://evil.test' } },
      200,
      { 'access-control-allow-origin': null, 'access-control-allow-credentials': null, vary: 'Origin' },
    ],
    [
      'a list: Origin null is never reflected',
      () => listed,
      '/projects/1/jobs',
      { headers: { ...token, Origin: 'null' } },
      200,
      { 'access-control-allow-origin': null, 'access-control-allow-credentials': null },
    ],
    [
      'marks refusals too',
      () => listed,
      '/projects/1/jobs',
      { headers: { Origin: LISTED } },
      401,
      { 'access-control-allow-origin': LISTED },
    ],
    [
      'answers a preflight on a known path with its methods',
      () => server,
      '/projects/1/merge_requests',
      {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://a.test',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'private-token, content-type',
        },
      },
      204,
      {
        'access-control-allow-methods': 'GET, HEAD, OPTIONS, POST',
        'access-control-allow-headers': 'private-token, content-type',
      },
    ],
    [
      'answers a preflight on an unknown path with 404',
      () => server,
      '/no/such/path',
      { method: 'OPTIONS', headers: { Origin: 'http://a.test' } },
      404,
      { 'access-control-allow-origin': '*' },
    ],
  ];
  it.each(cases)('%s', async (_title, target, path, init, status, headers) => {
    const response = await fetch(`${target().origin}/api/v4${path}`, init);
    expect(response.status).toBe(status);
    for (const [name, value] of Object.entries(headers)) expect(response.headers.get(name), name).toBe(value);
    if (response.headers.get('access-control-allow-origin'))
      expect(response.headers.get('access-control-expose-headers')).toContain('Link');
  });

  it.each([['null'], ['localhost:5173'], ['http://localhost:5173/'], ['http://localhost:5173/app']])(
    'refuses %s as an origin to allow',
    async (origin) => {
      await expect(startExampleServer({ cors: [origin] })).rejects.toThrow(/is not an origin/);
    },
  );

  it('is off by default: no CORS headers, and OPTIONS is answered as Grape answers it (204 with Allow)', async () => {
    const response = await fetch(`${plain.origin}/api/v4/projects/1/merge_requests`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://a.test' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
    expect(response.headers.get('access-control-allow-methods')).toBeNull();
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('accessLog', () => {
  const cases: [title: string, path: string, init: RequestInit, entry: Partial<AccessLogEntry>][] = [
    [
      'names the operation',
      '/projects/1/jobs?scope[]=failed',
      { headers: token },
      {
        method: 'GET',
        url: '/api/v4/projects/1/jobs?scope[]=failed',
        status: 200,
        operationId: 'jobs/list-project-jobs',
      },
    ],
    ['logs a refusal', '/projects/1/jobs', {}, { status: 401, operationId: 'jobs/list-project-jobs' }],
    [
      'logs an unknown path without an operation',
      '/no/such/path',
      { headers: token },
      { status: 404, operationId: undefined },
    ],
    [
      'carries what was tolerated',
      '/groups?all_available=True',
      { headers: token },
      { status: 200, operationId: 'groups/list-groups', tolerated: expect.objectContaining({ count: 1 }) },
    ],
  ];
  it.each(cases)('%s', async (_title, path, init, entry) => {
    entries.length = 0;
    await (await fetch(`${server.origin}/api/v4${path}`, init)).arrayBuffer();
    await expect.poll(() => entries.length).toBe(1);
    expect(entries[0]).toMatchObject(entry);
    expect(entries[0]!.ms).toBeGreaterThanOrEqual(0);
  });
});
