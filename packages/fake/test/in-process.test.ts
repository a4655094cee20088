/**
 * The fake without a port: `fake.fetch` answers in this process exactly as the fake answers over HTTP (a differential
 * run of the same requests against two fakes on the same data set, one listening, one not), the typed client and
 * openapi-fetch take it as their fetch, and the transport carries bodies, statuses and multi-value headers through.
 */
import Fastify from 'fastify';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApi, type paths } from '@service-api/client';
import { createFake, startFake, type Fake, type RunningFake } from '../src/index.ts';
import { inProcessFetch } from '../src/in-process.ts';

/** Headers that depend on the connection or the moment, not on the answer. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

async function answerOf(response: Response): Promise<Answer> {
  const headers = [...response.headers].filter(([name]) => !CONNECTION_HEADERS.has(name));
  const body = Buffer.from(await response.arrayBuffer()).toString('base64');
  return { status: response.status, headers, body };
}

const dev = { 'PRIVATE-TOKEN': 'developer-token' };
const maintainer = { 'PRIVATE-TOKEN': 'maintainer-token' };
const boundary = 'in-process-boundary';

/** Requests in order on one data set: reads, writes, refusals and hostile forms. */
const REQUESTS: [string, string, RequestInit][] = [
  ['a paginated list', '/api/v4/projects/1/jobs?per_page=2&page=2&scope[]=success&scope[]=failed', { headers: dev }],
  ['anonymous', '/api/v4/projects/1/jobs', {}],
  ['a wrong token', '/api/v4/projects/1/jobs', { headers: { 'PRIVATE-TOKEN': 'nope' } }],
  ['an unknown path', '/api/v4/nothing/here', { headers: dev }],
  ['another method', '/api/v4/projects/1/jobs', { method: 'DELETE', headers: dev }],
  ['a renamed project', '/api/v4/projects/my-group%2Fold-project/jobs', { headers: dev, redirect: 'manual' }],
  [
    'a JSON write',
    '/api/v4/projects/1/merge_requests',
    {
      method: 'POST',
      headers: { ...dev, 'content-type': 'application/json' },
      body: JSON.stringify({ source_branch: 'feature/login', target_branch: 'main', title: 'In process' }),
    },
  ],
  [
    'the same write again (409)',
    '/api/v4/projects/1/merge_requests',
    {
      method: 'POST',
      headers: { ...dev, 'content-type': 'application/json' },
      body: JSON.stringify({ source_branch: 'feature/login', target_branch: 'main', title: 'In process' }),
    },
  ],
  [
    'a list filter and a tolerated boolean',
    '/api/v4/projects/1/merge_requests?state=opened&with_labels_details=True',
    { method: 'GET', headers: maintainer },
  ],
  [
    'a multipart body',
    '/api/v4/projects/1/repository/files/docs%2Fin-process.txt',
    {
      method: 'POST',
      headers: { ...maintainer, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="branch"\r\n\r\nmain\r\n--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n\r\nhello\r\n--${boundary}\r\nContent-Disposition: form-data; name="commit_message"\r\n\r\nadd\r\n--${boundary}--\r\n`,
    },
  ],
  ['a raw file', '/api/v4/projects/1/repository/files/docs%2Fin-process.txt/raw?ref=main', { headers: dev }],
  ['HEAD of a file', '/api/v4/projects/1/repository/files/README.md?ref=main', { method: 'HEAD', headers: dev }],
  ['an archive (binary)', '/api/v4/projects/1/repository/archive.zip?sha=main', { headers: dev }],
  [
    'malformed JSON',
    '/api/v4/projects/1/merge_requests',
    { method: 'POST', headers: { ...dev, 'content-type': 'application/json' }, body: '{"title":' },
  ],
  [
    'prototype poisoning',
    '/api/v4/projects/1/merge_requests',
    { method: 'POST', headers: { ...dev, 'content-type': 'application/json' }, body: '{"__proto__":{"x":1}}' },
  ],
  ['a header named __proto__', '/api/v4/projects/1/jobs?per_page=1', { headers: { ...dev, ['__proto__']: 'x' } }],
  ['a malformed escape', '/api/v4/projects/1/jobs?scope[]=%zz', { headers: dev }],
  [
    'a media type not read',
    '/api/v4/projects/1/merge_requests',
    { method: 'POST', headers: { ...dev, 'content-type': 'text/plain' }, body: 'x' },
  ],
  [
    'an empty body is no body',
    '/api/v4/projects/1/merge_requests',
    { method: 'POST', headers: { ...dev, 'content-type': 'application/json' }, body: '' },
  ],
  [
    'a CORS preflight',
    '/api/v4/projects/1/merge_requests/1/merge',
    { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'PUT' } },
  ],
  ['a CORS answer', '/api/v4/projects/1/jobs', { headers: { ...dev, Origin: 'http://localhost:5173' } }],
];

describe('the fake in process answers as over HTTP', () => {
  let overHttp: RunningFake;
  let inProcess: Fake;
  beforeAll(async () => {
    [overHttp, inProcess] = await Promise.all([
      startFake({ validateResponses: true, cors: true }),
      createFake({ validateResponses: true, cors: true }),
    ]);
  });
  afterAll(async () => {
    await overHttp?.close();
    await inProcess?.app.close();
  });

  it('the same answers, request by request, at the same URL', async () => {
    const differences: string[] = [];
    for (const [title, path, init] of REQUESTS) {
      const url = `${overHttp.url}${path}`;
      const [viaHttp, viaFetch] = [
        await answerOf(await fetch(url, init)),
        await answerOf(await inProcess.fetch(url, init)),
      ];
      expect(viaFetch, title).toEqual(viaHttp);
      if (JSON.stringify(viaFetch) !== JSON.stringify(viaHttp)) differences.push(title);
    }
    expect(differences).toEqual([]);
    // The run reached what it was meant to: refusals, a redirect, a write and its conflict, a preflight.
    const statuses = [];
    for (const [, path, init] of REQUESTS.slice(0, 8))
      statuses.push((await inProcess.fetch(`${overHttp.url}${path}`, init)).status);
    expect(statuses).toEqual([200, 401, 401, 404, 405, 301, 409, 409]);
  });

  it('puts the URL the caller used, https included, in Link, Location and web_url', async () => {
    const response = await inProcess.fetch('https://service.example/api/v4/projects/1/jobs?per_page=1', {
      headers: dev,
    });
    expect(response.headers.get('link')).toContain('<https://service.example/api/v4/projects/1/jobs?');
    expect(response.url).toBe('https://service.example/api/v4/projects/1/jobs?per_page=1');
    const moved = await inProcess.fetch('https://service.example/api/v4/projects/my-group%2Fold-project/jobs', {
      headers: dev,
      redirect: 'manual',
    });
    expect(moved.headers.get('location')).toMatch(/^https:\/\/service\.example\/api\/v4\/projects\/\d+\/jobs$/);
  });

  it('is the typed client’s fetch: pages .all(), follows a 301, narrows errors', async () => {
    const api = createServiceApi({
      host: 'https://service.example',
      fetch: inProcess.fetch,
      auth: { privateToken: 'developer-token' },
    });
    const direct = await api.jobs.listProjectJobs({ path: { id: 1 }, query: { per_page: 100 } });
    const all = await api.jobs.listProjectJobs.all({ path: { id: 1 }, query: { per_page: 2 } });
    expect(all.map((job) => job.id)).toEqual(direct.map((job) => job.id));
    expect((await api.jobs.listProjectJobs({ path: { id: 'my-group/old-project' } })).length).toBeGreaterThan(0);
    await expect(api.jobs.getProjectJob({ path: { id: 1, job_id: 999_999 } })).rejects.toMatchObject({
      kind: 'http',
      status: 404,
    });
  });

  it('is openapi-fetch’s fetch', async () => {
    const client = createClient<paths>({
      baseUrl: 'https://service.example/api/v4',
      fetch: inProcess.fetch,
      headers: dev,
    });
    const { data, response } = await client.GET('/projects/{id}/jobs', {
      params: { path: { id: 1 }, query: { per_page: 1 } },
    });
    expect(response.status).toBe(200);
    expect(data).toHaveLength(1);
  });

  it('rejects as fetch does: an aborted signal, a URL of another scheme', async () => {
    await expect(inProcess.fetch('http://x/api/v4/projects', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    await expect(inProcess.fetch('ftp://x/api/v4/projects')).rejects.toThrow(TypeError);
  });
});

describe('the in-process transport', () => {
  const app = Fastify();
  app.get('/multi', async (_request, reply) =>
    reply.header('set-cookie', ['a=1', 'b=2']).header('x-seen', _request.headers['x-in']).send('ok'),
  );
  app.get('/empty', async (_request, reply) => reply.code(204).send());
  app.post('/echo', async (request, reply) => reply.type('application/octet-stream').send(request.body));
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  const fetchIt = inProcessFetch(app);
  afterAll(() => app.close());

  it('carries multi-value headers both ways', async () => {
    const headers = new Headers([
      ['x-in', 'one'],
      ['x-in', 'two'],
    ]);
    const response = await fetchIt('http://local/multi', { headers });
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(response.headers.get('x-seen')).toBe('one, two');
  });

  it('answers with a body that reads as a fetch Response’s: once, by any method, or as a stream or a clone', async () => {
    const bodyOf = async (response: Response) => Buffer.from(await response.arrayBuffer()).toString();
    const reads: [string, (response: Response) => Promise<unknown>][] = [
      ['arrayBuffer', bodyOf],
      ['text', (response) => response.text()],
      ['json', (response) => response.json().catch((error: Error) => error.name)],
      ['blob', async (response) => [response.headers.get('content-type'), await (await response.blob()).text()]],
      ['stream', (response) => new Response(response.body).text()],
      ['clone', async (response) => [await bodyOf(response.clone()), await bodyOf(response)]],
    ];
    for (const [how, read] of reads) {
      const response = await fetchIt('http://local/multi', { headers: { 'x-in': 'a' } });
      expect(response.bodyUsed, how).toBe(false);
      expect(await read(response), how).toEqual(
        how === 'blob'
          ? ['text/plain; charset=utf-8', 'ok']
          : how === 'json'
            ? 'SyntaxError'
            : how === 'clone'
              ? ['ok', 'ok']
              : 'ok',
      );
      expect(response.bodyUsed, how).toBe(true);
      await expect(response.text(), how).rejects.toThrow(TypeError);
      await expect(response.blob(), how).rejects.toThrow(TypeError);
      expect(() => response.clone(), how).toThrow(TypeError);
      expect(response.body?.locked, how).toBe(true);
      expect(response.url, how).toBe('http://local/multi');
    }
  });

  it('carries a null-body status and a streamed request body byte for byte', async () => {
    expect((await fetchIt('http://local/empty')).status).toBe(204);
    const bytes = Buffer.alloc(300_000, 'in-process');
    const stream = new Blob([bytes]).stream();
    const response = await fetchIt('http://local/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
