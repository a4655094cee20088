/**
 * The hostile-input table of the server package against the fake (every token is the administrator): no case gets a
 * 500 or kills the process, error bodies keep the API's shape, Object.prototype stays clean, and the fake still
 * answers afterwards. Operations the fake does not implement answer the server's 501 (after authentication).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { hostileCases, requestSemanticsCases, TOKEN } from '../../../test/hostile/cases.ts';
import { expectAllow, expectJsonType, sendCase } from '../../../test/hostile/send.ts';
import { useFake } from '../../../test/support/fake.ts';

const PROTOTYPE = Object.getOwnPropertyNames(Object.prototype).sort();
// No reset: the fake must still answer after every hostile case before it.
const { fake } = useFake({ anyToken: true, reset: false });

describe('hostile inputs against the fake', { timeout: 60_000 }, () => {
  it.each([...hostileCases, ...requestSemanticsCases].map((c) => [c.name, c] as const))(
    '%s',
    async (_name, hostile) => {
      const response = await sendCase(fake.url, hostile, hostile.maxBodyBytes ?? 64 * 1024);
      const text = response.body.subarray(0, 300).toString();
      expect(response.truncated, 'response body too large').toBe(false);
      if (response.status === 501) expect(text).toMatch(/^\{"message":"501 Not Implemented - no handler for /);
      else {
        expect(response.status, `status ${response.status}: ${text}`).toBeLessThan(500);
        // Where the table lists a refusal, the fake refuses the same way (authentication, media types, limits); where it
        // says what the fake answers with its data set, the fake answers that.
        const listed = [hostile.expect.fake ?? hostile.expect.status].flat();
        if (hostile.expect.fake !== undefined || listed.every((s) => s >= 400))
          expect(listed, `status ${response.status}: ${text}`).toContain(response.status);
      }
      expectJsonType(response.headers['content-type']);
      expectAllow(hostile, response);
      if (response.status >= 400 && response.body.length > 0) {
        const body = JSON.parse(response.body.toString()) as Record<string, unknown>;
        expect(String(body.message)).toMatch(new RegExp(`^${response.status} `));
      }
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE);
      expect((await sendCase(fake.url, { method: 'GET', path: '/projects/1/jobs', headers: TOKEN })).status).toBe(200);
    },
  );
});

/**
 * The same table through the fake's in-process `fetch` (no socket): every case a `fetch` can send (a path a URL
 * keeps, no framing headers of its own) gets the answer the rules above allow, and the fake still answers after it.
 */
describe('hostile inputs against the fake in process', { timeout: 60_000 }, () => {
  // The table's cases in their order on the data set, as over HTTP above (a case may write what a later one reads).
  beforeAll(() => fake.reset());
  const framing = /^(content-length|transfer-encoding|host|connection)$/i;
  const sendable = [...hostileCases, ...requestSemanticsCases].filter(
    (c) =>
      !Object.keys(c.headers ?? {}).some((name) => framing.test(name)) &&
      new URL(`http://in-process/api/v4${c.path}`).pathname.startsWith('/api/v4'),
  );

  it('a fetch can send most of the table', () => {
    expect(sendable.length).toBeGreaterThan(([...hostileCases, ...requestSemanticsCases].length * 3) / 4);
  });

  it.each(sendable.map((c) => [c.name, c] as const))('%s', async (_name, hostile) => {
    const body = typeof hostile.body === 'function' ? hostile.body() : hostile.body;
    const response = await fake.fetch(`http://in-process/api/v4${hostile.path}`, {
      method: hostile.method,
      headers: hostile.headers ?? {},
      ...(body === undefined ? {} : { body: new Uint8Array(Buffer.from(body)) }),
    });
    const text = await response.text();
    expect(Buffer.byteLength(text), 'response body too large').toBeLessThanOrEqual(hostile.maxBodyBytes ?? 64 * 1024);
    if (response.status === 501) expect(text).toMatch(/^\{"message":"501 Not Implemented - no handler for /);
    else expect(response.status, `status ${response.status}: ${text.slice(0, 300)}`).toBeLessThan(500);
    expectJsonType(response.headers.get('content-type') ?? undefined);
    if (response.status >= 400 && text.length > 0)
      expect(String((JSON.parse(text) as { message?: unknown }).message)).toMatch(new RegExp(`^${response.status} `));
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE);
    const after = await fake.fetch('http://in-process/api/v4/projects/1/jobs', { headers: TOKEN });
    expect(after.status).toBe(200);
  });
});
