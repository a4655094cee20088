/**
 * Sequences, not scenarios: fast-check's commands drive the fake (responses validated against the contract) through
 * random sequences of merge request writes (create, retitle, close, reopen, merge, delete) interleaved with list reads
 * (state filters, sort, iids, pagination), and compare every answer with a small model of project 1's merge requests.
 * A failing sequence is shrunk and printed with its seed (replay with `fc.assert(…, { seed, path })`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFake } from '../src/index.ts';

type State = 'opened' | 'closed' | 'locked' | 'merged';
interface ModelMr {
  iid: number;
  source: string;
  title: string;
  state: State;
  conflicts: boolean; // with a draft title, merge answers 405
}
interface Model {
  mrs: Map<number, ModelMr>;
  nextIid: number;
}
type Fake = Awaited<ReturnType<typeof createFake>>;

const BRANCHES = ['b0', 'b1', 'b2'];
const MRS = '/api/v4/projects/1/merge_requests';
const headers = { 'private-token': 'admin-token' };

/** Commands run, over every sequence (the target is at least 10,000 per run of this file). */
let executed = 0;

async function send(fake: Fake, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object) {
  executed += 1;
  const response = await fake.app.inject({ method, url, headers, ...(body ? { payload: body } : {}) });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).not.toBe(500);
  return response;
}

/** The default data set's merge requests of project 1, as the model sees them. */
function initialModel(): Model {
  const mrs = new Map<number, ModelMr>();
  const add = (iid: number, title: string, source: string, state: State, conflicts = false) =>
    mrs.set(iid, { iid, source, title, state, conflicts });
  add(1, 'Add login page', 'feature/login', 'opened');
  add(2, 'Try another layout', 'feature/layout', 'closed');
  add(3, 'Fix typo', 'fix/typo', 'merged');
  add(4, 'Bump dependencies', 'deps', 'locked');
  add(5, 'Draft: Reset password flow', 'feature/reset', 'opened'); // a draft (by its title)
  add(6, 'Rewrite the parser', 'feature/parser', 'opened', true); // with conflicts
  return { mrs, nextIid: 7 };
}

const isDraft = (title: string) => /^(draft:|\[draft\]|\(draft\))/i.test(title);

/** An iid the model may or may not hold (a deleted or never created one answers 404). */
const iid = fc.integer({ min: 1, max: 14 });

class Create implements fc.AsyncCommand<Model, Fake> {
  constructor(
    readonly branch: string,
    readonly title: string,
  ) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    const response = await send(fake, 'POST', MRS, {
      source_branch: this.branch,
      target_branch: 'main',
      title: this.title,
    });
    const open = [...model.mrs.values()].some(
      (m) => m.source === this.branch && (m.state === 'opened' || m.state === 'locked'),
    );
    if (open) return expect(response.statusCode).toBe(409);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ iid: model.nextIid, state: 'opened', title: this.title });
    model.mrs.set(model.nextIid, {
      iid: model.nextIid,
      source: this.branch,
      title: this.title,
      state: 'opened',
      conflicts: false,
    });
    model.nextIid += 1;
  }
  toString = () => `create(${this.branch}, ${JSON.stringify(this.title)})`;
}

class Update implements fc.AsyncCommand<Model, Fake> {
  constructor(
    readonly iid: number,
    readonly change: { title: string } | { state_event: 'close' | 'reopen' },
  ) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    const response = await send(fake, 'PUT', `${MRS}/${this.iid}`, this.change);
    const mr = model.mrs.get(this.iid);
    if (!mr) return expect(response.statusCode).toBe(404);
    if ('title' in this.change) {
      expect(response.statusCode).toBe(200);
      mr.title = this.change.title;
    } else if (this.change.state_event === 'close') {
      if (mr.state === 'merged') return expect(response.statusCode).toBe(400);
      expect(response.statusCode).toBe(200);
      mr.state = 'closed';
    } else {
      if (mr.state === 'merged' || mr.state === 'locked') return expect(response.statusCode).toBe(400);
      expect(response.statusCode).toBe(200);
      mr.state = 'opened';
    }
    expect(response.json()).toMatchObject({ iid: this.iid, state: mr.state });
  }
  toString = () => `update(${this.iid}, ${JSON.stringify(this.change)})`;
}

class Merge implements fc.AsyncCommand<Model, Fake> {
  constructor(readonly iid: number) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    const response = await send(fake, 'PUT', `${MRS}/${this.iid}/merge`, {});
    const mr = model.mrs.get(this.iid);
    if (!mr) return expect(response.statusCode).toBe(404);
    if (mr.state !== 'opened' || mr.conflicts || isDraft(mr.title)) return expect(response.statusCode).toBe(405);
    expect(response.statusCode).toBe(200);
    mr.state = 'merged';
  }
  toString = () => `merge(${this.iid})`;
}

class Delete implements fc.AsyncCommand<Model, Fake> {
  constructor(readonly iid: number) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    const response = await send(fake, 'DELETE', `${MRS}/${this.iid}`);
    expect(response.statusCode).toBe(model.mrs.delete(this.iid) ? 204 : 404);
  }
  toString = () => `delete(${this.iid})`;
}

/** A list read: what the model selects, in the fake's default order (newest first) or oldest first. */
class List implements fc.AsyncCommand<Model, Fake> {
  constructor(
    readonly state: State | 'all',
    readonly sort: 'asc' | 'desc',
    readonly perPage: number,
    readonly iids: number[],
  ) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    const expected = [...model.mrs.values()]
      .filter((m) => this.state === 'all' || m.state === this.state)
      .filter((m) => this.iids.length === 0 || this.iids.includes(m.iid))
      .map((m) => m.iid)
      .sort((a, b) => (this.sort === 'asc' ? a - b : b - a));
    const query = new URLSearchParams({ state: this.state, sort: this.sort, per_page: String(this.perPage) });
    for (const id of this.iids) query.append('iids[]', String(id));
    const seen: number[] = [];
    for (let page = 1; page <= Math.max(1, Math.ceil(expected.length / this.perPage)); page += 1) {
      query.set('page', String(page));
      const response = await send(fake, 'GET', `${MRS}?${query}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-total']).toBe(String(expected.length));
      const items = response.json() as { iid: number; title: string; state: string }[];
      for (const item of items)
        expect(item).toMatchObject({ title: model.mrs.get(item.iid)?.title, state: model.mrs.get(item.iid)?.state });
      seen.push(...items.map((item) => item.iid));
    }
    expect(seen).toEqual(expected);
  }
  toString = () => `list(${this.state}, ${this.sort}, per_page=${this.perPage}, iids=${this.iids.join(',')})`;
}

const commands = [
  fc
    .tuple(
      fc.constantFrom(...BRANCHES),
      fc.string({ minLength: 1, maxLength: 12 }).filter((t) => t.trim() === t),
    )
    .map(([branch, title]) => new Create(branch, title)),
  fc
    .tuple(iid, fc.constantFrom('close', 'reopen') as fc.Arbitrary<'close' | 'reopen'>)
    .map(([id, event]) => new Update(id, { state_event: event })),
  fc.tuple(iid, fc.constantFrom('Renamed', 'Another title')).map(([id, title]) => new Update(id, { title })),
  iid.map((id) => new Merge(id)),
  iid.map((id) => new Delete(id)),
  fc
    .tuple(
      fc.constantFrom('opened', 'closed', 'locked', 'merged', 'all') as fc.Arbitrary<State | 'all'>,
      fc.constantFrom('asc', 'desc') as fc.Arbitrary<'asc' | 'desc'>,
      fc.integer({ min: 1, max: 5 }),
      fc.uniqueArray(iid, { maxLength: 3 }),
    )
    .map(([state, sort, perPage, iids]) => new List(state, sort, perPage, iids)),
];

/** The default data set with the branches the sequences open merge requests from (each run starts from it). */
async function withBranches(): Promise<Fake> {
  const setup = await createFake();
  for (const branch of BRANCHES)
    await send(setup, 'POST', `/api/v4/projects/1/repository/files/${branch}.txt`, {
      branch,
      start_branch: 'main',
      content: branch,
      commit_message: `Add ${branch}`,
    });
  const data = setup.state();
  await setup.app.close();
  return createFake({ data, validateResponses: true });
}

describe('merge requests, as sequences of writes and reads against a model', () => {
  it('every answer agrees with the model and the contract', async () => {
    const fake = await withBranches();
    try {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 80, size: 'max' }), async (sequence) => {
          fake.reset();
          await fc.asyncModelRun(() => ({ model: initialModel(), real: fake }), sequence);
        }),
        { numRuns: 250 },
      );
    } finally {
      await fake.app.close();
    }
    console.info(`model-based test: ${executed} requests`);
    expect(executed).toBeGreaterThanOrEqual(10_000);
  }, 120_000);

  it('a delete before the first create does not give its iid again (a sequence the model found)', async () => {
    const fake = await withBranches();
    try {
      await fc.asyncModelRun(() => ({ model: initialModel(), real: fake }), [new Delete(6), new Create('b0', '!')]);
    } finally {
      await fake.app.close();
    }
  });
});
