/**
 * The hostile-input table against the contract-checking proxy in front of a server on the stubs (every operation
 * answers its first documented example): what the proxy refuses itself (the server package's limits) and what it
 * forwards, each case gets a status the table allows, a bounded body in the API's error shape, and afterwards a proxy
 * that still forwards, a clean Object.prototype and a report that stays bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type RunningProxy } from '../../packages/proxy/src/index.ts';
import { startExampleServer, type ExampleServer } from '../support/example-server.ts';
import { hostileCases, requestSemanticsCases, TOKEN } from './cases.ts';
import { expectReadableAnswer, sendCase } from './send.ts';

const PROTOTYPE = Object.getOwnPropertyNames(Object.prototype).sort();
const lines: string[] = [];
let upstream: ExampleServer;
let proxy: RunningProxy;

beforeAll(async () => {
  upstream = await startExampleServer();
  proxy = await startProxy({ upstream: upstream.origin, port: 0, log: (line) => lines.push(line) });
});

afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
});

describe('hostile inputs through the proxy', { timeout: 60_000 }, () => {
  it.each([...hostileCases, ...requestSemanticsCases].map((c) => [c.name, c] as const))(
    '%s',
    async (_name, hostile) => {
      const response = await sendCase(proxy.url, hostile, hostile.maxBodyBytes ?? 64 * 1024);
      expectReadableAnswer(hostile, response);

      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE);
      expect((await sendCase(proxy.url, { method: 'GET', path: '/projects/1/jobs' })).status).toBe(401);
      expect((await sendCase(proxy.url, { method: 'GET', path: '/projects/1/jobs', headers: TOKEN })).status).toBe(200);
      // Every log line is one line: nothing a client sent starts a line of its own.
      for (const line of lines) expect(line).not.toMatch(/[\r\n\u2028\u2029]/);
    },
  );

  it('keeps its report bounded', () => {
    const report = proxy.report();
    expect(Object.keys(report.operations).length).toBeLessThanOrEqual(1000);
    for (const operation of Object.values(report.operations))
      expect(operation.disagreements.length).toBeLessThanOrEqual(20);
  });
});
