/**
 * The requests a Python SDK (requests: `True`/`False` in query strings, multipart fields as text) and curl
 * (`--data` form bodies, writes in the query string) send, as plain requests against the mock: each passes in
 * default mode and reports what was tolerated; strict mode refuses each with 400 naming the field.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { useMock } from '../support/mock.ts';

const token = { 'PRIVATE-TOKEN': 'glpat-test' };
const form = { ...token, 'content-type': 'application/x-www-form-urlencoded' };
const json = { ...token, 'content-type': 'application/json' };

function multipart(fields: Record<string, string | Blob>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

interface PlainCall {
  name: string;
  path: string;
  init: RequestInit;
}

export const plainCalls: PlainCall[] = [
  { name: 'python: list users ?active=True', path: '/users?active=True', init: { headers: token } },
  {
    name: 'python: list projects ?membership=True&simple=False',
    path: '/projects?membership=True&simple=False',
    init: { headers: token },
  },
  {
    name: 'python: repository tree ?recursive=False',
    path: '/projects/42/repository/tree?recursive=False',
    init: { headers: token },
  },
  {
    name: 'python: groups ?all_available=True&statistics=False',
    path: '/groups?all_available=True&statistics=False',
    init: { headers: token },
  },
  {
    name: 'python: delete a file with branch and commit_message in the query',
    path: '/projects/42/repository/files/app%2Fa.rb?branch=main&commit_message=Remove',
    init: { method: 'DELETE', headers: token },
  },
  {
    name: 'python: update a file repeating file_path in the body',
    path: '/projects/42/repository/files/app%2Fa.rb',
    init: {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ file_path: 'app/a.rb', branch: 'main', content: 'x', commit_message: 'Update' }),
    },
  },
  {
    name: 'python: create a file repeating file_path, overwrite as "False"',
    path: '/projects/42/repository/files/app%2Fb.rb',
    init: {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        file_path: 'app/b.rb',
        branch: 'main',
        content: 'x',
        commit_message: 'Add',
        execute_filemode: 'False',
      }),
    },
  },
  {
    name: 'python: plan limits with plan_name in the query',
    path: '/application/plan_limits?plan_name=default&ci_pipeline_size=100',
    init: { method: 'PUT', headers: token },
  },
  {
    name: 'python: import a project, overwrite as a multipart "False"',
    path: '/projects/import',
    init: {
      method: 'POST',
      headers: token,
      body: multipart({ path: 'imported', overwrite: 'False', file: new Blob(['x']) }),
    },
  },
  {
    name: 'python: update a merge request with a newer field the contract does not list',
    path: '/projects/42/merge_requests/2',
    init: {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ title: 'New title', merge_after: '2026-01-01T00:00:00Z' }),
    },
  },
  {
    name: 'python: analytics query with snake-cased keys',
    path: '/projects/42/product_analytics/request/load',
    init: {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ query: { measures: ['TrackedEvents.count'], time_dimensions: [] }, query_type: 'query' }),
    },
  },
  {
    name: 'curl: create a merge request with --data',
    path: '/projects/42/merge_requests',
    init: {
      method: 'POST',
      headers: form,
      body: 'source_branch=feature&target_branch=main&title=Add+login&remove_source_branch=true&squash=1',
    },
  },
  {
    name: 'curl: merge with --data squash=True',
    path: '/projects/42/merge_requests/2/merge',
    init: { method: 'PUT', headers: form, body: 'squash=True&should_remove_source_branch=0' },
  },
  {
    name: 'curl: create a merge request with the query string (API docs style)',
    path: '/projects/42/merge_requests?source_branch=feature&target_branch=main&title=Add',
    init: { method: 'POST', headers: token },
  },
  {
    name: "curl: update a user's runner with --data",
    path: '/runners/3',
    init: { method: 'PUT', headers: form, body: 'description=runner&paused=False&tag_list[]=docker' },
  },
  {
    name: 'curl: group badge with --data',
    path: '/groups/5/badges',
    init: {
      method: 'POST',
      headers: form,
      body: 'link_url=https://service.example/%25%7Bproject_path%7D&image_url=https://service.example/b.svg',
    },
  },
];

const modes = [
  { name: 'default', strict: false },
  { name: 'strict', strict: true },
];

describe.each(modes)('Python SDK and curl forms against the mock, $name mode', ({ strict }) => {
  const api = useMock({ strict });
  let passed = 0;
  afterAll(() => {
    console.log(`plain requests (${strict ? 'strict' : 'default'}): ${passed} of ${plainCalls.length} pass`);
  });

  it.each(plainCalls.map((c) => [c.name, c] as const))('%s', async (_name, { path, init }) => {
    const response = await fetch(`${api()}${path}`, init);
    const text = await response.text();
    if (response.status < 300) passed += 1;
    if (!strict) {
      expect(response.status, text).toBeLessThan(300);
      expect(JSON.parse(response.headers.get('sl-violations') ?? '[]'), 'what was tolerated is reported').not.toEqual(
        [],
      );
    } else {
      expect(response.status, text).toBe(400);
      const body = JSON.parse(text) as { errors: { field: string }[] };
      expect(body.errors.length).toBeGreaterThan(0);
    }
  });
});
