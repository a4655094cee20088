/**
 * What the fake derives from its state and keeps between reads (records per revision, the next merge request id and
 * iid, pagination headers per URL) never outlives the state it came from: a write between two reads shows in the second.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFake, type RunningFake } from '../src/index.ts';

let fake: RunningFake;
const PROJECT = 1;
beforeAll(async () => {
  fake = await startFake({ anyToken: true, validateResponses: true });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${fake.url}/api/v4${path}`, {
    method,
    headers: { 'private-token': 'any', ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown> & Record<string, unknown>[],
  };
}

// One open merge request per source and target branch: each create names a target no open one has.
const create = (title: string, target = 'feature/reset') =>
  call('POST', `/projects/${PROJECT}/merge_requests`, { source_branch: 'feature/login', target_branch: target, title });

describe('fake caches', () => {
  it('a merge request read, changed and read again shows the change in the list', async () => {
    const first = await call('GET', `/projects/${PROJECT}/merge_requests?state=opened`);
    const iid = first.body[0]!.iid as number;
    expect((await call('GET', `/projects/${PROJECT}/merge_requests?state=opened`)).body).toEqual(first.body);
    expect(
      (await call('PUT', `/projects/${PROJECT}/merge_requests/${iid}`, { title: 'Renamed in between' })).status,
    ).toBe(200);
    const again = await call('GET', `/projects/${PROJECT}/merge_requests?state=opened`);
    expect(again.body.find((m) => m.iid === iid)?.title).toBe('Renamed in between');
  });

  it('ids and iids follow creates, deletes of the last and of an earlier merge request', async () => {
    const a = (await create('A')).body;
    const b = (await create('B', 'feature/parser')).body;
    expect([b.id, b.iid]).toEqual([(a.id as number) + 1, (a.iid as number) + 1]);
    expect((await call('DELETE', `/projects/${PROJECT}/merge_requests/${b.iid}`)).status).toBe(204);
    const c = (await create('C', 'feature/parser')).body;
    expect([c.id, c.iid]).toEqual([(b.id as number) + 1, (b.iid as number) + 1]); // never the id or iid of the deleted one
    expect((await call('DELETE', `/projects/${PROJECT}/merge_requests/${a.iid}`)).status).toBe(204);
    const d = (await create('D')).body;
    expect([d.id, d.iid]).toEqual([(c.id as number) + 1, (c.iid as number) + 1]);
    const iids = fake
      .state()
      .merge_requests.filter((m) => m.project_id === PROJECT)
      .map((m) => m.iid);
    expect(new Set(iids).size).toBe(iids.length);
  });

  it('the same URL gets the pagination headers of the list as it is now', async () => {
    const url = `/projects/${PROJECT}/merge_requests?state=all&per_page=2`;
    const before = await call('GET', url);
    const total = Number(before.headers.get('x-total'));
    expect((await call('GET', url)).headers.get('link')).toBe(before.headers.get('link'));
    await create('E');
    const after = await call('GET', url);
    expect(Number(after.headers.get('x-total'))).toBe(total + 1);
    expect(after.headers.get('x-total-pages')).toBe(String(Math.ceil((total + 1) / 2)));
    expect(after.headers.get('link')).toContain(`per_page=2&page=${Math.ceil((total + 1) / 2)}>; rel="last"`);
  });
});
