/**
 * The hostile-input table against the mock: each case gets its expected status, a bounded body, and afterwards the
 * mock still answers, no prototype was planted, and memory has not grown without bound. Targets are listed so that
 * another server (one built on @service-api/server) can be added to the same runner.
 */
import { describe, expect, it } from 'vitest';
import { useMock } from '../support/mock.ts';
import { hostileCases } from './cases.ts';
import { mockHostileCases, type HostileCase } from './mock-cases.ts';
import { sendHostile } from './run.ts';

const DEFAULT_MAX_BODY = 64 * 1024;
/** Loose: the heap may hold some garbage between collections, but never a multiple of a hostile body. */
const HEAP_GROWTH_LIMIT = 300 * 1024 * 1024;

/** The shared table (test/hostile/cases.ts, also run against the server package) and the mock's own cases. */
const cases: HostileCase[] = [...hostileCases, ...mockHostileCases];

/** A server built on @service-api/server can be added here: its API root as a getter. */
const targets: { name: string; api: () => string }[] = [{ name: 'mock', api: useMock() }];

describe.each(targets)('$name', ({ api }) => {
  const baseline = process.memoryUsage().heapUsed;

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const limit = testCase.maxBodyBytes ?? DEFAULT_MAX_BODY;
    const answer = await sendHostile(api(), testCase, limit);
    const expected = [testCase.expect.status].flat();
    expect(expected, `status ${answer.status}: ${answer.body.slice(0, 300)}`).toContain(answer.status);
    expect(answer.bodyBytes, 'response body size').toBeLessThanOrEqual(limit);

    expect(Object.prototype).not.toHaveProperty('private_token');
    expect(Object.prototype).not.toHaveProperty('sudo');
    const anonymous = await fetch(`${api()}/projects/42/jobs`);
    expect(anonymous.status, 'an anonymous request is still refused').toBe(401);
    const regular = await fetch(`${api()}/projects/42/jobs`, { headers: { 'PRIVATE-TOKEN': 'x' } });
    expect(regular.status, 'the server still answers').toBe(200);
    expect(process.memoryUsage().heapUsed - baseline).toBeLessThan(HEAP_GROWTH_LIMIT);
  }, 30_000);
});
