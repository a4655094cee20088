/**
 * The Service's tolerances on a server built on the generated package: what the handler receives (documented fields
 * only, coerced, merged), what `onTolerated` is told (bounded), and `strict: true` refusing each tolerance with a 400
 * naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handlers, ToleranceReport } from '@service-api/server';
import { exampleHandlers, startExampleServer, type ExampleServer } from '../../../test/support/example-server.ts';
import { multipart, TOKEN } from '../../../test/hostile/cases.ts';
import { sendCase } from '../../../test/hostile/send.ts';

/** The input each operation's handler last received. */
const seen = new Map<string, { query: Record<string, unknown>; body: unknown; params: Record<string, unknown> }>();
const reports: ToleranceReport[] = [];

function recordingHandlers(): Handlers {
  const handlers = exampleHandlers() as Record<string, (input: never, context: never) => unknown>;
  return Object.fromEntries(
    Object.entries(handlers).map(([id, handler]) => [
      id,
      (input: { query: Record<string, unknown>; body: unknown; params: Record<string, unknown> }, context: never) => {
        seen.set(
          id,
          JSON.parse(JSON.stringify({ query: input.query, body: input.body ?? null, params: input.params })),
        );
        return handler(input as never, context);
      },
    ]),
  ) as Handlers;
}

let lenient: ExampleServer;
let strict: ExampleServer;

beforeAll(async () => {
  lenient = await startExampleServer({
    handlers: recordingHandlers(),
    onTolerated: (report) => void reports.push(report),
  });
  strict = await startExampleServer({ handlers: recordingHandlers(), strict: true });
});

afterAll(async () => {
  await lenient?.close();
  await strict?.close();
});

const json = (value: unknown) => ({
  headers: { ...TOKEN, 'Content-Type': 'application/json' },
  body: JSON.stringify(value),
});
const form = (text: string) => ({
  headers: { ...TOKEN, 'Content-Type': 'application/x-www-form-urlencoded' },
  body: text,
});
const FILE = '/projects/1/repository/files/docs%2Fa.txt';

interface ToleranceCase {
  name: string;
  request: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer };
  operationId: string;
  status: number;
  /** What the handler receives (a subset is checked). */
  receives: { query?: Record<string, unknown>; body?: unknown; params?: Record<string, unknown> };
  /** Fields the handler must not receive, in the query or the body. */
  drops?: string[];
  /** The fields the report and the strict 400 name. */
  names: string[];
}

const cases: ToleranceCase[] = [
  {
    name: 'booleans as True/False/1/0 in the query',
    request: { method: 'GET', path: '/users?active=True&blocked=0&external=1&exclude_internal=False', headers: TOKEN },
    operationId: 'users/list-users',
    status: 200,
    receives: { query: { active: true, blocked: false, external: true, exclude_internal: false } },
    names: ['active', 'blocked', 'external', 'exclude_internal'],
  },
  {
    name: 'a boolean as a JSON string',
    request: {
      method: 'POST',
      path: '/projects/remote-import',
      ...json({ path: 'p', url: 'https://example.invalid/a.tar.gz', overwrite: 'False' }),
    },
    operationId: 'project-import-export/import-project-from-url',
    status: 201,
    receives: { body: { path: 'p', overwrite: false } },
    names: ['overwrite'],
  },
  {
    name: 'a boolean as a multipart field',
    request: {
      method: 'POST',
      path: '/projects/import',
      ...(() => {
        const m = multipart([
          ['path', 'p'],
          ['overwrite', 'True'],
          ['file', { filename: 'a.tar.gz', type: 'application/gzip', data: Buffer.from([0x1f, 0x8b]) }],
        ]);
        return { headers: { ...TOKEN, ...m.headers }, body: m.body };
      })(),
    },
    operationId: 'project-import-export/import-project',
    status: 201,
    receives: { body: { path: 'p', overwrite: true } },
    names: ['overwrite'],
  },
  {
    name: 'write parameters in the query string of a DELETE',
    request: { method: 'DELETE', path: `${FILE}?branch=main&commit_message=Remove`, headers: TOKEN },
    operationId: 'repository/delete-file',
    status: 204,
    receives: { body: { branch: 'main', commit_message: 'Remove' } },
    names: ['branch', 'commit_message'],
  },
  {
    name: 'a required write parameter in the query (plan_name)',
    request: { method: 'PUT', path: '/application/plan_limits?plan_name=default', ...json({ ci_active_jobs: '5' }) },
    operationId: 'application/update-plan-limits',
    status: 200,
    receives: { body: { plan_name: 'default', ci_active_jobs: 5 } },
    names: ['plan_name', 'ci_active_jobs'],
  },
  {
    name: 'a form body (curl --data), merged with the query; the body wins',
    request: {
      method: 'POST',
      path: '/projects/1/merge_requests?title=From+the+query&squash=true',
      ...form(
        'source_branch=feature&target_branch=main&title=From+the+form&remove_source_branch=True&assignee_ids[]=3&assignee_ids[]=4',
      ),
    },
    operationId: 'merge-requests/create-merge-request',
    status: 201,
    receives: {
      body: {
        source_branch: 'feature',
        title: 'From the form',
        remove_source_branch: true,
        squash: true,
        assignee_ids: [3, 4],
      },
    },
    names: ['', 'title', 'squash', 'remove_source_branch'],
  },
  {
    name: 'a path parameter repeated in the body, equal',
    request: {
      method: 'PUT',
      path: FILE,
      ...json({ file_path: 'docs/a.txt', branch: 'main', commit_message: 'm', content: 'c' }),
    },
    operationId: 'repository/update-file',
    status: 200,
    receives: { body: { branch: 'main', commit_message: 'm', content: 'c' } },
    drops: ['file_path'],
    names: ['file_path'],
  },
  {
    name: 'a path parameter repeated URL-encoded in the body: the path wins',
    request: {
      method: 'PUT',
      path: FILE,
      ...json({ file_path: 'docs%2Fa.txt', branch: 'main', commit_message: 'm', content: 'c' }),
    },
    operationId: 'repository/update-file',
    status: 200,
    receives: { body: { branch: 'main' }, params: { file_path: 'docs/a.txt' } },
    drops: ['file_path'],
    names: ['file_path'],
  },
  {
    name: 'a path parameter repeated with another value in the body and the query: the path wins',
    request: {
      method: 'PUT',
      path: `${FILE}?file_path=other.txt`,
      ...json({ file_path: 'elsewhere.txt', branch: 'main', commit_message: 'm', content: 'c' }),
    },
    operationId: 'repository/update-file',
    status: 200,
    receives: { body: { branch: 'main' }, params: { file_path: 'docs/a.txt' } },
    drops: ['file_path'],
    names: ['file_path', 'file_path'],
  },
  {
    name: 'a JSON null for an optional field that takes no null: read as not sent (python-gitlab sends expires_at: null)',
    request: { method: 'POST', path: '/groups/1/share', ...json({ group_id: 2, group_access: 30, expires_at: null }) },
    operationId: 'groups/share',
    status: 200,
    receives: { body: { group_id: 2, group_access: 30 } },
    drops: ['expires_at'],
    names: ['expires_at'],
  },
  {
    name: 'an empty object for a documented object field: read as not sent (a client always sending upload: {} on export)',
    request: { method: 'POST', path: '/projects/1/export', ...json({ description: 'Exported', upload: {} }) },
    operationId: 'project-import-export/export-project',
    status: 202,
    receives: { body: { description: 'Exported' } },
    drops: ['upload'],
    names: ['upload'],
  },
  {
    name: 'a date-time where a date is documented: read as its day (SDKs send the impersonation token expiry so)',
    request: {
      method: 'POST',
      path: '/users/1/impersonation_tokens',
      ...json({ name: 'n', scopes: ['api'], expires_at: '20261231T120000Z' }),
    },
    operationId: 'users/create-impersonation-token',
    status: 201,
    receives: { body: { name: 'n', scopes: ['api'], expires_at: '2026-12-31' } },
    names: ['expires_at'],
  },
  {
    name: 'unknown fields in the query and in a nested body object',
    request: {
      method: 'POST',
      path: '/projects/1/product_analytics/request/load?cache_buster=1',
      ...json({
        query: { measures: ['TrackedEvents.count'], time_dimensions: [] },
        query_type: 'multi',
        queryType: 'multi',
      }),
    },
    operationId: 'product-analytics/load-query',
    status: 201,
    receives: { body: { query: { measures: ['TrackedEvents.count'] }, queryType: 'multi' } },
    drops: ['cache_buster', 'query_type', 'time_dimensions'],
    names: ['cache_buster', 'query.time_dimensions', 'query_type'],
  },
];

function fieldsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) fieldsIn(item, out.add(key));
  return out;
}

describe('default mode: tolerated, reported, and handlers see only documented fields', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    reports.length = 0;
    const answer = await sendCase(lenient.origin, c.request);
    expect(answer.status, answer.body.toString().slice(0, 500)).toBe(c.status);
    const input = seen.get(c.operationId)!;
    if (c.receives.query) expect(input.query).toMatchObject(c.receives.query);
    if (c.receives.body) expect(input.body).toMatchObject(c.receives.body as object);
    if (c.receives.params) expect(input.params).toMatchObject(c.receives.params);
    for (const field of c.drops ?? []) expect(fieldsIn({ query: input.query, body: input.body })).not.toContain(field);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.operationId).toBe(c.operationId);
    expect(reports[0]!.tolerated.map((t) => t.field).sort()).toEqual([...c.names].sort());
    expect(reports[0]!.count).toBe(c.names.length);
  });

  it('reports the first 20 tolerances and how many there were', async () => {
    reports.length = 0;
    const query = Array.from({ length: 150 }, (_, i) => `unknown_${i}=x`).join('&');
    expect(
      (await sendCase(lenient.origin, { method: 'GET', path: `/projects/1/jobs?${query}`, headers: TOKEN })).status,
    ).toBe(200);
    expect(reports[0]!.tolerated).toHaveLength(20);
    expect(reports[0]!.count).toBe(150);
    expect(Object.keys(seen.get('jobs/list-project-jobs')!.query)).toEqual([]);
  });

  it('logs one line per tolerant request through the Fastify logger', async () => {
    const lines: string[] = [];
    const logged = await startExampleServer(
      {},
      { logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } },
    );
    try {
      await sendCase(logged.origin, { method: 'GET', path: '/users?active=True', headers: TOKEN });
      const entries = lines
        .map((l) => JSON.parse(l) as { msg: string; serviceApi?: ToleranceReport })
        .filter((e) => e.serviceApi);
      expect(entries).toHaveLength(1);
      expect(entries[0]!.msg).toBe('users/list-users: tolerated 1 deviation(s) from the contract');
      expect(entries[0]!.serviceApi!.tolerated).toEqual([
        { in: 'query', field: 'active', problem: 'query parameter active "True" read as true' },
      ]);
    } finally {
      await logged.close();
    }
  });

  it("reports nothing for a request in the contract's exact form", async () => {
    reports.length = 0;
    expect(
      (await sendCase(lenient.origin, { method: 'GET', path: '/users?active=true&per_page=5', headers: TOKEN })).status,
    ).toBe(200);
    expect(
      (
        await sendCase(lenient.origin, {
          method: 'POST',
          path: '/projects/1/merge_requests',
          ...json({ source_branch: 'a', target_branch: 'b', title: 't', squash: true }),
        })
      ).status,
    ).toBe(201);
    expect(reports).toEqual([]);
  });
});

describe('strict mode: every tolerance is a 400 naming the field', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const answer = await sendCase(strict.origin, c.request);
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.body.toString()) as {
      message: string;
      errors: { field: string; problem: string }[];
    };
    expect(body.message).toMatch(/^400 Bad request - /);
    expect(body.errors.map((e) => e.field).sort()).toEqual([...c.names].sort());
  });

  it('caps the listed problems at 20 and counts the rest', async () => {
    const query = Array.from({ length: 150 }, (_, i) => `unknown_${i}=x`).join('&');
    const body = JSON.parse(
      (
        await sendCase(strict.origin, { method: 'GET', path: `/projects/1/jobs?${query}`, headers: TOKEN })
      ).body.toString(),
    ) as { message: string; errors: unknown[]; error_count: number };
    expect(body.errors).toHaveLength(20);
    expect(body.error_count).toBe(150);
    expect(body.message).toMatch(/\(and 130 more\)$/);
  });

  it('answers requests in the exact form', async () => {
    expect(
      (await sendCase(strict.origin, { method: 'GET', path: '/users?active=true&per_page=5', headers: TOKEN })).status,
    ).toBe(200);
    expect(
      (
        await sendCase(strict.origin, {
          method: 'DELETE',
          path: FILE,
          ...json({ branch: 'main', commit_message: 'Remove' }),
        })
      ).status,
    ).toBe(204);
    // An empty body is no body, whatever its media type: nothing to tolerate.
    for (const type of [
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain',
    ]) {
      const answer = await sendCase(strict.origin, {
        method: 'DELETE',
        path: '/projects/1/merge_requests/1',
        headers: { ...TOKEN, 'Content-Type': type },
        body: '',
      });
      expect(answer.status, `${type}: ${answer.body.toString()}`).toBe(204);
    }
  });
});
