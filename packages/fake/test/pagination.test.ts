/**
 * The merge request list over many merge requests (the fake keeps each filtered, sorted list until the next write): every
 * page is the page of the whole list sorted, and a write between two reads shows in the second.
 */
import { describe, expect, it } from 'vitest';
import { defaultData, type FakeData } from '../src/index.ts';
import { useFake } from '../../../test/support/fake.ts';

/** The default data set with 2,000 more merge requests in its first project. */
function data(): FakeData {
  const base = defaultData();
  const project = base.projects[0]!;
  const start = Date.parse('2024-01-01T00:00:00.000Z');
  for (let i = 0; i < 2000; i += 1) {
    // Creation times out of id order, with ties, so the order is the sort's and not the array's.
    const created = new Date(start + ((i * 7919) % 500) * 1000).toISOString();
    base.merge_requests.push({
      id: 10_000 + i,
      iid: 1000 + i,
      project_id: project.id,
      title: `Change ${i}`,
      state: i % 3 === 0 ? 'closed' : 'opened',
      author_id: 1,
      source_branch: 'feature',
      target_branch: project.default_branch,
      created_at: created,
      updated_at: created,
    });
  }
  return base;
}

describe('a merge request list of 2,000', () => {
  // No reset between tests: the list is kept until the next write, which the last test makes.
  const { fake, url } = useFake({ data: data(), anyToken: true, reset: false });

  async function list(query: string) {
    const response = await fetch(url(`/projects/${fake.state().projects[0]!.id}/merge_requests?${query}`), {
      headers: { 'private-token': 'any' },
    });
    expect(response.status).toBe(200);
    return {
      headers: response.headers,
      body: (await response.json()) as { id: number; state: string; created_at: string }[],
    };
  }

  it.each([
    'state=opened',
    'state=opened&page=3&per_page=50',
    'state=all&sort=asc&per_page=100&page=20',
    'order_by=title&page=2',
  ])('%s: the page of the whole list sorted', async (query) => {
    const params = new URLSearchParams(query);
    const perPage = Number(params.get('per_page') ?? 20);
    const page = Number(params.get('page') ?? 1);
    const direction = params.get('sort') === 'asc' ? 1 : -1;
    const key = params.get('order_by') === 'title' ? 'title' : 'created_at';
    const state = params.get('state');
    const state0 = fake.state();
    const all = state0.merge_requests.filter(
      (m) => m.project_id === state0.projects[0]!.id && (state === null || state === 'all' || m.state === state),
    );
    const expected = all
      .sort((a, b) => {
        const x = String(a[key] ?? '');
        const y = String(b[key] ?? '');
        return (x < y ? -1 : x > y ? 1 : a.id - b.id) * direction;
      })
      .slice((page - 1) * perPage, page * perPage)
      .map((m) => m.id);
    const { headers, body } = await list(query);
    expect(body.map((m) => m.id)).toEqual(expected);
    expect(headers.get('x-total')).toBe(String(all.length));
    expect(headers.get('x-per-page')).toBe(String(perPage));
  });

  it('a write between two reads shows in the second (create, then retitle for order_by=title)', async () => {
    const id = fake.state().projects[0]!.id;
    const headers = { 'private-token': 'any', 'content-type': 'application/json' };
    const before = await list('state=opened');
    const created = await fetch(url(`/projects/${id}/merge_requests`), {
      method: 'POST',
      headers,
      body: JSON.stringify({
        source_branch: fake.state().projects[0]!.default_branch,
        target_branch: 'feature',
        title: '0 first by title',
      }),
    });
    expect(created.status).toBe(201);
    const mr = (await created.json()) as { id: number; iid: number };
    const after = await list('state=opened');
    expect(Number(after.headers.get('x-total'))).toBe(Number(before.headers.get('x-total')) + 1);
    expect(after.body[0]!.id).toBe(mr.id);
    expect((await list('order_by=title&sort=asc')).body[0]!.id).toBe(mr.id);
    const retitled = await fetch(url(`/projects/${id}/merge_requests/${mr.iid}`), {
      method: 'PUT',
      headers,
      body: JSON.stringify({ title: 'zz last by title' }),
    });
    expect(retitled.status).toBe(200);
    expect((await list('order_by=title&sort=asc')).body[0]!.id).not.toBe(mr.id);
    expect((await list('order_by=title&sort=desc')).body[0]!.id).toBe(mr.id);
  });
});
