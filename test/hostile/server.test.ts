/**
 * The hostile-input table against a Fastify app on the generated server package (every operation answers its first
 * documented example, `authenticate` accepts any token). Each case: the status, a bounded body in the API's error
 * shape, and afterwards a process that still answers, a clean Object.prototype and a 401 for an anonymous call.
 * Memory is measured loosely once all cases ran.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { registerServiceApi, serviceApiServerOptions } from '@service-api/server';
import { exampleHandlers, startExampleServer, type ExampleServer } from '../support/example-server.ts';
import { hostileCases, requestSemanticsCases, TOKEN } from './cases.ts';
import { expectAllow, expectJsonType, sendCase } from './send.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const PROTOTYPE = Object.getOwnPropertyNames(Object.prototype).sort();
let server: ExampleServer;
let heapBefore = 0;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

beforeAll(async () => {
  server = await startExampleServer();
  await sendCase(server.origin, { method: 'GET', path: '/projects/1/jobs', headers: TOKEN });
  heapBefore = heapAfterGc();
});

afterAll(async () => {
  await server?.close();
});

describe('hostile inputs against a server built on @service-api/server', { timeout: 60_000 }, () => {
  it.each([...hostileCases, ...requestSemanticsCases].map((c) => [c.name, c] as const))(
    '%s',
    async (_name, hostile) => {
      const limit = hostile.maxBodyBytes ?? 64 * 1024;
      const response = await sendCase(server.origin, hostile, limit);
      expect(
        [hostile.expect.status].flat(),
        `status ${response.status}: ${response.body.subarray(0, 300).toString()}`,
      ).toContain(response.status);
      expect(response.truncated, 'response body too large').toBe(false);
      expectJsonType(response.headers['content-type']);
      if (response.status >= 400 && response.body.length > 0) {
        const body = JSON.parse(response.body.toString()) as Record<string, unknown>;
        expect(typeof body.message).toBe('string');
        expect(String(body.message)).toMatch(new RegExp(`^${response.status} `));
        expect(body).not.toHaveProperty('statusCode');
        if (response.status === 400) {
          expect(Array.isArray(body.errors)).toBe(true);
          expect((body.errors as unknown[]).length).toBeLessThanOrEqual(20);
        }
      }
      expectAllow(hostile, response);

      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE);
      expect(({} as Record<string, unknown>).private_token).toBeUndefined();
      expect(({} as Record<string, unknown>).sudo).toBeUndefined();
      expect((await sendCase(server.origin, { method: 'GET', path: '/user/activities' })).status).toBe(401);
      expect((await sendCase(server.origin, { method: 'GET', path: '/projects/1/jobs', headers: TOKEN })).status).toBe(
        200,
      );
    },
  );

  it('gives the memory back once every case ran', () => {
    // Loose on purpose: the cases send 50 MB bodies and 100,000-key JSON; none of it may stay referenced.
    expect(heapAfterGc() - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('authentication comes first', () => {
  it('answers 501 for a missing handler only to an authenticated caller', async () => {
    const partial = await startExampleServer({ handlers: {} });
    try {
      expect((await sendCase(partial.origin, { method: 'GET', path: '/projects/1/jobs' })).status).toBe(401);
      const answer = await sendCase(partial.origin, { method: 'GET', path: '/projects/1/jobs', headers: TOKEN });
      expect(answer.status).toBe(501);
      expect(JSON.parse(answer.body.toString())).toEqual({
        message: '501 Not Implemented - no handler for jobs/list-project-jobs',
      });
    } finally {
      await partial.close();
    }
  });

  it('never reads the body of an anonymous caller', async () => {
    let parsing = 0;
    const app = Fastify(serviceApiServerOptions());
    app.addHook('preParsing', async () => {
      parsing++;
    });
    await registerServiceApi(app, {
      handlers: exampleHandlers(),
      authenticate: ({ credentials }) => credentials.length > 0,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
      const answer = await sendCase(origin, {
        method: 'POST',
        path: '/projects/import',
        headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
        body: Buffer.alloc(1024 * 1024),
      });
      expect(answer.status).toBe(401);
      expect(answer.headers.connection).toBe('close');
      expect(parsing).toBe(0);
      // Nor a body sent to a method the path does not have (405) or to an unknown path (404), whatever its type.
      for (const [method, path, status] of [
        ['PUT', '/users/1', 405],
        ['POST', '/no/such/path', 404],
      ] as const) {
        for (const type of [
          'multipart/form-data; boundary=x',
          'application/json',
          'application/x-www-form-urlencoded',
        ]) {
          expect(
            (await sendCase(origin, { method, path, headers: { ...TOKEN, 'Content-Type': type }, body: '--x\r\n{' }))
              .status,
          ).toBe(status);
        }
      }
      expect(parsing).toBe(0);
      await sendCase(origin, {
        method: 'POST',
        path: '/projects/import',
        headers: { ...TOKEN, 'Content-Type': 'multipart/form-data; boundary=x' },
        body: 'x',
      });
      expect(parsing).toBe(1);
    } finally {
      await app.close();
    }
  });
});
