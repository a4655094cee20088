/** The client runtime (packages/client/src/runtime.ts), table-driven: given → want. */
import { describe, expect, it } from 'vitest';
import {
  fillPath,
  nextLink,
  readHeaders,
  retryDelay,
  serializeQuery,
  ServiceApiError,
  toFormData,
  Transport,
  type OperationDescriptor,
} from '../src/runtime.ts';

const credentialHeaders = {
  privateToken: { header: 'PRIVATE-TOKEN', prefix: '' },
  oauthToken: { header: 'Authorization', prefix: 'Bearer ' },
  jobToken: { header: 'JOB-TOKEN', prefix: '' },
};
const NOW = Date.parse('2025-03-11T10:00:00Z');

describe('retryDelay', () => {
  const cases: [string, string | null, number, number][] = [
    ['seconds', '2', 1, 2000],
    ['zero seconds', '0', 1, 0],
    ['an HTTP-date', 'Tue, 11 Mar 2025 10:00:05 GMT', 1, 5000],
    ['an HTTP-date in the past', 'Tue, 11 Mar 2025 09:00:00 GMT', 1, 0],
    ['seconds above the cap', '3600', 1, 30_000],
    ['no header, first retry', null, 1, 500],
    ['no header, third retry', null, 3, 2000],
    ['garbage', 'soon', 2, 1000],
  ];
  it.each(cases)('%s', (_title, header, retry, want) => {
    expect(retryDelay(header, retry, { random: () => 1 }, NOW)).toBe(want);
  });
  it('honours maxDelayMs and baseDelayMs', () => {
    expect(retryDelay('10', 1, { maxDelayMs: 100 }, NOW)).toBe(100);
    expect(retryDelay(null, 2, { baseDelayMs: 10, random: () => 1 }, NOW)).toBe(20);
  });
  const jitter: [string, string | null, number, number, number][] = [
    ['no header, random 0: half the backoff', null, 2, 0, 500],
    ['no header, random 0.5: three quarters', null, 2, 0.5, 750],
    ['capped backoff jitters below the cap', null, 10, 0, 15_000],
    ['Retry-After is honoured as sent, without jitter', '3', 1, 0, 3000],
  ];
  it.each(jitter)('jitter: %s', (_title, header, retry, random, want) => {
    expect(retryDelay(header, retry, { random: () => random }, NOW)).toBe(want);
  });
});

describe('nextLink', () => {
  const cases: [string, string | null, string | undefined][] = [
    ['none', null, undefined],
    ['next only', '<https://h/api/v4/p?page=2>; rel="next"', 'https://h/api/v4/p?page=2'],
    [
      'among others',
      '<https://h/x?page=1>; rel="first", <https://h/x?cursor=ab%2C>; rel="next", <https://h/x?page=9>; rel="last"',
      'https://h/x?cursor=ab%2C',
    ],
    ['unquoted rel', '<https://h/x?page=3>; rel=next', 'https://h/x?page=3'],
    ['several rels', '<https://h/x?page=3>; rel="prev next"', 'https://h/x?page=3'],
    ['no next', '<https://h/x?page=1>; rel="prev"', undefined],
    ['next in the URL only', '<https://h/next>; rel="last"', undefined],
  ];
  it.each(cases)('%s', (_title, header, want) => {
    expect(nextLink(header)).toBe(want);
  });
});

describe('serializeQuery and fillPath', () => {
  const cases: [string, object, Record<string, 'deep' | 'csv'>, string][] = [
    ['bracketed array names repeat', { 'scope[]': ['failed', 'success'] }, {}, 'scope[]=failed&scope[]=success'],
    ['deepObject', { not: { labels: 'bug', author_id: 3 } }, { not: 'deep' }, 'not[labels]=bug&not[author_id]=3'],
    ['a literal bracketed name', { 'range[start]': 1 }, {}, 'range[start]=1'],
    ['comma separated', { labels: ['a', 'b c'] }, { labels: 'csv' }, 'labels=a%2Cb%20c'],
    ['undefined and null are left out', { a: undefined, b: null, c: false }, {}, 'c=false'],
    [
      'dates as ISO strings',
      { updated_after: new Date('2025-01-01T00:00:00Z') },
      {},
      'updated_after=2025-01-01T00%3A00%3A00.000Z',
    ],
  ];
  it.each(cases)('query: %s', (_title, query, styles, want) => {
    expect(serializeQuery(query, styles)).toBe(want);
  });
  it('fills path templates with URL-encoded ids and file paths', () => {
    expect(
      fillPath('/projects/{id}/repository/files/{file_path}/raw', { id: 'group/project', file_path: 'src/a b.ts' }),
    ).toBe('/projects/group%2Fproject/repository/files/src%2Fa%20b.ts/raw');
    expect(() => fillPath('/projects/{id}', {})).toThrow('Missing path parameter id');
  });
});

describe('files and headers', () => {
  it('builds multipart bodies: files as they are, arrays repeated, hashes as name[key] fields', async () => {
    const form = toFormData({
      file: new File(['x'], 'a.tar.gz'),
      path: 'p',
      tags: ['a', 'b'],
      override_params: { name: 'n', visibility: 'private' },
      skip: undefined,
    });
    expect((form.get('file') as File).name).toBe('a.tar.gz');
    expect(form.getAll('tags')).toEqual(['a', 'b']);
    expect(form.get('override_params[name]')).toBe('n');
    expect(form.get('override_params[visibility]')).toBe('private');
    expect(form.has('override_params')).toBe(false);
    expect(form.has('skip')).toBe(false);
  });
  it('reads documented headers with their types', () => {
    const headers = new Headers({ 'X-Service-Size': '12', 'X-Service-Executable': 'true', 'X-Service-Ref': 'main' });
    expect(
      readHeaders(headers, {
        'X-Service-Size': 'number',
        'X-Service-Executable': 'boolean',
        'X-Service-Ref': 'string',
        'X-Service-Missing': 'string',
      }),
    ).toEqual({
      'X-Service-Size': 12,
      'X-Service-Executable': true,
      'X-Service-Ref': 'main',
      'X-Service-Missing': undefined,
    });
  });
});

/** A fake fetch answering from a script, recording each request. */
function scripted(responses: (() => Response)[]) {
  const calls: { url: string; method: string; headers: Headers; body: unknown; redirect?: string }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({
      url,
      method: init.method!,
      headers: new Headers(init.headers),
      body: init.body,
      redirect: init.redirect,
    });
    const next = responses.shift();
    if (!next) throw new Error('no more responses');
    return next();
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
/** A JSON answer of exactly this text. */
const raw = (status: number, text: string) =>
  new Response(text, { status, headers: { 'content-type': 'application/json' } });
const op: OperationDescriptor = {
  id: 'merge-requests/merge',
  method: 'PUT',
  path: '/projects/{id}/merge_requests/{iid}/merge',
  response: 'json',
  body: 'json',
};

describe('Transport', () => {
  const retryCases: [string, (() => Response)[], number, number[], number][] = [
    ['429 then success', [json(429, {}, { 'retry-after': '1' }), json(200, { ok: 1 })], 200, [1000], 2],
    [
      '503 twice then success',
      [json(503, {}), json(503, {}, { 'retry-after': '2' }), json(200, {})],
      200,
      [500, 2000],
      3,
    ],
    [
      '429 three times: gives up after 3 attempts',
      [json(429, {}), json(429, {}), json(429, { message: 'slow down' })],
      429,
      [500, 1000],
      3,
    ],
    ['500 is not retried', [json(500, {}), json(200, {})], 500, [], 1],
  ];
  it.each(retryCases)('retries: %s', async (_title, responses, wantStatus, wantSleeps, wantCalls) => {
    const { fetch, calls } = scripted(responses);
    const sleeps: number[] = [];
    const transport = new Transport(
      { baseUrl: 'https://h/api/v4', fetch, retry: { sleep: async (ms) => void sleeps.push(ms), random: () => 1 } },
      credentialHeaders,
    );
    const result = await transport.call(op, { path: { id: 1, iid: 2 }, body: { squash: true } }).then(
      () => 200,
      (e: ServiceApiError) => e.status,
    );
    expect(result).toBe(wantStatus);
    expect(sleeps).toEqual(wantSleeps);
    expect(calls.length).toBe(wantCalls);
    expect(calls.every((c) => c.body === '{"squash":true}' && c.method === 'PUT')).toBe(true);
  });

  it('follows a 301 by repeating the same method, headers and body at the new URL', async () => {
    const { fetch, calls } = scripted([
      () => new Response(null, { status: 301, headers: { location: '/api/v4/projects/42/merge_requests/2/merge' } }),
      json(200, { iid: 2 }),
    ]);
    const transport = new Transport(
      { baseUrl: 'https://h/api/v4', fetch, auth: { privateToken: 't' } },
      credentialHeaders,
    );
    expect(await transport.call(op, { path: { id: 'old/path', iid: 2 }, body: { squash: true } })).toEqual({ iid: 2 });
    expect(calls.map((c) => c.url)).toEqual([
      'https://h/api/v4/projects/old%2Fpath/merge_requests/2/merge',
      'https://h/api/v4/projects/42/merge_requests/2/merge',
    ]);
    expect(calls[1]).toMatchObject({ method: 'PUT', body: '{"squash":true}', redirect: 'manual' });
    expect(calls[1]!.headers.get('PRIVATE-TOKEN')).toBe('t');
  });

  it('refuses to follow a redirect to another origin (the token would leak)', async () => {
    const { fetch } = scripted([
      () => new Response(null, { status: 301, headers: { location: 'https://evil.example/x' } }),
    ]);
    const transport = new Transport({ baseUrl: 'https://h/api/v4', fetch }, credentialHeaders);
    await expect(transport.call(op, { path: { id: 1, iid: 2 } })).rejects.toMatchObject({
      operationId: 'merge-requests/merge',
      kind: 'off-origin',
      status: 0,
      target: 'https://evil.example/x',
      message: 'merge-requests/merge: refused to follow a redirect off the API origin to https://evil.example/x',
    });
  });

  it('stops after maxRedirects', async () => {
    const loop = () => new Response(null, { status: 301, headers: { location: '/api/v4/loop' } });
    const { fetch, calls } = scripted([loop, loop, loop]);
    const transport = new Transport({ baseUrl: 'https://h/api/v4', fetch, maxRedirects: 2 }, credentialHeaders);
    await expect(transport.call(op, { path: { id: 1, iid: 2 } })).rejects.toMatchObject({ status: 301 });
    expect(calls.length).toBe(3);
  });

  const authCases: [string, object, string, string][] = [
    ['a private token', { privateToken: 'p' }, 'PRIVATE-TOKEN', 'p'],
    ['an OAuth token', { oauthToken: 'o' }, 'Authorization', 'Bearer o'],
    ['a job token from an async function', { jobToken: async () => 'j' }, 'JOB-TOKEN', 'j'],
  ];
  it.each(authCases)('sends %s, and sudo globally or per call', async (_title, auth, header, value) => {
    const { fetch, calls } = scripted([json(200, {}), json(200, {})]);
    const transport = new Transport(
      { baseUrl: 'https://h/api/v4', fetch, auth: auth as never, sudo: 'root' },
      credentialHeaders,
    );
    await transport.call(op, { path: { id: 1, iid: 2 } });
    await transport.call(op, { path: { id: 1, iid: 2 } }, { sudo: 7 });
    expect(calls.map((c) => [c.headers.get(header), c.headers.get('Sudo')])).toEqual([
      [value, 'root'],
      [value, '7'],
    ]);
  });

  it('pages over keyset Link headers and offset x-next-page, up to maxPages', async () => {
    const list: OperationDescriptor = { id: 'jobs/list', method: 'GET', path: '/projects/{id}/jobs', response: 'json' };
    const { fetch, calls } = scripted([
      json(200, [1, 2], { link: '<https://h/api/v4/projects/1/jobs?cursor=abc&pagination=keyset>; rel="next"' }),
      json(200, [3], { 'x-next-page': '3' }),
      json(200, [4], { 'x-next-page': '' }),
      json(200, [5]),
    ]);
    const transport = new Transport({ baseUrl: 'https://h/api/v4', fetch }, credentialHeaders);
    const pages: unknown[][] = [];
    for await (const page of transport.pages(list, { path: { id: 1 }, query: { pagination: 'keyset' } }))
      pages.push(page);
    expect(pages).toEqual([[1, 2], [3], [4]]);
    expect(calls.map((c) => c.url)).toEqual([
      'https://h/api/v4/projects/1/jobs?pagination=keyset',
      'https://h/api/v4/projects/1/jobs?cursor=abc&pagination=keyset',
      'https://h/api/v4/projects/1/jobs?cursor=abc&pagination=keyset&page=3',
    ]);
    const capped = scripted([json(200, [1], { 'x-next-page': '2' }), json(200, [2], { 'x-next-page': '3' })]);
    const few: unknown[][] = [];
    for await (const page of new Transport(
      { baseUrl: 'https://h/api/v4', fetch: capped.fetch },
      credentialHeaders,
    ).pages(list, { path: { id: 1 } }, { maxPages: 1 }))
      few.push(page);
    expect(few).toEqual([[1]]);
  });

  const offOrigin: [string, Record<string, string>, string[] | string][] = [
    [
      'an off-origin Link with x-next-page: pages by x-next-page on the API origin',
      { link: '<https://gateway.internal/api/v4/projects/1/jobs?page=2>; rel="next"', 'x-next-page': '2' },
      ['https://h/api/v4/projects/1/jobs', 'https://h/api/v4/projects/1/jobs?page=2'],
    ],
    [
      'an off-origin Link alone: refused with kind off-origin (the token would leak)',
      { link: '<https://elsewhere.example/api/v4/projects/1/jobs?page=2>; rel="next"' },
      'https://elsewhere.example/api/v4/projects/1/jobs?page=2',
    ],
  ];
  it.each(offOrigin)('a next page off the API origin: %s', async (_title, headers, want) => {
    const list: OperationDescriptor = { id: 'jobs/list', method: 'GET', path: '/projects/{id}/jobs', response: 'json' };
    const { fetch, calls } = scripted([json(200, [1], headers), json(200, [2])]);
    const transport = new Transport({ baseUrl: 'https://h/api/v4', fetch }, credentialHeaders);
    const pages: unknown[][] = [];
    const paged = (async () => {
      for await (const page of transport.pages(list, { path: { id: 1 } })) pages.push(page);
    })();
    if (Array.isArray(want)) {
      await paged;
      expect(calls.map((c) => c.url)).toEqual(want);
      expect(pages).toEqual([[1], [2]]);
    } else {
      await expect(paged).rejects.toMatchObject({
        kind: 'off-origin',
        status: 0,
        target: want,
        message: `jobs/list: refused to follow a next page off the API origin to ${want}`,
      });
      expect(pages).toEqual([[1]]);
    }
  });

  it('throws ServiceApiError with the status, the parsed body and the operationId', async () => {
    const { fetch } = scripted([json(404, { message: '404 Project Not Found' })]);
    const error = await new Transport({ baseUrl: 'https://h/api/v4', fetch }, credentialHeaders)
      .call(op, { path: { id: 1, iid: 2 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceApiError);
    expect(error).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
      operationId: 'merge-requests/merge',
      message: 'merge-requests/merge answered 404: 404 Project Not Found',
    });
  });

  const keptText: [string, () => Response, boolean, string | undefined, unknown][] = [
    ['asked: the text as received', () => raw(200, '{ "iid": 2 }'), true, '{ "iid": 2 }', { iid: 2 }],
    ['not asked: no text', () => raw(200, '{ "iid": 2 }'), false, undefined, { iid: 2 }],
    ['asked, an empty body', () => raw(200, ''), true, '', undefined],
    ['asked, a 204', () => new Response(null, { status: 204 }), true, undefined, undefined],
  ];
  it.each(keptText)('keepText: %s', async (_title, response, keepText, text, data) => {
    const { fetch } = scripted([response]);
    const answer = await new Transport({ baseUrl: 'https://h/api/v4', fetch }, credentialHeaders).callWithResponse(
      op,
      { path: { id: 1, iid: 2 } },
      { keepText },
    );
    expect(answer.data).toEqual(data);
    expect(answer.text).toBe(text);
    expect(Object.hasOwn(answer, 'text')).toBe(text !== undefined);
  });
});

describe('Transport on network failures', () => {
  const fails = (error: unknown) => () => {
    throw error;
  };
  const dropped = fails(new TypeError('fetch failed', { cause: new Error('other side closed') }));
  const timedOut = fails(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  const post: OperationDescriptor = { ...op, id: 'merge-requests/create', method: 'POST', path: '/projects/{id}' };
  const get: OperationDescriptor = { ...op, id: 'jobs/get', method: 'GET', path: '/projects/{id}', body: undefined };
  const cases: [string, OperationDescriptor, (() => Response)[], number | string, string[]][] = [
    ['GET after two drops', get, [dropped, dropped, json(200, {})], 200, ['network', 'network']],
    ['GET after a timeout', get, [timedOut, json(200, {})], 200, ['timeout']],
    ['GET dropped three times gives up', get, [dropped, dropped, dropped], 'network', ['network', 'network']],
    ['PUT after a drop (idempotent)', op, [dropped, json(200, {})], 200, ['network']],
    ['POST after a drop is not retried', post, [dropped, json(200, {})], 'network', []],
    ['POST after a timeout is not retried', post, [timedOut, json(200, {})], 'timeout', []],
    ['POST on 503 is retried (not processed)', post, [json(503, {}), json(201, {})], 200, ['status']],
  ];
  it.each(cases)('%s', async (_title, operation, responses, want, wantReasons) => {
    const { fetch, calls } = scripted(responses);
    const reasons: string[] = [];
    const transport = new Transport(
      {
        baseUrl: 'https://h/api/v4',
        fetch,
        retry: { sleep: async () => {}, onRetry: (info) => void reasons.push(info.reason) },
      },
      credentialHeaders,
    );
    const result = await transport.call(operation, { path: { id: 1, iid: 2 } }).then(
      () => 200,
      (e: unknown) => (e instanceof ServiceApiError ? e.kind : e),
    );
    expect(result).toBe(want);
    expect(reasons).toEqual(wantReasons);
    expect(calls.length).toBe(wantReasons.length + 1);
  });

  it('reports each retry with its attempt, wait, status or error', async () => {
    const { fetch } = scripted([json(429, {}, { 'retry-after': '2' }), dropped, json(200, {})]);
    const seen: unknown[] = [];
    const transport = new Transport(
      {
        baseUrl: 'https://h/api/v4',
        fetch,
        retry: { sleep: async () => {}, random: () => 0, onRetry: (info) => void seen.push(info) },
      },
      credentialHeaders,
    );
    await transport.call(get, { path: { id: 1 } });
    expect(seen).toEqual([
      { attempt: 2, delayMs: 2000, reason: 'status', status: 429 },
      { attempt: 3, delayMs: 500, reason: 'network', error: expect.any(ServiceApiError) },
    ]);
  });

  it('keeps the cause, names the URL and uses status 0', async () => {
    const cause = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    const { fetch } = scripted([fails(cause)]);
    const error = await new Transport({ baseUrl: 'https://h/api/v4', fetch, retry: { attempts: 1 } }, credentialHeaders)
      .call(get, { path: { id: 1 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceApiError);
    expect(error).toMatchObject({
      kind: 'network',
      status: 0,
      cause,
      url: 'https://h/api/v4/projects/1',
      message: 'jobs/get failed: fetch failed (connect ECONNREFUSED 127.0.0.1:9)',
    });
  });

  it('sends a stream body once: no retry, not even on 503', async () => {
    const upload: OperationDescriptor = { ...op, method: 'PUT', body: 'binary' };
    const { fetch, calls } = scripted([json(503, {}), json(200, {})]);
    const transport = new Transport(
      { baseUrl: 'https://h/api/v4', fetch, retry: { sleep: async () => {} } },
      credentialHeaders,
    );
    const body = new ReadableStream({ start: (controller) => controller.close() });
    await expect(transport.call(upload, { path: { id: 1, iid: 2 }, body })).rejects.toMatchObject({ status: 503 });
    expect(calls.length).toBe(1);
  });

  it('gives no signal when there is no timeout and no caller signal, and the caller signal as it is', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      signals.push(init.signal ?? undefined);
      return json(200, {})();
    }) as unknown as typeof globalThis.fetch;
    const transport = new Transport({ baseUrl: 'https://h/api/v4', fetch }, credentialHeaders);
    const caller = new AbortController().signal;
    await transport.call(get, { path: { id: 1 } });
    await transport.call(get, { path: { id: 1 } }, { signal: caller });
    await transport.call(get, { path: { id: 1 } }, { signal: caller, timeout: 1000 });
    expect(signals[0]).toBeUndefined();
    expect(signals[1]).toBe(caller);
    expect(signals[2]).toBeInstanceOf(AbortSignal);
    expect(signals[2]).not.toBe(caller);
  });
});
