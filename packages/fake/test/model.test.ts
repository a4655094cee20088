/**
 * Sequences, not scenarios: fast-check's commands drive the fake (responses validated against the contract) through
 * long random sequences that interleave
 * - merge requests: create, retitle, close, reopen, merge, delete; list reads by state, sort, iids, every page;
 * - repository files on the branch `files`: create, update, delete; get, raw, tree listings followed page by page
 *   through their keyset `next` links (few contents, so that files often share a blob id);
 * - members of project 1 and group 3: invitations that add an existing user (by id or e-mail) or stay pending, pending
 *   invitations edited and removed (the contract has no other member write); member get, member lists filtered by
 *   `query`, `user_ids`, `skip_users` and invitation lists by `query`, every page;
 * - group 1's badges: create, edit, remove; get, list by `name`, every page;
 * and compare every answer with a small model. At least 10,000 commands per run (printed with the time taken).
 *
 * A failing sequence is shrunk and printed with fast-check's `{ seed, path }` and the commands (`Counterexample: […]`).
 * To replay it, pass both to the property's options, `{ numRuns: 240, seed: <seed>, path: '<path>' }`, and run
 * `npx vitest run packages/fake/test/model.test.ts -t 'every answer'`; or copy the printed commands into a test of
 * their own, as the regression tests at the end of this file do.
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
  /** The files of the branch `files`: path → content. */
  files: Map<string, string>;
  /** Direct members (user id → access level) and pending invitations (in the order made) of project 1 and group 3. */
  sources: Record<SourceKey, { members: Map<number, number>; invited: { email: string; access: number }[] }>;
  /** Group 1's badges by id, and the id the next one gets (ids are never given twice). */
  badges: Map<number, { name: string; link_url: string; image_url: string }>;
  nextBadgeId: number;
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
  const files = new Map(initialFiles);
  const pending = (...emails: [string, number][]) => emails.map(([email, access]) => ({ email, access }));
  const sources = {
    'projects/1': {
      members: new Map([
        [3, 40],
        [4, 30],
        [5, 20],
        [6, 10],
      ]),
      invited: pending(['reviewer@example.com', 30], ['designer@example.com', 20]),
    },
    'groups/3': {
      members: new Map([
        [4, 50],
        [5, 20],
      ]),
      invited: [],
    },
  };
  const badges = new Map([
    [1, { name: 'Pipeline', link_url: BADGE_LINKS[0]!, image_url: BADGE_IMAGES[0]! }],
    [2, { name: 'Coverage', link_url: 'https://service.example/%{project_path}/-/jobs', image_url: BADGE_IMAGES[1]! }],
  ]);
  return { mrs, nextIid: 7, files, sources, badges, nextBadgeId: 3 };
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

// Repository files, on the branch `files` (merges write onto main, so the files live apart from them).

const FILES_BRANCH = 'files';
const FILE_PATHS = ['a.txt', 'd/b.txt', 'd/e/c.txt', 'README.md', 'src/new.js'];
/** Few contents, so that several files often share a blob id. */
const CONTENTS = ['one', 'two', 'three'];
const fileUrl = (path: string, raw = false) =>
  `/api/v4/projects/1/repository/files/${encodeURIComponent(path)}${raw ? '/raw' : ''}?ref=${FILES_BRANCH}`;

class FileWrite implements fc.AsyncCommand<Model, Fake> {
  constructor(
    readonly verb: 'create' | 'update' | 'delete',
    readonly path: string,
    readonly content: string,
  ) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    const method = this.verb === 'create' ? 'POST' : this.verb === 'update' ? 'PUT' : 'DELETE';
    const body = { branch: FILES_BRANCH, commit_message: `${this.verb} ${this.path}`, content: this.content };
    const response = await send(fake, method, fileUrl(this.path).split('?')[0]!, body);
    const old = model.files.get(this.path);
    const refused =
      this.verb === 'create'
        ? old !== undefined
        : old === undefined || (this.verb === 'update' && old === this.content); // an unchanged update is empty
    if (refused) return expect(response.statusCode).toBe(400);
    expect(response.statusCode).toBe({ create: 201, update: 200, delete: 204 }[this.verb]);
    if (this.verb === 'delete') model.files.delete(this.path);
    else {
      expect(response.json()).toEqual({ file_path: this.path, branch: FILES_BRANCH });
      model.files.set(this.path, this.content);
    }
  }
  toString = () => `file-${this.verb}(${this.path}, ${this.content})`;
}

/** Reads one file as JSON (base64 content) and raw. */
class FileRead implements fc.AsyncCommand<Model, Fake> {
  constructor(readonly path: string) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    const content = model.files.get(this.path);
    const json = await send(fake, 'GET', fileUrl(this.path));
    const raw = await send(fake, 'GET', fileUrl(this.path, true));
    if (content === undefined) {
      expect(json.statusCode).toBe(404);
      return expect(raw.statusCode).toBe(404);
    }
    expect(json.statusCode).toBe(200);
    expect(json.json()).toMatchObject({ file_path: this.path, ref: FILES_BRANCH, size: Buffer.byteLength(content) });
    expect(Buffer.from(json.json().content, 'base64').toString()).toBe(content);
    expect(raw.statusCode).toBe(200);
    expect(raw.body).toBe(content);
  }
  toString = () => `file-read(${this.path})`;
}

/** The tree under `dir` as the model sees it: folders first, then files, each by path. */
function expectedTree(files: Iterable<string>, dir: string, recursive: boolean): string[] | undefined {
  const prefix = dir === '' ? '' : `${dir}/`;
  const paths = [...files].filter((p) => p.startsWith(prefix));
  if (dir !== '' && paths.length === 0) return undefined;
  const trees = new Set<string>();
  const blobs: string[] = [];
  for (const path of paths) {
    const rest = path.slice(prefix.length).split('/');
    for (let depth = 1; depth < rest.length && (recursive || depth === 1); depth++)
      trees.add(prefix + rest.slice(0, depth).join('/'));
    if (recursive || rest.length === 1) blobs.push(path);
  }
  const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...[...trees].sort(byPath), ...blobs.sort(byPath)];
}

/** A tree listing, followed page by page through its `next` links (keyset pagination). */
class Tree implements fc.AsyncCommand<Model, Fake> {
  constructor(
    readonly dir: string,
    readonly recursive: boolean,
    readonly perPage: number,
  ) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    const expected = expectedTree(model.files.keys(), this.dir, this.recursive);
    const query = new URLSearchParams({ ref: FILES_BRANCH, path: this.dir, per_page: String(this.perPage) });
    if (this.recursive) query.set('recursive', 'true');
    let url: string | undefined = `/api/v4/projects/1/repository/tree?${query}`;
    const seen: string[] = [];
    for (let pages = 0; url !== undefined; pages += 1) {
      expect(pages, 'more pages than entries').toBeLessThanOrEqual((expected?.length ?? 0) + 1);
      const response = await send(fake, 'GET', url);
      if (expected === undefined) return expect(response.statusCode).toBe(404);
      expect(response.statusCode).toBe(200);
      seen.push(...(response.json() as { path: string }[]).map((entry) => entry.path));
      const next = /<([^>]+)>; rel="next"/.exec(String(response.headers.link ?? ''))?.[1];
      url = next === undefined ? undefined : new URL(next).pathname + new URL(next).search;
    }
    expect(seen).toEqual(expected);
  }
  toString = () => `tree(${JSON.stringify(this.dir)}, recursive=${this.recursive}, per_page=${this.perPage})`;
}

/** Reads every page of a page-numbered list, checking `x-total` on each. */
async function allPages<T>(fake: Fake, url: string, perPage: number, total: number): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= Math.max(1, Math.ceil(total / perPage)); page += 1) {
    const response = await send(fake, 'GET', `${url}${url.includes('?') ? '&' : '?'}per_page=${perPage}&page=${page}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total']).toBe(String(total));
    items.push(...(response.json() as T[]));
  }
  return items;
}

// Members and invitations of project 1 and group 3. The contract's only write of members is an invitation: inviting
// an existing user (by id or e-mail) adds them, an unknown e-mail is a pending invitation (edited, removed).

type SourceKey = 'projects/1' | 'groups/3';
const SOURCES: SourceKey[] = ['projects/1', 'groups/3'];
const USERS: Record<number, { username: string; name: string; email: string }> = {
  3: { username: 'mia', name: 'Mia Maintainer', email: 'mia@example.com' },
  4: { username: 'dev', name: 'Dev Developer', email: 'dev@example.com' },
  5: { username: 'rita', name: 'Rita Reporter', email: 'rita@example.com' },
  6: { username: 'gus', name: 'Gus Guest', email: 'gus@example.com' },
  7: { username: 'nobody', name: 'No Member', email: 'nobody@example.com' },
  8: { username: 'support-bot', name: 'Support Bot', email: 'support@noreply.service.example' },
};
const USER_IDS = Object.keys(USERS).map(Number);
const EMAILS = ['a@x.io', 'B@x.io', 'b@x.io', 'reviewer@example.com', 'rita@example.com', 'nobody@example.com'];
const LEVELS = [10, 20, 30, 40, 50];

class Invite implements fc.AsyncCommand<Model, Fake> {
  constructor(
    readonly source: SourceKey,
    readonly who: { user_id: string } | { email: string },
    readonly access: number,
  ) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    const response = await send(fake, 'POST', `/api/v4/${this.source}/invitations`, {
      ...this.who,
      access_level: this.access,
    });
    expect(response.statusCode).toBe(200);
    const { members, invited } = model.sources[this.source];
    const key = 'user_id' in this.who ? this.who.user_id : this.who.email;
    const email = 'email' in this.who ? this.who.email.toLowerCase() : undefined;
    const userId =
      'user_id' in this.who
        ? Number(this.who.user_id)
        : USER_IDS.find((id) => USERS[id]!.email.toLowerCase() === email);
    let failure: string | undefined;
    if (userId !== undefined) {
      if (members.has(userId)) failure = 'User already exists in source';
      else members.set(userId, this.access);
    } else if (invited.some((i) => i.email.toLowerCase() === email)) failure = 'Invite email has already been taken';
    else invited.push({ email: key, access: this.access });
    expect(response.json()).toEqual(
      failure === undefined ? { status: 'success' } : { status: 'error', message: { [key]: failure } },
    );
  }
  toString = () => `invite(${this.source}, ${JSON.stringify(this.who)}, ${this.access})`;
}

class EditInvitation implements fc.AsyncCommand<Model, Fake> {
  constructor(
    readonly source: SourceKey,
    readonly email: string,
    readonly access: number | 'remove',
  ) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    const url = `/api/v4/${this.source}/invitations/${encodeURIComponent(this.email)}`;
    const response =
      this.access === 'remove'
        ? await send(fake, 'DELETE', url)
        : await send(fake, 'PUT', url, { access_level: this.access });
    const { invited } = model.sources[this.source];
    const at = invited.findIndex((i) => i.email.toLowerCase() === this.email.toLowerCase());
    if (at < 0) return expect(response.statusCode).toBe(404);
    if (this.access === 'remove') {
      expect(response.statusCode).toBe(204);
      invited.splice(at, 1);
    } else {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ access_level: this.access });
      invited[at]!.access = this.access;
    }
  }
  toString = () =>
    `invitation-${this.access === 'remove' ? 'remove' : `edit(${this.access})`}(${this.source}, ${this.email})`;
}

class ListInvitations implements fc.AsyncCommand<Model, Fake> {
  constructor(
    readonly source: SourceKey,
    readonly email: string | undefined,
    readonly perPage: number,
  ) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    const expected = model.sources[this.source].invited.filter(
      (i) => this.email === undefined || i.email === this.email,
    );
    const query = this.email === undefined ? '' : `?query=${encodeURIComponent(this.email)}`;
    const items = await allPages<{ invite_email: string; access_level: number }>(
      fake,
      `/api/v4/${this.source}/invitations${query}`,
      this.perPage,
      expected.length,
    );
    expect(items.map((i) => [i.invite_email, i.access_level])).toEqual(expected.map((i) => [i.email, i.access]));
  }
  toString = () => `invitations(${this.source}, ${this.email ?? '-'}, per_page=${this.perPage})`;
}

class GetMember implements fc.AsyncCommand<Model, Fake> {
  constructor(
    readonly source: SourceKey,
    readonly userId: number,
  ) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    const response = await send(fake, 'GET', `/api/v4/${this.source}/members/${this.userId}`);
    const access = model.sources[this.source].members.get(this.userId);
    if (access === undefined) return expect(response.statusCode).toBe(404);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: this.userId, access_level: access });
  }
  toString = () => `member(${this.source}, ${this.userId})`;
}

/** The direct members, filtered by `query`, `user_ids` and `skip_users` (the filters the table marks honoured). */
class ListMembers implements fc.AsyncCommand<Model, Fake> {
  constructor(
    readonly source: SourceKey,
    readonly filters: { query?: string; user_ids: number[]; skip_users: number[] },
    readonly perPage: number,
  ) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    const { query, user_ids, skip_users } = this.filters;
    const expected = [...model.sources[this.source].members]
      .filter(([id]) => user_ids.length === 0 || user_ids.includes(id))
      .filter(([id]) => !skip_users.includes(id))
      .filter(([id]) => !query || `${USERS[id]!.username} ${USERS[id]!.name}`.toLowerCase().includes(query))
      .sort(([a], [b]) => a - b);
    const params = new URLSearchParams(query === undefined ? {} : { query });
    for (const id of user_ids) params.append('user_ids[]', String(id));
    for (const id of skip_users) params.append('skip_users[]', String(id));
    const items = await allPages<{ id: number; access_level: number }>(
      fake,
      `/api/v4/${this.source}/members?${params}`,
      this.perPage,
      expected.length,
    );
    expect(items.map((m) => [m.id, m.access_level])).toEqual(expected);
  }
  toString = () => `members(${this.source}, ${JSON.stringify(this.filters)}, per_page=${this.perPage})`;
}

// Group 1's badges.

const BADGES = '/api/v4/groups/1/badges';
const BADGE_NAMES = ['Pipeline', 'Coverage', 'Docs'];
const BADGE_LINKS = ['https://service.example/%{project_path}/-/commits/%{default_branch}', 'https://example.com/x'];
const BADGE_IMAGES = [
  'https://service.example/%{project_path}/badges/%{default_branch}/pipeline.svg',
  'https://service.example/%{project_path}/badges/%{default_branch}/coverage.svg',
  'https://img.example/%{project_id}.svg',
];
/** Placeholders as group 1's oldest project (project 1) renders them. */
const rendered = (url: string) =>
  url
    .replaceAll('%{project_path}', 'my-group/my-project')
    .replaceAll('%{default_branch}', 'main')
    .replaceAll('%{project_id}', '1');
const badgeRecord = (id: number, badge: { name: string; link_url: string; image_url: string }) => ({
  id,
  ...badge,
  rendered_link_url: rendered(badge.link_url),
  rendered_image_url: rendered(badge.image_url),
  kind: 'group',
});

class BadgeWrite implements fc.AsyncCommand<Model, Fake> {
  constructor(
    readonly id: number | 'new',
    readonly change: { name: string; link_url?: string; image_url?: string } | 'remove',
  ) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    if (this.id === 'new' && this.change !== 'remove') {
      const badge = { link_url: BADGE_LINKS[0]!, image_url: BADGE_IMAGES[0]!, ...this.change };
      const response = await send(fake, 'POST', BADGES, badge);
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual(badgeRecord(model.nextBadgeId, badge));
      model.badges.set(model.nextBadgeId, badge);
      model.nextBadgeId += 1;
      return;
    }
    const url = `${BADGES}/${this.id}`;
    const response =
      this.change === 'remove' ? await send(fake, 'DELETE', url) : await send(fake, 'PUT', url, this.change);
    const badge = model.badges.get(this.id as number);
    if (!badge) return expect(response.statusCode).toBe(404);
    if (this.change === 'remove') {
      expect(response.statusCode).toBe(204);
      model.badges.delete(this.id as number);
    } else {
      expect(response.statusCode).toBe(200);
      Object.assign(badge, this.change);
      expect(response.json()).toEqual(badgeRecord(this.id as number, badge));
    }
  }
  toString = () => `badge(${this.id}, ${JSON.stringify(this.change)})`;
}

class ReadBadges implements fc.AsyncCommand<Model, Fake> {
  constructor(
    readonly id: number | undefined,
    readonly name: string | undefined,
    readonly perPage: number,
  ) {}
  check = () => true;
  async run(model: Model, fake: Fake) {
    if (this.id !== undefined) {
      const response = await send(fake, 'GET', `${BADGES}/${this.id}`);
      const badge = model.badges.get(this.id);
      if (!badge) return expect(response.statusCode).toBe(404);
      expect(response.statusCode).toBe(200);
      return expect(response.json()).toEqual(badgeRecord(this.id, badge));
    }
    const expected = [...model.badges]
      .filter(([, b]) => this.name === undefined || b.name === this.name)
      .sort(([a], [b]) => a - b)
      .map(([id, b]) => badgeRecord(id, b));
    const query = this.name === undefined ? '' : `?name=${encodeURIComponent(this.name)}`;
    expect(await allPages(fake, `${BADGES}${query}`, this.perPage, expected.length)).toEqual(expected);
  }
  toString = () =>
    this.id === undefined ? `badges(${this.name ?? '-'}, per_page=${this.perPage})` : `badge-get(${this.id})`;
}

const perPage = fc.integer({ min: 1, max: 4 });
const source = fc.constantFrom(...SOURCES);
const badgeId = fc.integer({ min: 1, max: 6 });
const otherCommands = [
  fc
    .tuple(
      fc.constantFrom('create', 'update', 'delete') as fc.Arbitrary<'create' | 'update' | 'delete'>,
      fc.constantFrom(...FILE_PATHS),
      fc.constantFrom(...CONTENTS),
    )
    .map(([verb, path, content]) => new FileWrite(verb, path, content)),
  fc.constantFrom(...FILE_PATHS).map((path) => new FileRead(path)),
  fc
    .tuple(fc.constantFrom('', 'd', 'd/e', 'src'), fc.boolean(), perPage)
    .map(([dir, recursive, size]) => new Tree(dir, recursive, size)),
  fc
    .tuple(
      source,
      fc.oneof(
        fc.constantFrom(...USER_IDS).map((id) => ({ user_id: String(id) })),
        fc.constantFrom(...EMAILS).map((email) => ({ email })),
      ),
      fc.constantFrom(...LEVELS),
    )
    .map(([key, who, access]) => new Invite(key, who, access)),
  fc
    .tuple(source, fc.constantFrom(...EMAILS), fc.constantFrom<number | 'remove'>(...LEVELS, 'remove'))
    .map(([key, email, access]) => new EditInvitation(key, email, access)),
  fc
    .tuple(source, fc.option(fc.constantFrom(...EMAILS), { nil: undefined }), perPage)
    .map(([key, email, size]) => new ListInvitations(key, email, size)),
  fc.tuple(source, fc.constantFrom(...USER_IDS)).map(([key, id]) => new GetMember(key, id)),
  fc
    .tuple(
      source,
      fc.option(fc.constantFrom('i', 'dev', 'mia', 'er', 'bot'), { nil: undefined }),
      fc.uniqueArray(fc.constantFrom(...USER_IDS), { maxLength: 2 }),
      fc.uniqueArray(fc.constantFrom(...USER_IDS), { maxLength: 1 }),
      perPage,
    )
    .map(([key, query, user_ids, skip_users, size]) => new ListMembers(key, { query, user_ids, skip_users }, size)),
  fc
    .tuple(
      fc.oneof(badgeId, fc.constant('new' as const)),
      fc.oneof(
        fc.constant('remove' as const),
        fc.record(
          {
            name: fc.constantFrom(...BADGE_NAMES),
            link_url: fc.constantFrom(...BADGE_LINKS),
            image_url: fc.constantFrom(...BADGE_IMAGES),
          },
          { requiredKeys: ['name'] },
        ),
      ),
    )
    .map(([id, change]) => new BadgeWrite(id, id === 'new' && change === 'remove' ? { name: 'Docs' } : change)),
  fc
    .tuple(
      fc.option(badgeId, { nil: undefined }),
      fc.option(fc.constantFrom(...BADGE_NAMES), { nil: undefined }),
      perPage,
    )
    .map(([id, name, size]) => new ReadBadges(id, name, size)),
];

/** The files of the branch `files` when a sequence starts (read from the fake once, by `withBranches`). */
const initialFiles = new Map<string, string>();

/** The default data set with the branches the sequences open merge requests from (each run starts from it). */
async function withBranches(): Promise<Fake> {
  const setup = await createFake();
  for (const branch of [...BRANCHES, FILES_BRANCH])
    await send(setup, 'POST', `/api/v4/projects/1/repository/files/${branch}.txt`, {
      branch,
      start_branch: 'main',
      content: branch,
      commit_message: `Add ${branch}`,
    });
  initialFiles.clear();
  const tree = await send(
    setup,
    'GET',
    `/api/v4/projects/1/repository/tree?ref=${FILES_BRANCH}&recursive=true&per_page=100`,
  );
  for (const entry of tree.json() as { path: string; type: string }[])
    if (entry.type === 'blob') initialFiles.set(entry.path, (await send(setup, 'GET', fileUrl(entry.path, true))).body);
  const data = setup.state();
  await setup.app.close();
  return createFake({ data, validateResponses: true });
}

/** Commands run over every sequence (the target is at least 10,000 per run of this file). */
let commandsRun = 0;

describe('merge requests, files, members and badges, as sequences of writes and reads against a model', () => {
  it('every answer agrees with the model and the contract', async () => {
    const fake = await withBranches();
    const started = performance.now();
    const cpu = process.cpuUsage();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.commands([...commands, ...otherCommands], { maxCommands: 120, size: 'max' }),
          async (sequence) => {
            fake.reset();
            commandsRun += [...sequence].length;
            await fc.asyncModelRun(() => ({ model: initialModel(), real: fake }), sequence);
          },
        ),
        { numRuns: 240 },
      );
    } finally {
      await fake.app.close();
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const { user, system } = process.cpuUsage(cpu);
    const busy = ((user + system) / 1e6).toFixed(1);
    console.info(`model-based test: ${commandsRun} commands, ${executed} requests, ${seconds} s (${busy} s of CPU)`);
    expect(commandsRun).toBeGreaterThanOrEqual(10_000);
  }, 120_000);

  it('a delete before the first create does not give its iid again (a sequence the model found)', async () => {
    const fake = await withBranches();
    try {
      await fc.asyncModelRun(() => ({ model: initialModel(), real: fake }), [new Delete(6), new Create('b0', '!')]);
    } finally {
      await fake.app.close();
    }
  });

  it('a deleted badge does not give its id again (a sequence the model found)', async () => {
    const fake = await withBranches();
    try {
      await fc.asyncModelRun(
        () => ({ model: initialModel(), real: fake }),
        [new BadgeWrite(2, 'remove'), new BadgeWrite('new', { name: 'Docs' })],
      );
    } finally {
      await fake.app.close();
    }
  });

  it('a tree page that ends on a file does not skip the files with the same content (a sequence the model found)', async () => {
    const fake = await withBranches();
    try {
      await fc.asyncModelRun(
        () => ({ model: initialModel(), real: fake }),
        [new FileWrite('update', 'README.md', 'one'), new FileWrite('create', 'a.txt', 'one'), new Tree('', false, 1)],
      );
    } finally {
      await fake.app.close();
    }
  });
});
