/**
 * The fake's parameter tables (src/handlers/parameters.ts): every documented query parameter of every implemented
 * operation has exactly one entry, and no entry names a parameter the document lacks; each honoured parameter's example
 * answers 200 (valid against the contract) on the default data set, and differently without the parameter (what it
 * selected or changed is in the snapshot); docs/fake.md lists the tables as the code has them; filters the fake reads
 * beyond an operation's documented ones are validated as their documented twin validates them (the same 400).
 */
import { readFileSync } from 'node:fs';
import { routes } from '@service-api/server';
import { resolve } from '@service-api/server/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, implementedOperations } from '../src/index.ts';
import { parameterCounts, parameterTables, parameterTablesMarkdown } from '../src/handlers/parameters.ts';

/** What the server package (paging, sudo) and the authentication (credentials) handle for every operation. */
const SHARED = new Set(['sudo', 'page', 'per_page', 'private_token', 'access_token', 'job_token']);

interface Operation {
  operationId: string;
  parameters?: ({ $ref: string } | { name: string; in: string })[];
}
const doc = JSON.parse(readFileSync('generated/openapi/openapi.json', 'utf8')) as {
  paths: Record<string, Record<string, Operation | unknown>>;
  components: { parameters: Record<string, { name: string; in: string }> };
};

/** The documented query parameters of each implemented operation, shared ones left out. */
function documentedQueries(document = doc): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of Object.values(document.paths))
    for (const [method, value] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const operation = value as Operation;
      if (!implementedOperations.includes(operation.operationId)) continue;
      const shared = ((item as { parameters?: Operation['parameters'] }).parameters ?? []) as Operation['parameters'];
      const names = [...(shared ?? []), ...(operation.parameters ?? [])]
        .map((p) => resolve<{ name: string; in: string }>(document, p))
        .filter((p) => p.in === 'query' && !SHARED.has(p.name))
        .map((p) => p.name);
      if (names.length > 0) out.set(operation.operationId, names);
    }
  return out;
}

/** `operationId name` of each documented query parameter that has no entry in the tables. */
function withoutEntry(documented: Map<string, string[]>): string[] {
  return [...documented].flatMap(([id, names]) =>
    names.filter((name) => !Object.hasOwn(parameterTables[id]?.parameters ?? {}, name)).map((name) => `${id} ${name}`),
  );
}

/** `operationId name` of each entry in the tables that names no documented query parameter. */
function undocumentedEntries(documented: Map<string, string[]>): string[] {
  return Object.entries(parameterTables).flatMap(([id, table]) =>
    Object.keys(table.parameters)
      .filter((name) => !(documented.get(id) ?? []).includes(name))
      .map((name) => `${id} ${name}`),
  );
}

describe('the parameter tables against the document', () => {
  const documented = documentedQueries();

  it('have an entry for every documented query parameter of every implemented operation', () => {
    expect(withoutEntry(documented)).toEqual([]);
  });

  it('name no parameter the document lacks', () => {
    expect(undocumentedEntries(documented)).toEqual([]);
  });

  it('fail when the document gains a query parameter the tables lack, or loses one they name', () => {
    const grown = structuredClone(doc);
    const jobs = grown.paths['/projects/{id}/jobs']!.get as Operation;
    jobs.parameters = [...(jobs.parameters ?? []), { name: 'colour', in: 'query' }];
    expect(withoutEntry(documentedQueries(grown))).toEqual(['jobs/list-project-jobs colour']);
    const shrunk = structuredClone(doc);
    const list = shrunk.paths['/projects/{id}/jobs']!.get as Operation;
    list.parameters = (list.parameters ?? []).filter((p) => !('$ref' in p && p.$ref.endsWith('/JobScope')));
    expect(undocumentedEntries(documentedQueries(shrunk))).toEqual(['jobs/list-project-jobs scope[]']);
  });

  it('honour at least 95 % of them', () => {
    const { honoured, total } = parameterCounts();
    const all = [...documented.values()].flat().length;
    expect(total).toBe(all);
    console.info(`fake parameters: ${honoured} of ${total} honoured (${((100 * honoured) / total).toFixed(1)} %)`);
    expect(honoured / total).toBeGreaterThanOrEqual(0.95);
  });

  it('are what docs/fake.md lists', () => {
    const text = readFileSync('docs/fake.md', 'utf8');
    const start = '<!-- fake-parameters:start -->\n';
    const block = text.slice(text.indexOf(start) + start.length, text.indexOf('<!-- fake-parameters:end -->'));
    expect(block, 'regenerate with: node --import tsx packages/fake/scripts/parameters-list.mts').toBe(
      `${parameterTablesMarkdown()}\n`,
    );
  });
});

/** The query without the pairs of `name` (`name`, `name[]` and, for a hash, `name[key]`). */
function without(query: string, name: string): string {
  const params = new URLSearchParams(query);
  for (const key of [...params.keys()])
    if (key === name || key === `${name}[]` || (!name.endsWith(']') && key.startsWith(`${name}[`))) params.delete(key);
  return params.toString();
}

/** What an answer shows of its effect: status, total, and the records' ids (or the body, or the headers of a HEAD). */
function shown(response: { statusCode: number; headers: Record<string, unknown>; body: string; rawPayload: Buffer }) {
  const type = String(response.headers['content-type'] ?? '');
  const headers = Object.fromEntries(
    Object.entries(response.headers)
      .filter(([name]) => name.startsWith('x-') && !['x-request-id'].includes(name))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  if (type === 'application/zip')
    return { status: response.statusCode, headers, entries: zipEntries(response.rawPayload) };
  if (!type.startsWith('application/json') || response.body === '')
    return { status: response.statusCode, headers, bytes: response.rawPayload.length, sha: hash(response.rawPayload) };
  const body = JSON.parse(response.body) as unknown;
  const key = (item: Record<string, unknown>) =>
    item.id ??
    item.iid ??
    (item.source_type ? `${item.source_type} ${item.source_id}` : undefined) ??
    item.name ??
    item.username ??
    JSON.stringify(item).slice(0, 60);
  const fields = (items: Record<string, unknown>[]) => [...new Set(items.flatMap((item) => Object.keys(item)))].sort();
  if (Array.isArray(body)) {
    const items = body as Record<string, unknown>[];
    return {
      status: response.statusCode,
      total: response.headers['x-total'],
      ids: items.map(key),
      fields: fields(items),
      sha: hash(Buffer.from(response.body)),
    };
  }
  const text = JSON.stringify(body);
  if (text.length <= 400) return { status: response.statusCode, body };
  return {
    status: response.statusCode,
    fields: fields([body as Record<string, unknown>]),
    sha: hash(Buffer.from(text)),
  };
}

/**
 * A zip's entries from its central directory, each `name crc32 size` of its uncompressed content: the compressed bytes
 * differ with the zlib of the Node that runs the fake (scripts/node-matrix.ts), the content does not.
 */
function zipEntries(zip: Buffer): string[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const entries: string[] = [];
  let at = zip.readUInt32LE(end + 16);
  for (let left = zip.readUInt16LE(end + 10); left > 0; left -= 1) {
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    entries.push(`${name} ${zip.readUInt32LE(at + 16).toString(16)} ${zip.readUInt32LE(at + 24)}`);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

function hash(bytes: Buffer): string {
  let h = 0;
  for (const byte of bytes) h = (h * 31 + byte) | 0;
  return (h >>> 0).toString(16);
}

describe('each honoured parameter on the default data set', () => {
  let fake: Awaited<ReturnType<typeof createFake>>;
  beforeAll(async () => {
    fake = await createFake({ validateResponses: true });
  });
  afterAll(() => fake.app.close());

  const cases = Object.entries(parameterTables).flatMap(([id, table]) =>
    Object.entries(table.parameters).flatMap(([name, entry]) =>
      'honoured' in entry
        ? [
            {
              id,
              path: entry.path ?? table.path,
              name,
              example: entry.example,
              token: entry.token ?? table.token,
              status: entry.status ?? 200,
            },
          ]
        : [],
    ),
  );

  it.each(cases)('$id $name ($example)', async ({ id, path, name, example, token, status }) => {
    const method = routes.find((r) => r.id === id)!.method as 'GET' | 'HEAD';
    const send = (query: string) =>
      fake.app.inject({
        method,
        url: `/api/v4${path}${query ? `?${query}` : ''}`,
        headers: token ? { 'private-token': token } : {},
      });
    const withIt = await send(example);
    const withoutIt = await send(without(example, name));
    expect(withIt.statusCode, withIt.body).toBe(status);
    const effect = shown(withIt);
    expect(effect).not.toEqual(shown(withoutIt));
    expect(effect).toMatchSnapshot();
  });
});

describe('filters read beyond the documented ones', () => {
  let fake: Awaited<ReturnType<typeof createFake>>;
  beforeAll(async () => {
    fake = await createFake({ validateResponses: true });
  });
  afterAll(() => fake.app.close());
  const get = (url: string) =>
    fake.app.inject({ method: 'GET', url: `/api/v4${url}`, headers: { 'private-token': 'admin-token' } });

  it.each([
    ['/projects/1/merge_requests?state=bogus', '/merge_requests?state=bogus'],
    ['/projects/1/merge_requests?wip=maybe', '/merge_requests?wip=maybe'],
    ['/projects/1/merge_requests?reviewer_id=x', '/merge_requests?reviewer_id=x'],
    ['/projects/1/merge_requests?sort=up', '/merge_requests?sort=up'],
    ['/projects/1/runners?status=sleepy', '/runners/all?status=sleepy'],
    ['/projects/1/runners?paused=perhaps', '/runners/all?paused=perhaps'],
  ])('%s answers the 400 of %s', async (url, twin) => {
    const [answer, documented] = [await get(url), await get(twin)];
    expect(documented.statusCode).toBe(400);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual(documented.json());
  });

  it.each([
    ['/projects/1/merge_requests?state=merged', [3]],
    ['/projects/1/merge_requests?state=all&wip=yes', [5]],
    ['/projects/1/merge_requests?state=all&reviewer_id=3', [1]],
    ['/projects/1/merge_requests?state=opened&sort=asc', [1, 5, 6]],
  ])('%s applies the filter once valid', async (url, iids) => {
    const answer = await get(url);
    expect(answer.statusCode).toBe(200);
    expect((answer.json() as { iid: number }[]).map((mr) => mr.iid)).toEqual(iids);
  });

  it('lists for each such operation a twin that documents the filters', () => {
    for (const [id, table] of Object.entries(parameterTables)) {
      if (!table.undocumented) continue;
      const twin = routes.find((r) => r.id === table.undocumented!.twin)!;
      const own = routes.find((r) => r.id === id)!;
      for (const name of table.undocumented.names) {
        expect(Object.hasOwn(twin.input.q, name), `${twin.id} documents ${name}`).toBe(true);
        expect(Object.hasOwn(own.input.q, name), `${id} does not document ${name}`).toBe(false);
      }
    }
  });
});

/**
 * Array filters as the Service reads them: `name[]` builds the list (Rack); a plain `name` is read as the Service's
 * Grape declaration reads it (`x-unbracketed`: split at commas), the last value of a repeated one (Rack), reported and
 * refused in strict mode; `approved_by_ids` takes only `None` and `Any` (the Service answers 400 for ids there).
 */
describe('array filters in the bracket form', () => {
  let fake: Awaited<ReturnType<typeof createFake>>;
  let strict: Awaited<ReturnType<typeof createFake>>;
  beforeAll(async () => {
    fake = await createFake({ validateResponses: true });
    strict = await createFake({ strict: true });
  });
  afterAll(async () => {
    await fake.app.close();
    await strict.app.close();
  });
  const get = (url: string, on = fake) =>
    on.app.inject({ method: 'GET', url: `/api/v4${url}`, headers: { 'private-token': 'admin-token' } });
  const ids = async (url: string, key: 'iid' | 'id' = 'id') => {
    const answer = await get(url);
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json() as Record<string, number>[]).map((item) => item[key]);
  };

  it.each([
    ['/projects/1/merge_requests?approved_by_ids[]=999999', []],
    ['/merge_requests?scope=all&approved_by_ids[]=999999', []],
    ['/projects/1/merge_requests?approver_ids[]=999999', []],
    ['/projects/1/merge_requests?approved_by_ids[]=2&approved_by_ids[]=3', [3]],
  ])('%s selects %j', async (url, iids) => {
    expect(await ids(url, 'iid')).toEqual(iids);
  });

  it('filters members by user_ids[] and skip_users[]', async () => {
    expect(await ids('/projects/1/members/all?user_ids[]=3')).toEqual([3]);
    expect(await ids('/projects/1/members?user_ids[]=3&user_ids[]=4')).toEqual([3, 4]);
    expect(await ids('/projects/1/members?skip_users[]=3')).not.toContain(3);
  });

  it('reads a plain name as the Service does: split at commas, the last of repeated names, reported', async () => {
    expect(await ids('/projects/1/members/all?user_ids=3,4')).toEqual([3, 4]);
    expect(await ids('/projects/1/members/all?user_ids=4&user_ids=3')).toEqual([3]);
    const answer = await get('/projects/1/members/all?user_ids=3', strict);
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain('query parameter user_ids \\"3\\" read as user_ids[]=3');
  });

  it('answers 400 for ids under approved_by_ids, as the Service does', async () => {
    for (const url of ['/projects/1/merge_requests?approved_by_ids=2', '/projects/1/merge_requests?approver_ids=2,3']) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(400);
    }
    expect(await ids('/projects/1/merge_requests?approved_by_ids=None&state=opened', 'iid')).not.toContain(1);
  });
});
