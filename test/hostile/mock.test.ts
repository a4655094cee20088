/**
 * The hostile-input table (test/hostile/cases.ts, also run against a server on the stubs and the fake) against the
 * mock: each case gets a status the table allows, a bounded body in the API's error shape, and afterwards the mock
 * still answers, no prototype was planted, and memory has not grown without bound.
 */
import { describe, expect, it } from 'vitest';
import { useMock } from '../support/mock.ts';
import { hostileCases, requestSemanticsCases, TOKEN } from './cases.ts';
import { expectReadableAnswer, sendCase } from './send.ts';

/** Loose: the heap may hold some garbage between collections, but never a multiple of a hostile body. */
const HEAP_GROWTH_LIMIT = 300 * 1024 * 1024;
const PROTOTYPE = Object.getOwnPropertyNames(Object.prototype).sort();
const api = useMock();

describe('hostile inputs against the mock', { timeout: 60_000 }, () => {
  const baseline = process.memoryUsage().heapUsed;
  const origin = () => api().replace(/\/api\/v4$/, '');

  it.each([...hostileCases, ...requestSemanticsCases].map((c) => [c.name, c] as const))(
    '%s',
    async (_name, hostile) => {
      const response = await sendCase(origin(), hostile, hostile.maxBodyBytes ?? 64 * 1024);
      expectReadableAnswer(hostile, response);

      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE);
      expect(
        (await sendCase(origin(), { method: 'GET', path: '/projects/42/jobs' })).status,
        'an anonymous request is still refused',
      ).toBe(401);
      expect(
        (await sendCase(origin(), { method: 'GET', path: '/projects/42/jobs', headers: TOKEN })).status,
        'the mock still answers',
      ).toBe(200);
      expect(process.memoryUsage().heapUsed - baseline).toBeLessThan(HEAP_GROWTH_LIMIT);
    },
  );
});
