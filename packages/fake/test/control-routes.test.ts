/**
 * The fake's control routes (`/__fake/reset`, `/__fake/state`) answer only the fake's own origin and the origins
 * `cors` lists: a page of another site a developer opens cannot read or reset their fake (403), whatever `cors` says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFake, type RunningFake } from '../src/index.ts';

const LISTED = 'http://localhost:5173';
let open: RunningFake;
let listing: RunningFake;

beforeAll(async () => {
  open = await startFake({ cors: true });
  listing = await startFake({ cors: [LISTED] });
});
afterAll(async () => {
  await open?.close();
  await listing?.close();
});

const control = (fake: () => RunningFake, method: 'GET' | 'POST', headers: Record<string, string>) => async () => {
  const url = `${fake().url}/__fake/${method === 'POST' ? 'reset' : 'state'}`;
  return (await fetch(url, { method, headers })).status;
};

describe('control routes', () => {
  it.each([
    ['curl (no Origin)', () => open, 'POST', {}, 200],
    ["the fake's own origin", () => open, 'POST', { Origin: '' }, 200],
    ['another origin, with cors on', () => open, 'POST', { Origin: 'http://evil.test' }, 403],
    ['Origin null', () => open, 'POST', { Origin: 'null' }, 403],
    ['Sec-Fetch-Site: cross-site, without Origin', () => open, 'POST', { 'Sec-Fetch-Site': 'cross-site' }, 403],
    ['Sec-Fetch-Site: same-site from an unlisted port', () => open, 'GET', { 'Sec-Fetch-Site': 'same-site' }, 403],
    ['state read by another origin', () => open, 'GET', { Origin: 'http://evil.test' }, 403],
    ['a listed origin', () => listing, 'POST', { Origin: LISTED, 'Sec-Fetch-Site': 'same-site' }, 200],
    ['an unlisted origin beside a list', () => listing, 'POST', { Origin: 'http://evil.test' }, 403],
  ] as const)('%s', async (_name, fake, method, headers, status) => {
    const sent: Record<string, string> = headers;
    const own = sent.Origin === '' ? { Origin: fake().url } : sent;
    expect(await control(fake, method, own)()).toBe(status);
  });
});
