import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_URL, printedUrl } from '../../../test/support/command.ts';
import { parsePrefer, resolvePreference } from '../src/prefer.ts';
import { toleranceLogLine, violationsHeader } from '../src/violations.ts';
import { ROOT } from '../../../scripts/lib/paths.ts';
import { useMock } from '../../../test/support/mock.ts';
import { publishedDocument } from '../../../test/support/documents.ts';

/** A documented example's value, as the document words it (`#/components/examples/<name>`). */
const example = (name: string): unknown =>
  (publishedDocument().components?.examples as Record<string, { value?: unknown }> | undefined)?.[name]?.value;

describe('Prefer header', () => {
  const cases: [string | undefined, object][] = [
    [undefined, {}],
    ['code=404', { code: 404 }],
    ['code=404, example=SudoUserNotFoundError', { code: 404, exampleKey: 'SudoUserNotFoundError' }],
    ['dynamic=true', { dynamic: true }],
    ['code=abc, nonsense', { invalidCode: 'abc' }],
  ];
  it.each(cases)('%s', (given, want) => {
    expect(parsePrefer(given)).toEqual(want);
  });
  const examples = new Map([
    ['200', ['Jobs']],
    ['404', ['NotFound', 'SudoUserNotFound']],
  ]);
  it('an example alone selects the status that documents it', () => {
    expect(resolvePreference({ exampleKey: 'SudoUserNotFound' }, 'op', examples)).toEqual({
      code: 404,
      exampleKey: 'SudoUserNotFound',
    });
  });
  it('an unknown status or example lists what the operation documents', () => {
    expect(resolvePreference({ code: 418 }, 'op', examples)).toEqual({
      error:
        '400 Bad request - Prefer: code=418 is not documented for op; it documents 200 (Jobs); 404 (NotFound, SudoUserNotFound)',
    });
    expect(resolvePreference({ code: 200, exampleKey: 'NotFound' }, 'op', examples)).toEqual({
      error: expect.stringContaining('example=NotFound is not documented with status 200'),
    });
  });
});

describe('tolerance reports are bounded', () => {
  const report = (count: number, field = 'k') => ({
    operationId: 'op',
    method: 'POST',
    url: '/',
    count,
    tolerated: Array.from({ length: Math.min(count, 20) }, (_, i) => ({
      in: 'body' as const,
      field: `${field}${i}`,
      problem: `body field ${field}${i} is not a documented field (ignored)`,
    })),
  });
  it('sl-violations is ASCII JSON with a count entry past the listed ones', () => {
    expect(JSON.parse(violationsHeader(report(1, 'é')))).toEqual([
      {
        location: ['request', 'body', 'é0'],
        severity: 'Warning',
        code: 'tolerated',
        message: 'body field é0 is not a documented field (ignored)',
      },
    ]);
    expect(violationsHeader(report(1, 'é'))).toMatch(/^[\x20-\x7e]+$/);
    const header = JSON.parse(violationsHeader(report(100_000))) as { message: string }[];
    expect(header).toHaveLength(21);
    expect(header[20]!.message).toBe('and 99980 more');
  });
  it('the log line lists the first ones and counts the rest', () => {
    expect(toleranceLogLine(report(100_000))).toMatch(/^ {2}tolerated: body field k0 .*; and 99980 more$/);
  });
});

const auth = { 'PRIVATE-TOKEN': 'x' };
const json = { ...auth, 'content-type': 'application/json' };
const form = { ...auth, 'content-type': 'application/x-www-form-urlencoded' };

describe('the mock answers as the API would', () => {
  const lines: string[] = [];
  const api = useMock({ log: (line) => lines.push(line) });
  const cases: [string, string, RequestInit, number, unknown][] = [
    ['routes a numeric id', '/projects/42/jobs', { headers: auth }, 200, expect.any(Array)],
    [
      'routes a URL-encoded full path',
      '/projects/my-group%2Fmy-project/jobs',
      { headers: auth },
      200,
      expect.any(Array),
    ],
    ['takes the token as a query parameter', '/projects/42/jobs?private_token=x', {}, 200, expect.any(Array)],
    [
      'takes the session cookie',
      '/projects/42/jobs',
      { headers: { Cookie: 'foo=%; _service_session=abc' } },
      200,
      expect.any(Array),
    ],
    [
      'validates bracketed scope[] values',
      '/projects/42/jobs?scope[]=bogus',
      { headers: auth },
      400,
      { message: expect.stringContaining('scope[]'), errors: [expect.objectContaining({ in: 'query' })] },
    ],
    [
      'enforces per_page ≤ 100',
      '/projects/42/jobs?per_page=101',
      { headers: auth },
      400,
      {
        message: '400 Bad request - query parameter per_page must be <= 100',
        errors: [{ in: 'query', field: 'per_page', problem: 'query parameter per_page must be <= 100' }],
      },
    ],
    [
      'validates an empty per_page as given',
      '/projects/42/jobs?per_page=',
      { headers: auth },
      400,
      {
        message: '400 Bad request - query parameter per_page must be integer',
        errors: [{ in: 'query', field: 'per_page', problem: 'query parameter per_page must be integer' }],
      },
    ],
    [
      'validates an empty ?sudo= as given',
      '/projects/42/jobs?sudo=',
      { headers: auth },
      400,
      {
        message: expect.stringContaining('query parameter sudo'),
        errors: [expect.objectContaining({ field: 'sudo' })],
      },
    ],
    [
      'validates an empty Sudo header as given',
      '/projects/42/jobs',
      { headers: { ...auth, Sudo: '' } },
      400,
      { message: expect.stringContaining('header sudo'), errors: [expect.objectContaining({ field: 'sudo' })] },
    ],
    ['answers 401 without credentials', '/projects/42/jobs', {}, 401, { message: '401 Unauthorized' }],
    [
      'refuses a job token where the API does not accept one',
      '/projects/42/jobs',
      { headers: { 'JOB-TOKEN': 'x' } },
      401,
      { message: '401 Unauthorized' },
    ],
    [
      'answers 400 for a bad escape in the path, even without credentials',
      '/projects/%FF/jobs',
      {},
      400,
      { message: expect.stringContaining('malformed percent-escape'), errors: expect.any(Array) },
    ],
    [
      'serves a documented error on request',
      '/projects/42/jobs/7',
      { headers: { ...auth, Prefer: 'code=404, example=SudoUserNotFoundError' } },
      404,
      example('SudoUserNotFoundError'),
    ],
    [
      'lists the examples for an unknown Prefer example',
      '/projects/42/jobs/7',
      { headers: { ...auth, Prefer: 'code=403, example=SudoScopeMissing' } },
      400,
      {
        message: expect.stringMatching(
          /example=SudoScopeMissing is not documented with status 403 .*SudoNotAdminError/,
        ),
        examples: expect.objectContaining({ 403: expect.any(Array) }),
      },
    ],
    [
      'lists the statuses for an unknown Prefer code',
      '/projects/42/jobs',
      { headers: { ...auth, Prefer: 'code=418' } },
      400,
      {
        message: expect.stringMatching(/code=418 is not documented .* 200 \(ProjectJobs\)/),
        examples: expect.any(Object),
      },
    ],
    [
      'answers 400 for a Prefer code that is not a status',
      '/projects/42/jobs/7',
      { headers: { ...auth, Prefer: 'code=abc' } },
      400,
      { message: expect.stringMatching(/code=abc is not a status/), examples: expect.any(Object) },
    ],
    [
      'generates a body with Prefer: dynamic=true',
      '/projects/42/jobs',
      { headers: { ...auth, Prefer: 'dynamic=true' } },
      200,
      expect.any(Array),
    ],
    [
      'answers 404 for an unknown path',
      '/nothing/here',
      { headers: auth },
      404,
      { message: expect.stringContaining('404') },
    ],
    [
      'answers validation errors of merge with 400, not its documented 422',
      '/projects/42/merge_requests/2/merge',
      { method: 'PUT', headers: json, body: '{"squash":"yes"}' },
      400,
      {
        message: '400 Bad request - body field squash must be boolean',
        errors: [{ in: 'body', field: 'squash', problem: 'body field squash must be boolean' }],
      },
    ],
    [
      'answers 415 for a body of another media type',
      '/projects/42/merge_requests',
      { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: 'title=x' },
      415,
      { message: expect.stringContaining('415') },
    ],
    [
      'answers 400 for malformed multipart',
      '/user/avatar',
      { method: 'PUT', headers: { ...auth, 'content-type': 'multipart/form-data' }, body: 'xx' },
      400,
      { message: expect.stringContaining('multipart'), errors: expect.any(Array) },
    ],
  ];
  it.each(cases)('%s', async (_title, path, init, status, body) => {
    const response = await fetch(`${api()}${path}`, init);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual(body);
  });

  it.each([
    ['/projects/42/repository/files/README.md/raw', 'RawFileContent'],
    ['/projects/42/repository/blobs/abc/raw', 'RawBlob'],
  ])('serves the raw bytes of %s with a real media type, not the documented range */*', async (path, name) => {
    const response = await fetch(`${api()}${path}`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(await response.text()).toBe(example(name));
  });

  const downloads = [
    '/projects/42/repository/files/README.md/raw?ref=main',
    '/projects/42/repository/archive.zip',
    '/projects/42/repository/blobs/abc/raw',
  ];
  it.each(
    downloads.flatMap((path) => ['application/json', 'text/html', 'image/png;q=0.9'].map((accept) => [path, accept])),
  )('ignores Accept as the Service does: %s with Accept %s is served', async (path, accept) => {
    const response = await fetch(`${api()}${path}`, { headers: { ...auth, accept } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).not.toMatch(/json/);
  });

  it('answers 405 with Allow for an undocumented method', async () => {
    const response = await fetch(`${api()}/projects/42/jobs`, { method: 'DELETE', headers: auth });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await response.json()).toEqual({ message: expect.stringContaining('405') });
  });

  it('pages a list as the Service does: the example is the whole list, at the URL the client used', async () => {
    const whole = (await (await fetch(`${api()}/projects/42/jobs?scope[]=failed`, { headers: auth })).json()) as {
      id: number;
    }[];
    expect(whole.length).toBeGreaterThan(1);
    const at = (page: number) => `${api()}/projects/42/jobs?per_page=1&scope[]=failed&page=${page}`;
    const last = whole.length;
    const cases = [
      {
        page: 1,
        prev: '',
        next: '2',
        links: `<${at(2)}>; rel="next", <${at(1)}>; rel="first", <${at(last)}>; rel="last"`,
      },
      {
        page: last,
        prev: String(last - 1),
        next: '',
        links: `<${at(last - 1)}>; rel="prev", <${at(1)}>; rel="first", <${at(last)}>; rel="last"`,
      },
    ];
    for (const { page, prev, next, links } of cases) {
      const response = await fetch(at(page), { headers: auth });
      expect(response.headers.get('link')).toBe(links);
      expect(
        Object.fromEntries(
          ['x-page', 'x-per-page', 'x-total', 'x-total-pages', 'x-next-page', 'x-prev-page'].map((h) => [
            h,
            response.headers.get(h),
          ]),
        ),
      ).toEqual({
        'x-page': String(page),
        'x-per-page': '1',
        'x-total': String(last),
        'x-total-pages': String(last),
        'x-next-page': next,
        'x-prev-page': prev,
      });
      expect(((await response.json()) as { id: number }[]).map((job) => job.id)).toEqual([whole[page - 1]!.id]);
    }
  });

  it.each([
    ['', { 'x-page': '1', 'x-per-page': '20', 'x-total-pages': '1', 'x-next-page': '' }],
    ['?page=9&per_page=100', { 'x-page': '9', 'x-per-page': '100', 'x-total-pages': '1', 'x-next-page': '' }],
  ])('answers the whole example as one page, or an empty page past the last: %s', async (query, expected) => {
    const response = await fetch(`${api()}/projects/42/jobs${query}`, { headers: auth });
    expect(response.status).toBe(200);
    for (const [name, value] of Object.entries(expected)) expect(response.headers.get(name), name).toBe(value);
    const items = (await response.json()) as unknown[];
    expect(items.length).toBe(query ? 0 : Number(response.headers.get('x-total')));
  });

  it('describes a keyset page as the only one, without totals', async () => {
    const response = await fetch(`${api()}/projects/42/jobs?pagination=keyset&per_page=5`, { headers: auth });
    const self = `${api()}/projects/42/jobs?pagination=keyset&per_page=5`;
    expect(response.headers.get('link')).toBe(`<${self}>; rel="first", <${self}>; rel="last"`);
    expect(response.headers.get('x-next-page')).toBe('');
    expect(response.headers.get('x-total')).toBeNull();
  });

  it('puts example URLs on its own address', async () => {
    const text = await (await fetch(`${api()}/projects/42/jobs`, { headers: auth })).text();
    expect(text).not.toContain('https://service.example');
    expect(text).toContain(`"web_url":"${api().replace(/\/api\/v4$/, '')}/`);
  });

  it('sends Retry-After with 429 and 503', async () => {
    for (const code of [429, 503]) {
      const response = await fetch(`${api()}/projects/42/jobs`, { headers: { ...auth, Prefer: `code=${code}` } });
      expect(response.status).toBe(code);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('answers a CORS preflight and marks responses for browsers', async () => {
    const preflight = await fetch(`${api()}/projects/42/merge_requests`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'private-token, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('private-token, content-type');
    const response = await fetch(`${api()}/projects/42/jobs`, {
      headers: { ...auth, Origin: 'http://localhost:5173' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('Link');
  });

  it('logs one line per request with the example served', async () => {
    lines.length = 0;
    await fetch(`${api()}/projects/42/merge_requests/2/merge`, {
      method: 'PUT',
      headers: { ...json, Prefer: 'code=409' },
      body: '{}',
    });
    expect(lines).toEqual([
      expect.stringMatching(
        /^PUT \/api\/v4\/projects\/42\/merge_requests\/2\/merge → 409 merge-requests\/merge MergeShaMismatch \d+ ms$/,
      ),
    ]);
  });

  it('serves the API only under /api/v4', async () => {
    const response = await fetch(`${api().replace(/\/api\/v4$/, '')}/projects/42/jobs`, { headers: auth });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: '404 Not Found - the API is served under /api/v4' });
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await fetch(`${api()}/projects/42/merge_requests`, {
      method: 'POST',
      headers: json,
      body: '{oops',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      message: expect.stringMatching(/^400 Bad request - body is not valid JSON/),
    });
  });

  /**
   * Sends only the headers of a request that announces a body larger than the server ever reads and discards before a
   * refusal (`DISCARD_BYTES`, `DISCARD_FACTOR` times the 16 MiB JSON limit), and waits for the answer.
   */
  function answerBeforeBody(path: string, headers: Record<string, string>): Promise<number> {
    const url = new URL(`${api()}${path}`);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { ...headers, 'content-length': String(100 * 1024 * 1024) },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      // No answer without the body would leave this pending: the test's timeout is the guard.
      req.on('error', reject);
      req.flushHeaders();
    });
  }

  it('refuses before reading the body: no credentials, another media type, a body above the limit', async () => {
    expect(await answerBeforeBody('/projects/42/merge_requests', { 'content-type': 'application/json' })).toBe(401);
    expect(
      await answerBeforeBody('/projects/42/merge_requests', { ...auth, 'content-type': 'application/octet-stream' }),
    ).toBe(415);
    expect(await answerBeforeBody('/projects/42/merge_requests', json)).toBe(413);
  });

  it('accepts a single value for an array query parameter', async () => {
    const response = await fetch(`${api()}/projects/42/merge_requests?approved_by_ids[]=3`, { headers: auth });
    expect(response.status).toBe(200);
  });

  it('refuses ids under approved_by_ids, which takes only None and Any (the Service: 400)', async () => {
    const response = await fetch(`${api()}/projects/42/merge_requests?approved_by_ids=3`, { headers: auth });
    expect(response.status).toBe(400);
  });
});

type Tolerance = [title: string, path: string, init: RequestInit, tolerated: RegExp[]];

/** Forms real clients send that the Service accepts: tolerated and reported by default, refused in strict mode. */
const tolerances: Tolerance[] = [
  [
    'an array parameter without brackets, split at commas',
    '/projects/42/members?user_ids=3,4',
    { headers: auth },
    [/^query parameter user_ids "3,4" read as user_ids\[\]=3&user_ids\[\]=4$/],
  ],
  [
    'a name repeated without brackets (the last value is read)',
    '/groups?search=a&search=b',
    { headers: auth },
    [/^query parameter search is sent 2 times: the last value is read$/],
  ],
  [
    'a boolean as True in the query',
    '/groups?all_available=True',
    { headers: auth },
    [/^query parameter all_available "True" read as true$/],
  ],
  [
    'a boolean as 1 in the query',
    '/projects/42/repository/tree?recursive=1',
    { headers: auth },
    [/^query parameter recursive "1" read as true$/],
  ],
  [
    'a boolean as a JSON string',
    '/projects/42/merge_requests/2/merge',
    { method: 'PUT', headers: json, body: '{"squash":"False"}' },
    [/^body field squash "False" read as false$/],
  ],
  [
    'an integer as a JSON string',
    '/projects/42/merge_requests',
    {
      method: 'POST',
      headers: json,
      body: '{"source_branch":"a","target_branch":"main","title":"t","milestone_id":"5"}',
    },
    [/^body field milestone_id "5" read as a number$/],
  ],
  [
    'an unknown JSON field',
    '/projects/42/merge_requests',
    { method: 'POST', headers: json, body: '{"source_branch":"a","target_branch":"main","title":"t","colour":"red"}' },
    [/^body field colour is not a documented field \(ignored\)$/],
  ],
  [
    'write parameters in the query string',
    '/projects/42/merge_requests?source_branch=a&target_branch=main&title=t',
    { method: 'POST', headers: auth },
    [
      /^query parameter source_branch read as a body field$/,
      /^query parameter target_branch read as a body field$/,
      /^query parameter title read as a body field$/,
    ],
  ],
  [
    'a form-encoded body',
    '/projects/42/merge_requests',
    { method: 'POST', headers: form, body: 'source_branch=a&target_branch=main&title=t&squash=True&assignee_ids[]=1' },
    [
      /^body sent as application\/x-www-form-urlencoded; the operation documents application\/json$/,
      /^body field squash "True" read as true$/,
    ],
  ],
  [
    'the query merged under the body',
    '/projects/42/merge_requests?title=q',
    { method: 'POST', headers: json, body: '{"source_branch":"a","target_branch":"main","title":"t"}' },
    [/^query parameter title read as a body field$/],
  ],
  [
    'a path parameter repeated in the body',
    '/projects/42/repository/files/app%2Fa.rb',
    {
      method: 'PUT',
      headers: json,
      body: '{"file_path":"app/a.rb","branch":"main","content":"x","commit_message":"m"}',
    },
    [/^body field file_path repeats the path parameter \(ignored: the path wins\)$/],
  ],
  [
    'a path parameter repeated in the body with another value',
    '/projects/42/repository/files/app%2Fa.rb',
    {
      method: 'PUT',
      headers: json,
      body: '{"file_path":"other.rb","branch":"main","content":"x","commit_message":"m"}',
    },
    [/^body field file_path repeats the path parameter \(ignored: the path wins\)$/],
  ],
  [
    'an unknown query parameter',
    '/projects/42/jobs?colour=red',
    { headers: auth },
    [/^query parameter colour is not a documented parameter \(ignored\)$/],
  ],
  [
    'a multipart field for a boolean as False',
    '/projects/import',
    { method: 'POST', headers: auth, body: multipart({ path: 'p', overwrite: 'False', file: new Blob(['x']) }) },
    [/^body field overwrite "False" read as false$/],
  ],
];

function multipart(fields: Record<string, string | Blob>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

describe('default mode tolerates what the Service accepts, and says so', () => {
  const lines: string[] = [];
  const api = useMock({ log: (line) => lines.push(line) });
  it.each(tolerances)('%s', async (_title, path, init, expected) => {
    lines.length = 0;
    const response = await fetch(`${api()}${path}`, init);
    const text = await response.text();
    expect(response.status, text).toBeLessThan(300);
    const violations = JSON.parse(response.headers.get('sl-violations') ?? '[]') as {
      message: string;
      severity: string;
    }[];
    for (const pattern of expected)
      expect(violations.map((v) => v.message)).toContainEqual(expect.stringMatching(pattern));
    expect(violations.every((v) => v.severity === 'Warning')).toBe(true);
    expect(lines[1]).toMatch(/^ {2}tolerated: /);
  });

  it('reports 50,000 unknown fields in a bounded header', async () => {
    const body = JSON.stringify({
      source_branch: 'a',
      target_branch: 'main',
      title: 't',
      ...Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])),
    });
    const response = await fetch(`${api()}/projects/42/merge_requests`, { method: 'POST', headers: json, body });
    expect(response.status).toBe(201);
    const header = response.headers.get('sl-violations')!;
    expect(header.length).toBeLessThan(5000);
    expect(JSON.parse(header)).toHaveLength(21);
  });
});

describe('strict mode refuses every tolerance with 400 naming the field', () => {
  const api = useMock({ strict: true });
  it.each(tolerances)('%s', async (_title, path, init, expected) => {
    const response = await fetch(`${api()}${path}`, init);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { message: string; errors: { field: string; problem: string }[] };
    for (const pattern of expected)
      expect(body.errors.map((e) => e.problem)).toContainEqual(expect.stringMatching(pattern));
    expect(body.message).toMatch(/^400 Bad request - /);
  });

  it('accepts the exact form', async () => {
    const response = await fetch(`${api()}/projects/42/merge_requests`, {
      method: 'POST',
      headers: json,
      body: '{"source_branch":"a","target_branch":"main","title":"t","squash":true}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('sl-violations')).toBeNull();
  });
});

/** Whether anything accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('the command', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('stops serving and exits on %s', async (signal) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'packages', 'mock', 'dist', 'cli.js'), '--port', '0', '--quiet'], // the command as installed runs it
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const { url: listeningUrl, exited } = printedUrl(child, API_URL, 'the mock');
    const url = await listeningUrl;
    expect((await fetch(`${url}/projects/42/jobs`, { headers: auth })).status).toBe(200);
    const port = Number(new URL(url).port);
    expect(await listening(port)).toBe(true);
    child.kill(signal);
    expect(await exited).toBe(0);
    expect(await listening(port), 'nothing holds the port after the command stopped').toBe(false);
  });
});
