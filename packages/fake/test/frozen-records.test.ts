/**
 * The fake keeps its records deeply frozen, so that the server package sends the kept JSON text of each from its
 * second response on (also as an item of a page): a list reads as the text of each record read alone.
 */
import { describe, expect, it } from 'vitest';
import { perRevision } from '../src/common.ts';
import { createFake } from '../src/index.ts';
import type { Store } from '../src/store.ts';

describe('the fake keeps its records deeply frozen', () => {
  it('perRevision freezes what it caches, through and through', () => {
    const store = { revision: 0 } as Store;
    const cached = perRevision(store, (key: { id: number }) => ({
      id: key.id,
      author: { name: 'Jane' },
      labels: ['a'],
    }));
    const value = cached({ id: 1 });
    expect([value, value.author, value.labels].every((item) => Object.isFrozen(item))).toBe(true);
  });
});

describe('a page list of the fake', () => {
  it('the fake lists a page of jobs as the text of each job read alone', async () => {
    const { app } = await createFake({ anyToken: true });
    const get = async (path: string) =>
      (await app.inject({ url: `/api/v4${path}`, headers: { 'private-token': 'any' } })).payload;
    try {
      const list = await get('/projects/1/jobs');
      const ids = (JSON.parse(list) as { id: number }[]).map((job) => job.id);
      expect(ids.length).toBeGreaterThan(1);
      const alone = await Promise.all(ids.map((id) => get(`/projects/1/jobs/${id}`)));
      expect(list).toBe(`[${alone.join(',')}]`);
      expect(JSON.stringify(JSON.parse(list))).toBe(list);
      expect(await get('/projects/1/jobs')).toBe(list);
    } finally {
      await app.close();
    }
  });
});
