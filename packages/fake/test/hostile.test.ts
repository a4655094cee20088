/**
 * The hostile-input table of the server package against the fake (every token is the administrator): no case gets a
 * 500 or kills the process, error bodies keep the API's shape, Object.prototype stays clean, and the fake still
 * answers afterwards. Operations the fake does not implement answer the server's 501 (after authentication).
 */
import { describe, expect, it } from 'vitest';
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
