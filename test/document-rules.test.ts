/**
 * The rules the document states beyond single fields are enforced by what we ship: the rules across query parameters
 * (`x-query-schema`) by `validateRequest` of the validators package, a server on the generated stubs (default and
 * strict mode), the fake and the mock, which all answer 400 naming the rule and accept each parameter alone; the rules
 * of request bodies over their own fields (`cn` or `filter`, `user_id` unless `email`, the password rules) by the same
 * five; and the state-table rules written as `if`/`then` in schemas by the generated validators.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateResponse, validateRequest, type RequestOperationId } from '@service-api/validators';
import { resolve } from '../packages/server/src/openapi-model.ts';
import { publishedDocument, queryRule } from './support/documents.ts';
import { startExampleServer, type ExampleServer } from './support/example-server.ts';
import { useFake } from './support/fake.ts';
import { useMock } from './support/mock.ts';

// The rules' texts are the document's (`x-query-schema`): what the servers answer when a request breaks one.
const doc = publishedDocument();
const MUTUALLY_EXCLUSIVE = queryRule(doc, 'merge-requests/list-project-merge-requests', 'author_id', 'author_username');
const ORDER_BY_UPDATED = queryRule(doc, 'projects/list-projects', 'updated_after', 'order_by');

/** operationId, the path the servers are asked (project 1), the query, and the rule it breaks (none: accepted). */
const cases: [RequestOperationId, string, Record<string, string>, string | undefined][] = [
  [
    'merge-requests/list-project-merge-requests',
    '/projects/1/merge_requests',
    { author_id: '1', author_username: 'x' },
    MUTUALLY_EXCLUSIVE,
  ],
  ['merge-requests/list-project-merge-requests', '/projects/1/merge_requests', { author_id: '1' }, undefined],
  ['merge-requests/list-project-merge-requests', '/projects/1/merge_requests', { author_username: 'x' }, undefined],
  [
    'merge-requests/list-merge-requests',
    '/merge_requests',
    { author_id: '1', author_username: 'x' },
    queryRule(doc, 'merge-requests/list-merge-requests', 'author_id', 'author_username'),
  ],
  [
    'merge-requests/list-merge-requests',
    '/merge_requests',
    { reviewer_id: '2', reviewer_username: 'y' },
    queryRule(doc, 'merge-requests/list-merge-requests', 'reviewer_id', 'reviewer_username'),
  ],
  ['merge-requests/list-merge-requests', '/merge_requests', { reviewer_id: '2' }, undefined],
  ['projects/list-projects', '/projects', { updated_after: '2025-03-01T00:00:00Z' }, ORDER_BY_UPDATED],
  ['projects/list-projects', '/projects', { updated_after: '2025-03-01T00:00:00Z', order_by: 'updated_at' }, undefined],
];
const queryString = (query: Record<string, string>) => new URLSearchParams(query).toString();
const named = cases.map(([id, path, query, rule]) => [`${id} ?${queryString(query)}`, id, path, query, rule] as const);

/**
 * The rules of request bodies over their own fields (`if`/`then`/`else` on the schema): method, path (group 1,
 * project 1), body, and whether a server must refuse it with 400.
 */
const bodyCases: [RequestOperationId, 'POST' | 'DELETE', string, Record<string, unknown>, boolean][] = [
  [
    'groups/create-ldap-group-link',
    'POST',
    '/groups/1/ldap_group_links',
    { group_access: 30, provider: 'ldapmain' },
    true,
  ],
  [
    'groups/create-ldap-group-link',
    'POST',
    '/groups/1/ldap_group_links',
    { cn: 'x', filter: '(uid=x)', group_access: 30, provider: 'ldapmain' },
    true,
  ],
  [
    'groups/create-ldap-group-link',
    'POST',
    '/groups/1/ldap_group_links',
    { cn: 'rules', group_access: 30, provider: 'ldapmain' },
    false,
  ],
  ['groups/delete-ldap-group-link', 'DELETE', '/groups/1/ldap_group_links', { provider: 'ldapmain' }, true],
  [
    'groups/delete-ldap-group-link',
    'DELETE',
    '/groups/1/ldap_group_links',
    { cn: 'x', filter: '(uid=x)', provider: 'ldapmain' },
    true,
  ],
  ['invitations/create-project-invitation', 'POST', '/projects/1/invitations', { access_level: 30 }, true],
  [
    'invitations/create-project-invitation',
    'POST',
    '/projects/1/invitations',
    { access_level: 30, email: 'rules@example.com' },
    false,
  ],
  ['users/create-user', 'POST', '/users', { email: 'r@example.com', name: 'R', username: 'rules' }, true],
  [
    'users/create-user',
    'POST',
    '/users',
    { email: 'r@example.com', name: 'R', username: 'rules', reset_password: false },
    true,
  ],
  [
    'users/create-user',
    'POST',
    '/users',
    { email: 'r@example.com', name: 'R', username: 'rules', reset_password: true },
    false,
  ],
];
const namedBodies = bodyCases.map(
  ([id, method, path, body, refused]) => [`${id} ${JSON.stringify(body)}`, id, method, path, body, refused] as const,
);

/** Sends a body as admin-token: a refused one must be a 400, an accepted one neither a 400 nor a 5xx. */
async function expectBodyRule(root: string, method: string, path: string, body: unknown, refused: boolean) {
  const response = await fetch(`${root}${path}`, {
    method,
    headers: { 'private-token': 'admin-token', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (refused) expect(response.status, text).toBe(400);
  else {
    expect(response.status, text).not.toBe(400);
    expect(response.status, text).toBeLessThan(500);
  }
}

describe('validateRequest', () => {
  it.each(named)('%s', (_name, id, _path, query, rule) => {
    const result = validateRequest(id, { params: { id: '1' }, query });
    expect(result.errors).toEqual(rule === undefined ? [] : [`query parameters break a rule: ${rule}`]);
  });

  it.each(namedBodies)('%s', (_name, id, _method, _path, body, refused) => {
    const result = validateRequest(id, { params: { id: '1' }, headers: { 'content-type': 'application/json' }, body });
    expect(result.valid).toBe(!refused);
  });

  it('names each broken rule once', () => {
    const result = validateRequest('merge-requests/list-merge-requests', {
      query: { author_id: '1', author_username: 'x', merge_user_id: '3', merge_user_username: 'z' },
    });
    const authorRule = queryRule(doc, 'merge-requests/list-merge-requests', 'author_id', 'author_username');
    expect(result.problems).toEqual([
      { in: 'query', field: '', path: ['query'], problem: `query parameters break a rule: ${authorRule}` },
      {
        in: 'query',
        field: '',
        path: ['query'],
        problem: `query parameters break a rule: ${queryRule(doc, 'merge-requests/list-merge-requests', 'merge_user_id', 'merge_user_username')}`,
      },
    ]);
  });
});

/** What a server answers a GET: the status, and whether its body names the rule. */
async function ask(
  root: string,
  path: string,
  query: Record<string, string>,
): Promise<{ status: number; namesRule: (rule: string) => boolean }> {
  const response = await fetch(`${root}${path}?${queryString(query)}`, { headers: { 'private-token': 'admin-token' } });
  const text = await response.text();
  return { status: response.status, namesRule: (rule) => text.includes(JSON.stringify(rule).slice(1, -1)) };
}

async function expectEnforced(root: string, path: string, query: Record<string, string>, rule: string | undefined) {
  const answer = await ask(root, path, query);
  if (rule === undefined) expect(answer.status).toBe(200);
  else {
    expect(answer.status).toBe(400);
    expect(answer.namesRule(rule)).toBe(true);
  }
}

describe.each([false, true])('a server on the generated stubs (strict: %s)', (strict) => {
  let server: ExampleServer;
  beforeAll(async () => {
    server = await startExampleServer({ strict });
  });
  afterAll(async () => {
    await server?.close();
  });
  it.each(named)('%s', async (_name, _id, path, query, rule) =>
    expectEnforced(`${server.origin}/api/v4`, path, query, rule),
  );
  it.each(namedBodies)('%s', async (_name, _id, method, path, body, refused) =>
    expectBodyRule(`${server.origin}/api/v4`, method, path, body, refused),
  );
});

describe.each([false, true])('the fake (strict: %s)', (strict) => {
  const { url } = useFake({ strict, reset: false });
  it.each(named)('%s', async (_name, _id, path, query, rule) => expectEnforced(url(''), path, query, rule));
  it.each(namedBodies)('%s', async (_name, _id, method, path, body, refused) =>
    expectBodyRule(url(''), method, path, body, refused),
  );
});

describe('the mock', () => {
  const root = useMock();
  it.each(named)('%s', async (_name, _id, path, query, rule) => expectEnforced(root(), path, query, rule));
  it.each(namedBodies)('%s', async (_name, _id, method, path, body, refused) =>
    expectBodyRule(root(), method, path, body, refused),
  );
});

describe('state-table rules (if/then) in the generated validators', () => {
  const example = (name: string) =>
    structuredClone(resolve<{ value: Record<string, unknown> }>(doc, { $ref: `#/components/examples/${name}` }).value);
  const cases: [
    string,
    () => {
      operationId: 'project-import-export/get-export-status' | 'runners/get-runner';
      body: Record<string, unknown>;
    },
    boolean,
  ][] = [
    [
      'a finished export with its _links',
      () => ({ operationId: 'project-import-export/get-export-status', body: example('ProjectExportFinished') }),
      true,
    ],
    [
      'a finished export without _links',
      () => ({
        operationId: 'project-import-export/get-export-status',
        body: { ...example('ProjectExportFinished'), _links: undefined },
      }),
      false,
    ],
    [
      'a started export with _links',
      () => ({
        operationId: 'project-import-export/get-export-status',
        body: { ...example('ProjectExportStarted'), _links: example('ProjectExportFinished')._links },
      }),
      false,
    ],
    [
      'a runner never contacted, contacted_at null',
      () => ({ operationId: 'runners/get-runner', body: example('NeverContactedRunnerDetails') }),
      true,
    ],
    [
      'a runner never contacted with a contacted_at',
      () => ({
        operationId: 'runners/get-runner',
        body: { ...example('NeverContactedRunnerDetails'), contacted_at: '2025-01-01T00:00:00Z' },
      }),
      false,
    ],
  ];
  it.each(cases)('%s', (_title, make, valid) => {
    const { operationId, body } = make();
    expect(validateResponse(operationId, 200, JSON.parse(JSON.stringify(body))).valid).toBe(valid);
  });
});

/** Rack builds a list only from `name[]` (`a=1&a=2` is `a=2`): every array query parameter is written so. */
function unbracketedArrays(doc: ReturnType<typeof publishedDocument>): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const [method, operation] of Object.entries(item as Record<string, { parameters?: unknown[] }>)) {
      const shared = (item as { parameters?: unknown[] }).parameters ?? [];
      for (const raw of [...shared, ...(method === 'parameters' ? [] : (operation.parameters ?? []))]) {
        const parameter = resolve<{ name: string; in: string; schema?: unknown }>(doc, raw as never);
        const schema = JSON.stringify(parameter.schema ? resolve(doc, parameter.schema as never) : {});
        if (parameter.in === 'query' && schema.includes('"type":"array"') && !parameter.name.endsWith('[]'))
          out.push(`${method.toUpperCase()} ${path} ${parameter.name}`);
      }
    }
  return out;
}

describe('array query parameters', () => {
  it('are named name[], the form the Service reads as a list', () => {
    expect(unbracketedArrays(publishedDocument())).toEqual([]);
  });

  it('are found when written without brackets', () => {
    const doc = structuredClone(publishedDocument());
    const operation = (doc.paths as Record<string, Record<string, { parameters: unknown[] }>>)['/projects/{id}/jobs']!
      .get!;
    operation.parameters.push({ name: 'ids', in: 'query', schema: { type: 'array', items: { type: 'integer' } } });
    expect(unbracketedArrays(doc)).toEqual(['GET /projects/{id}/jobs ids']);
  });
});
