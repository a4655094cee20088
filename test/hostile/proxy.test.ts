/**
 * The hostile-input table against the contract-checking proxy in front of a server on the stubs (every operation
 * answers its first documented example): what the proxy refuses itself (the server package's limits) and what it
 * forwards, each case gets a status the table allows, a bounded body in the API's error shape, and afterwards a proxy
 * that still forwards, a clean Object.prototype and a report that stays bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAnswers } from '../../packages/proxy/src/contract.ts';
import { startProxy, type RunningProxy } from '../../packages/proxy/src/index.ts';
import { startExampleServer, type ExampleServer } from '../support/example-server.ts';
import { hostileCases, hostileUpstreamCases, requestSemanticsCases, TOKEN, type HostileUpstreamCase } from './cases.ts';
import { startRawUpstream } from './raw-upstream.ts';
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
      expect(operation.disagreements.length).toBeLessThanOrEqual(100 * 10);
  });
});

/** The case's request, sent twice: the second proves the proxy survived the first. */
const JOBS_REQUEST = { method: 'GET', path: '/projects/1/jobs', headers: TOKEN };

describe('a hostile upstream behind the proxy', { timeout: 60_000 }, () => {
  const answers = loadAnswers();

  it.each(hostileUpstreamCases.map((c) => [c.name, c] as const))('%s', async (_name, hostile: HostileUpstreamCase) => {
    const upstream = await startRawUpstream(hostile);
    const log: string[] = [];
    const running = await startProxy({
      upstream: upstream.origin,
      port: 0,
      answers: await answers,
      log: (l) => log.push(l),
    });
    try {
      for (const _ of [1, 2]) {
        const response = await sendCase(running.url, hostile.request ?? JOBS_REQUEST);
        const text = response.body.toString();
        expect(response.status, text).toBe(hostile.expect.status);
        expect(response.headers['content-type']).toBe('application/json');
        if (response.status >= 400)
          expect(String((JSON.parse(text) as { message?: unknown }).message)).toMatch(/^\d{3} /);
      }
      const report = running.report();
      const failures = Object.values(report.operations).flatMap((o) =>
        o.disagreements.filter((d) => d.kind === 'upstream-failure'),
      );
      if (hostile.expect.status === 502) {
        expect(failures.length, JSON.stringify(report.operations)).toBeGreaterThan(0);
        expect(failures.reduce((sum, f) => sum + f.count, 0)).toBe(2);
      } else expect(failures).toEqual([]);
      // What the upstream wrote is never quoted in the report or the log.
      for (const text of [JSON.stringify(report), ...log])
        for (const quoted of ['O\u0001K', '✓', 'Très', 'garbage', 'id":1']) expect(text).not.toContain(quoted);
    } finally {
      await running.close();
      await upstream.close();
    }
  });
});

describe('a hostile upstream behind the proxy, repeated and at length', { timeout: 60_000 }, () => {
  it('relays an early 413 followed by a reset every time (40 tries, 64 KiB and 5 MB uploads)', async () => {
    const cases = hostileUpstreamCases.filter((c) => c.name.startsWith('an early 413 then a reset'));
    expect(cases).toHaveLength(2);
    for (const hostile of cases) {
      const upstream = await startRawUpstream(hostile);
      const running = await startProxy({ upstream: upstream.origin, port: 0 });
      const statuses: Record<number, number> = {};
      try {
        for (let i = 0; i < 20; i++) {
          const { status } = await sendCase(running.url, hostile.request!);
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      } finally {
        await running.close();
        await upstream.close();
      }
      expect(statuses, hostile.name).toEqual({ 413: 20 });
    }
  });

  it('cuts the connection of an answer that breaks off past what it holds, and reports it', async () => {
    const answer = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n[${' '.repeat(200 * 1024)}`;
    const upstream = await startRawUpstream({ answer, then: 'reset' });
    const running = await startProxy({ upstream: upstream.origin, port: 0 });
    try {
      for (const _ of [1, 2]) {
        const response = await sendCase(running.url, JOBS_REQUEST, 2 * 1024 * 1024);
        expect(response.status).toBe(200);
        expect(response.body.length).toBeLessThan(1048576);
      }
      const [operation] = Object.values(running.report().operations);
      expect(operation?.disagreements.map((d) => [d.kind, d.detail, d.count])).toContainEqual([
        'upstream-failure',
        'the connection broke off mid-answer',
        2,
      ]);
    } finally {
      await running.close();
      await upstream.close();
    }
  });
});
