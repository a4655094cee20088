/**
 * Hostile inputs that any server of the API must survive: each names the request (path under `/api/v4`) and the
 * statuses a conforming server may answer. Run against a server built on @service-api/server (server.test.ts) and
 * against the mock. Every case holds for any conforming server: where tolerating or refusing are both correct, both
 * statuses are listed. Issue 9 items are named in the case names (`9.1` …).
 */

import { brotliCompressSync, gzipSync } from 'node:zlib';

export interface HostileCase {
  name: string;
  method: string;
  path: string /* under /api/v4 */;
  headers?: Record<string, string>;
  body?: string | Buffer | (() => Buffer);
  /**
   * `fake`: what the fake answers with its data set, where it differs from a server answering examples; `allow`: the
   * `Allow` header of the answer (a 405 or an OPTIONS), where the case names it.
   */
  expect: { status: number | number[]; fake?: number | number[]; allow?: string };
  /** Largest acceptable response body in bytes (default 64 KiB). */
  maxBodyBytes?: number;
  /** Credentials written into the URL (`user:password`), for a sender that takes URLs (`fetch`). */
  userinfo?: string;
}

/** Any token is accepted by the servers these cases run against. */
export const TOKEN = { 'PRIVATE-TOKEN': 'hostile-test-token' };

const BOUNDARY = '----hostile-boundary-7MA4YWxkTrZu0gW';

type Part = [name: string, value: string | { filename: string; type: string; data: Buffer }];

/** A multipart/form-data body with the given parts. */
export function multipart(parts: Part[], boundary = BOUNDARY): { headers: Record<string, string>; body: Buffer } {
  const chunks: Buffer[] = [];
  for (const [name, value] of parts) {
    if (typeof value === 'string')
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.type}\r\n\r\n`,
        ),
      );
      chunks.push(value.data, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body: Buffer.concat(chunks) };
}

const json = (value: unknown) => ({
  headers: { ...TOKEN, 'Content-Type': 'application/json' },
  body: JSON.stringify(value),
});
const form = (text: string) => ({
  headers: { ...TOKEN, 'Content-Type': 'application/x-www-form-urlencoded' },
  body: text,
});
const archive = { filename: 'export.tar.gz', type: 'application/gzip', data: Buffer.from([0x1f, 0x8b, 0x08, 0x00]) };
const image = (size: number) => ({ filename: 'avatar.png', type: 'image/png', data: Buffer.alloc(size, 0x89) });
const withToken = (parts: ReturnType<typeof multipart>) => ({
  headers: { ...TOKEN, ...parts.headers },
  body: parts.body,
});

const FILE = '/projects/1/repository/files/docs%2Fa.txt';
const MERGE_REQUESTS = '/projects/1/merge_requests';
const mergeRequest = { source_branch: 'feature', target_branch: 'main', title: 'Hostile' };
const fileWrite = { branch: 'main', commit_message: 'hostile', content: 'x' };
const manyKeys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`unknown_${i}`, i]));
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

export const hostileCases: HostileCase[] = [
  // 9.1 Prototype pollution: multipart names, JSON keys, query hashes, deepObject, forms; before and after authentication.
  {
    name: '9.1 multipart __proto__[private_token] without credentials',
    method: 'POST',
    path: '/projects/import',
    ...multipart([
      ['__proto__[private_token]', 'planted'],
      ['path', 'p'],
      ['file', archive],
    ]),
    expect: { status: 401 },
  },
  {
    name: '9.1 multipart __proto__[private_token] with credentials',
    method: 'POST',
    path: '/projects/import',
    ...withToken(
      multipart([
        ['__proto__[private_token]', 'planted'],
        ['path', 'p'],
        ['file', archive],
      ]),
    ),
    expect: { status: [201, 400] },
  },
  {
    name: '9.1 multipart constructor[prototype][sudo]',
    method: 'POST',
    path: '/projects/import',
    ...withToken(
      multipart([
        ['constructor[prototype][sudo]', 'root'],
        ['path', 'p'],
        ['file', archive],
      ]),
    ),
    expect: { status: [201, 400] },
  },
  {
    name: '9.1 multipart override_params[__proto__][private_token]',
    method: 'POST',
    path: '/projects/import',
    ...withToken(
      multipart([
        ['override_params[__proto__][private_token]', 'planted'],
        ['path', 'p'],
        ['file', archive],
      ]),
    ),
    expect: { status: [201, 400] },
  },
  {
    name: '9.1 JSON __proto__ key',
    method: 'POST',
    path: '/projects/remote-import',
    headers: json({}).headers,
    body: '{"path":"p","url":"https://example.invalid/a.tar.gz","__proto__":{"private_token":"planted","sudo":"root"}}',
    expect: { status: [201, 400] },
  },
  {
    name: '9.1 JSON constructor.prototype',
    method: 'POST',
    path: '/projects/remote-import',
    headers: json({}).headers,
    body: '{"path":"p","url":"https://example.invalid/a.tar.gz","constructor":{"prototype":{"private_token":"planted"}}}',
    expect: { status: [201, 400] },
  },
  {
    name: '9.1 JSON __proto__ nested in an open field',
    method: 'POST',
    path: '/projects/remote-import',
    headers: json({}).headers,
    body: '{"path":"p","url":"https://example.invalid/a.tar.gz","override_params":{"__proto__":{"private_token":"planted"}}}',
    expect: { status: [201, 400] },
  },
  {
    name: '9.1 query hash __proto__[private_token] without credentials',
    method: 'GET',
    path: '/user/activities?__proto__[private_token]=planted',
    expect: { status: 401 },
  },
  {
    name: '9.1 query hash __proto__[private_token] with credentials',
    method: 'GET',
    path: '/projects/1/jobs?__proto__[private_token]=planted&constructor[prototype][sudo]=root',
    headers: TOKEN,
    expect: { status: [200, 400] },
  },
  {
    name: '9.1 query __proto__=x (ignored like any unknown parameter)',
    method: 'GET',
    path: '/projects/1/jobs?__proto__=planted&prototype=x&constructor=y',
    headers: TOKEN,
    expect: { status: 200 },
  },
  {
    name: '9.1 deepObject range[__proto__][start]',
    method: 'GET',
    path: `${FILE}/blame?ref=main&range[__proto__][start]=1&range[constructor][prototype]=1`,
    headers: TOKEN,
    expect: { status: [200, 400] },
  },
  {
    name: '9.1 form body __proto__[sudo]',
    method: 'POST',
    path: MERGE_REQUESTS,
    ...form('__proto__[sudo]=root&source_branch=a&target_branch=b&title=t'),
    expect: { status: [201, 400] },
  },
  {
    name: '9.1 form body constructor[prototype][private_token]',
    method: 'POST',
    path: MERGE_REQUESTS,
    ...form('constructor[prototype][private_token]=x&source_branch=a&target_branch=b&title=t'),
    expect: { status: [201, 400] },
  },

  // 9.2 A body of the wrong media type is refused without being read or validated.
  {
    name: '9.2 50 MB application/octet-stream on a JSON operation',
    method: 'POST',
    path: FILE,
    headers: { ...TOKEN, 'Content-Type': 'application/octet-stream' },
    body: () => Buffer.alloc(50 * 1024 * 1024, 0x61),
    expect: { status: [413, 415] },
    maxBodyBytes: 4096,
  },
  {
    name: '9.2 1 MiB application/octet-stream on a JSON operation',
    method: 'POST',
    path: FILE,
    headers: { ...TOKEN, 'Content-Type': 'application/octet-stream' },
    body: () => Buffer.alloc(1024 * 1024, 0x61),
    expect: { status: 415 },
    maxBodyBytes: 4096,
  },
  {
    name: '9.2 text/plain on a JSON operation',
    method: 'POST',
    path: FILE,
    headers: { ...TOKEN, 'Content-Type': 'text/plain' },
    body: JSON.stringify(fileWrite),
    expect: { status: 415 },
    maxBodyBytes: 4096,
  },
  {
    name: '9.2 50 MB body without credentials costs only its headers',
    method: 'POST',
    path: FILE,
    headers: { 'Content-Type': 'application/json' },
    body: () => Buffer.alloc(50 * 1024 * 1024, 0x20),
    expect: { status: 401 },
    maxBodyBytes: 4096,
  },

  // 9.3 A cookie that cannot be parsed is ignored unless it is the credential.
  {
    name: '9.3 Cookie foo=% without credentials',
    method: 'GET',
    path: '/projects/1/jobs',
    headers: { Cookie: 'foo=%' },
    expect: { status: 401 },
  },
  {
    name: '9.3 Cookie foo=% with credentials',
    method: 'GET',
    path: '/projects/1/jobs',
    headers: { ...TOKEN, Cookie: 'foo=%; bar=%E0%A4%A' },
    expect: { status: 200 },
  },
  {
    name: '9.3 malformed session cookie',
    method: 'GET',
    path: '/projects/1/jobs',
    headers: { Cookie: '_service_session=%' },
    expect: { status: [400, 401] },
  },

  // 9.4 Repeated query parameters are parsed in linear time, before and after authentication.
  {
    name: '9.4 8,000 repeated query parameters without credentials',
    method: 'GET',
    path: `/projects/1/jobs?${'a&'.repeat(8000)}`,
    expect: { status: [400, 401, 414, 431] },
  },
  {
    name: '9.4 8,000 repeated query parameters with credentials',
    method: 'GET',
    path: `/projects/1/jobs?${'a&'.repeat(8000)}`,
    headers: TOKEN,
    expect: { status: [200, 400, 414, 431] },
  },
  {
    name: '9.4 2,000 repeated scope[] values',
    method: 'GET',
    path: `/projects/1/jobs?${'scope[]=failed&'.repeat(500)}`,
    headers: TOKEN,
    expect: { status: [200, 400, 414, 431] },
  },

  // 9.5 Malformed multipart.
  {
    name: '9.5 multipart without boundary',
    method: 'POST',
    path: '/projects/import',
    headers: { ...TOKEN, 'Content-Type': 'multipart/form-data' },
    body: 'xx',
    expect: { status: 400 },
  },
  {
    name: '9.5 multipart without boundary, without credentials',
    method: 'POST',
    path: '/projects/import',
    headers: { 'Content-Type': 'multipart/form-data' },
    body: 'xx',
    expect: { status: 401 },
  },
  {
    name: '9.5 multipart truncated',
    method: 'POST',
    path: '/projects/import',
    headers: { ...TOKEN, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="path"\r\n\r\nunterminated`,
    expect: { status: 400 },
  },
  {
    name: '9.5 multipart with 5,000 fields',
    method: 'POST',
    path: '/projects/import',
    ...withToken(multipart(Array.from({ length: 5000 }, (_, i): Part => [`f${i}`, 'x']))),
    expect: { status: [400, 413] },
  },

  // 9.6 A form-encoded body is read as a form.
  {
    name: '9.6 form-encoded body on a JSON operation',
    method: 'POST',
    path: MERGE_REQUESTS,
    ...form('source_branch=feature&target_branch=main&title=From+curl+--data&remove_source_branch=True'),
    expect: { status: 201 },
  },
  {
    name: '9.6 form-encoded body with a malformed escape',
    method: 'POST',
    path: MERGE_REQUESTS,
    ...form('source_branch=%&target_branch=main&title=t'),
    expect: { status: 400 },
  },

  // 9.7 Limits that fit the API: the avatar's 200 KiB, JSON large enough for its documented fields.
  {
    name: '9.7 avatar of 300 KB',
    method: 'PUT',
    path: '/user/avatar',
    ...withToken(multipart([['avatar', image(300 * 1000)]])),
    expect: { status: 400 },
    maxBodyBytes: 4096,
  },
  {
    name: '9.7 avatar of 50 MB',
    method: 'PUT',
    path: '/user/avatar',
    ...withToken(multipart([['avatar', image(50 * 1024 * 1024)]])),
    expect: { status: [400, 413] },
    maxBodyBytes: 4096,
  },
  {
    name: '9.7 avatar of 100 KB',
    method: 'PUT',
    path: '/user/avatar',
    ...withToken(multipart([['avatar', image(100 * 1000)]])),
    expect: { status: 200 },
  },
  {
    name: '9.7 repository file content of 1 MiB',
    method: 'POST',
    path: FILE,
    ...json({ ...fileWrite, content: 'x'.repeat(1024 * 1024) }),
    expect: { status: 201 },
  },
  {
    name: '9.7 description of 1,048,576 characters',
    method: 'POST',
    path: MERGE_REQUESTS,
    ...json({ ...mergeRequest, description: 'é'.repeat(1048576) }),
    expect: { status: 201 },
  },
  {
    name: '9.7 JSON body of 40 MB',
    method: 'POST',
    path: FILE,
    headers: json({}).headers,
    body: () => Buffer.from(JSON.stringify({ ...fileWrite, content: 'x'.repeat(40 * 1024 * 1024) })),
    expect: { status: 413 },
    maxBodyBytes: 4096,
  },

  // 9.8 Error lists are bounded.
  {
    name: '9.8 JSON body with 100,000 unknown keys',
    method: 'POST',
    path: MERGE_REQUESTS,
    ...json({ ...mergeRequest, ...manyKeys(100_000) }),
    expect: { status: [201, 400] },
    maxBodyBytes: 16 * 1024,
  },
  {
    name: '9.8 JSON body with 100,000 invalid values',
    method: 'POST',
    path: MERGE_REQUESTS,
    ...json({ ...mergeRequest, assignee_ids: Array.from({ length: 100_000 }, () => 'x') }),
    expect: { status: 400 },
    maxBodyBytes: 16 * 1024,
  },
  {
    name: '9.8 JSON body with 2,000,000 invalid values (refused before validation)',
    method: 'POST',
    path: MERGE_REQUESTS,
    ...json({ ...mergeRequest, assignee_ids: Array.from({ length: 2_000_000 }, () => 'x') }),
    expect: { status: 400 },
    maxBodyBytes: 16 * 1024,
  },

  // 13 A file write whose path climbs out of its folder.
  {
    name: '13 file_path with /../ on a file write',
    method: 'POST',
    path: '/projects/1/repository/files/docs%2F..%2Fsecret.txt',
    ...json({ branch: 'main', commit_message: 'm', content: 'x' }),
    expect: { status: 400 },
    maxBodyBytes: 16 * 1024,
  },

  // 9.9 Unsupported methods and unknown paths, in the API's shape.
  {
    name: '9.9 PATCH on a path that has GET',
    method: 'PATCH',
    path: '/projects/1/jobs',
    headers: TOKEN,
    expect: { status: 405, allow: 'GET, HEAD, OPTIONS' },
    maxBodyBytes: 4096,
  },
  {
    name: '9.9 unknown path',
    method: 'GET',
    path: '/no/such/path',
    headers: TOKEN,
    expect: { status: 404 },
    maxBodyBytes: 4096,
  },
  {
    name: '9.9 anonymous call of an authenticated write',
    method: 'POST',
    path: MERGE_REQUESTS,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(mergeRequest),
    expect: { status: 401 },
    maxBodyBytes: 4096,
  },

  // 32.5 Found by fuzzing 0.5.0.
  // Names from requests are never keys of a record with a prototype (the fake keeps its records prototype-free).
  ...(['__proto__', 'constructor', 'hasOwnProperty'] as const).flatMap((name): HostileCase[] => [
    {
      name: `32.5 plan_name=${name} in the query of the plan limits`,
      method: 'GET',
      path: `/application/plan_limits?plan_name=${name}`,
      headers: TOKEN,
      expect: { status: 200, fake: 404 },
    },
    {
      name: `32.5 plan_name ${name} in the body of a plan limits update`,
      method: 'PUT',
      path: '/application/plan_limits',
      ...json({ plan_name: name, ci_pipeline_size: 7, storage_size_limit: 9 }),
      expect: { status: 200, fake: 404 },
    },
    {
      name: `32.5 integration slug ${name}`,
      method: 'GET',
      path: `/projects/1/integrations/${name}`,
      headers: TOKEN,
      expect: { status: 200, fake: 404 },
    },
    {
      name: `32.5 integration slug ${name} set up`,
      method: 'PUT',
      path: `/projects/1/integrations/${name}`,
      ...json({ webhook: 'https://example.invalid/hook' }),
      expect: { status: 200, fake: [200, 400, 404] },
    },
    {
      name: `32.5 ref ${name} of a file`,
      method: 'GET',
      path: `/projects/1/repository/files/README.md?ref=${name}`,
      headers: TOKEN,
      expect: { status: 200, fake: 404 },
    },
    {
      name: `32.5 blob ${name}`,
      method: 'GET',
      path: `/projects/1/repository/blobs/${name}`,
      headers: TOKEN,
      expect: { status: 200, fake: 404 },
    },
    {
      name: `32.5 file write on branch ${name}`,
      method: 'POST',
      path: '/projects/1/repository/files/hostile-branch.txt',
      ...json({ ...fileWrite, branch: name }),
      expect: { status: 201, fake: 400 },
    },
  ]),
  // A file path git cannot store, or that leaves the repository: the Service's 400 on every write.
  ...[
    'a%2F',
    'a%5Cb',
    '.',
    'a%2F%2Fb',
    'a%00b',
    '..%2Fx',
    'x%2F..',
    '..',
    '%2Fetc%2Fpasswd',
    'a%0Ab',
    'x%2F.git%2Fconfig',
  ].map(
    (path): HostileCase => ({
      name: `32.5 file_path ${decodeURIComponent(path).replace(/[\0\n]/g, (c) => JSON.stringify(c).slice(1, -1))} on a file write`,
      method: 'POST',
      path: `/projects/1/repository/files/${path}`,
      ...json(fileWrite),
      expect: { status: 400 },
      maxBodyBytes: 4096,
    }),
  ),
  // HEAD and OPTIONS as Grape answers them; Allow names the methods of the path matched, not its neighbour's.
  {
    name: '32.5 HEAD on a GET operation',
    method: 'HEAD',
    path: '/projects/1/jobs',
    headers: TOKEN,
    expect: { status: 200 },
  },
  {
    name: '32.5 HEAD on a GET operation without credentials',
    method: 'HEAD',
    path: '/projects/1/jobs',
    expect: { status: 401 },
  },
  {
    name: '32.5 OPTIONS on a known path',
    method: 'OPTIONS',
    path: '/projects/1/merge_requests',
    expect: { status: 204, allow: 'GET, HEAD, OPTIONS, POST' },
  },
  {
    name: '32.5 OPTIONS on an unknown path',
    method: 'OPTIONS',
    path: '/no/such/path',
    expect: { status: 404 },
    maxBodyBytes: 4096,
  },
  {
    name: '32.5 DELETE on /runners/all (a neighbour of /runners/{id})',
    method: 'DELETE',
    path: '/runners/all',
    headers: TOKEN,
    expect: { status: 405, allow: 'GET, HEAD, OPTIONS' },
    maxBodyBytes: 4096,
  },
  {
    name: '32.5 an empty object for a required object field',
    method: 'POST',
    path: '/projects/1/product_analytics/request/load',
    ...json({ query: {} }),
    expect: { status: 201, fake: [201, 404] },
  },

  // Classics.
  {
    name: 'deeply nested JSON (100,000 levels) in a string field',
    method: 'POST',
    path: MERGE_REQUESTS,
    headers: json({}).headers,
    body: `{"source_branch":"a","target_branch":"b","title":${nested(100_000)}}`,
    expect: { status: 400 },
  },
  {
    name: 'deeply nested JSON (100,000 levels) in an open field',
    method: 'POST',
    path: '/projects/remote-import',
    headers: json({}).headers,
    body: `{"path":"p","url":"https://example.invalid/a.tar.gz","override_params":{"x":${nested(100_000)}}}`,
    expect: { status: [201, 400] },
  },
  {
    name: 'deeply nested JSON body (100,000 levels)',
    method: 'POST',
    path: MERGE_REQUESTS,
    headers: json({}).headers,
    body: nested(100_000),
    expect: { status: 400 },
  },
  {
    name: 'huge string (10 MB title)',
    method: 'POST',
    path: MERGE_REQUESTS,
    ...json({ ...mergeRequest, title: 'x'.repeat(10 * 1024 * 1024) }),
    expect: { status: [201, 400] },
  },
  {
    name: 'invalid UTF-8 in a JSON body',
    method: 'POST',
    path: MERGE_REQUESTS,
    headers: json({}).headers,
    body: Buffer.concat([
      Buffer.from('{"source_branch":"a","target_branch":"b","title":"'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}'),
    ]),
    expect: { status: [201, 400] },
  },
  {
    name: 'invalid JSON',
    method: 'POST',
    path: MERGE_REQUESTS,
    headers: json({}).headers,
    body: '{"title": ',
    expect: { status: 400 },
  },
  {
    name: 'empty JSON body',
    method: 'POST',
    path: MERGE_REQUESTS,
    headers: { ...json({}).headers, 'Content-Length': '0' },
    body: '',
    expect: { status: 400 },
  },
  {
    name: 'JSON null body',
    method: 'POST',
    path: MERGE_REQUESTS,
    headers: json({}).headers,
    body: 'null',
    expect: { status: 400 },
  },
  {
    name: 'JSON array body',
    method: 'POST',
    path: MERGE_REQUESTS,
    headers: json({}).headers,
    body: '[1,2,3]',
    expect: { status: 400 },
  },
  {
    name: 'invalid UTF-8 escape in a path segment',
    method: 'GET',
    path: '/projects/%FF/jobs',
    headers: TOKEN,
    expect: { status: 400 },
  },
  {
    name: 'invalid UTF-8 escape in a path segment, without credentials',
    method: 'GET',
    path: '/projects/%FF/jobs',
    expect: { status: [400, 401] },
  },
  {
    name: 'bare % in a path segment',
    method: 'GET',
    path: '/projects/%/jobs',
    headers: TOKEN,
    expect: { status: 400 },
  },
  {
    name: 'bare % in a query value',
    method: 'GET',
    path: '/projects/1/jobs?per_page=%',
    headers: TOKEN,
    expect: { status: 400 },
  },
  {
    name: 'invalid UTF-8 escape in a query value',
    method: 'GET',
    path: '/projects/1/repository/files/a.txt?ref=%FF',
    headers: TOKEN,
    expect: { status: 400 },
  },
  {
    name: 'NUL in a query value',
    method: 'GET',
    path: '/projects/1/repository/files/a.txt?ref=%00',
    headers: TOKEN,
    expect: { status: [200, 400] },
  },
  {
    name: 'bad id: a word for an integer',
    method: 'GET',
    path: '/projects/1/jobs/abc',
    headers: TOKEN,
    expect: { status: 400 },
  },
  {
    name: 'bad id: 23 digits',
    method: 'GET',
    path: '/projects/1/jobs/99999999999999999999999',
    headers: TOKEN,
    expect: { status: [200, 400, 404] },
  },
  {
    name: 'bad id: 1e999',
    method: 'GET',
    path: '/projects/1/jobs/1e999',
    headers: TOKEN,
    expect: { status: [200, 400, 404] },
  },
  {
    name: 'bad id: negative',
    method: 'GET',
    path: '/projects/1/jobs/-1',
    headers: TOKEN,
    expect: { status: [200, 400, 404] },
  },
  {
    name: 'bad id: 5,000 characters',
    method: 'GET',
    path: `/projects/${'9'.repeat(5000)}/jobs`,
    headers: TOKEN,
    expect: { status: [200, 400, 404, 414] },
  },
  {
    name: '100 KB query string',
    method: 'GET',
    path: `/projects/1/jobs?search=${'x'.repeat(100 * 1024)}`,
    headers: TOKEN,
    expect: { status: [400, 414, 431] },
  },
  {
    name: '100 KB query string without credentials',
    method: 'GET',
    path: `/projects/1/jobs?search=${'x'.repeat(100 * 1024)}`,
    expect: { status: [400, 401, 414, 431] },
  },
  {
    name: '30 KB header',
    method: 'GET',
    path: '/projects/1/jobs',
    headers: { ...TOKEN, 'X-Padding': 'x'.repeat(30 * 1024) },
    expect: { status: [400, 431] },
  },
  {
    name: 'empty bearer token',
    method: 'GET',
    path: '/projects/1/jobs',
    headers: { Authorization: 'Bearer ' },
    expect: { status: 401 },
  },
  {
    name: 'per_page far out of range',
    method: 'GET',
    path: '/projects/1/jobs?per_page=99999999999999999999',
    headers: TOKEN,
    expect: { status: 400 },
  },
];

/**
 * The Service's request semantics (issue 21 items): a method the path does not have is 405 and an unknown path 404
 * before any body is parsed, an empty body is no body whatever its type (the fake answers 404: no such record), a path
 * parameter wins over its copy in the body or the query, a name sent plain and bracketed is a 400, a broken session
 * cookie is no credential, `Accept` is ignored. Run against the server package and the fake; the mock joins them
 * once it runs on the server package.
 */
export const requestSemanticsCases: HostileCase[] = [
  {
    name: '21.8 malformed session cookie alone: no credential',
    method: 'GET',
    path: '/projects/1/jobs',
    headers: { Cookie: '_service_session=%' },
    expect: { status: 401 },
  },
  {
    name: '21.8 malformed session cookie beside a valid token',
    method: 'GET',
    path: '/projects/1/jobs',
    headers: { ...TOKEN, Cookie: '_service_session=%' },
    expect: { status: 200 },
  },
  {
    name: '21.4 multipart on a method the path does not have',
    method: 'PUT',
    path: '/users/1',
    ...withToken(multipart([['name', 'n']])),
    expect: { status: 405 },
    maxBodyBytes: 4096,
  },
  {
    name: '21.4 multipart on a method the path does not have, without credentials',
    method: 'PUT',
    path: '/users/1',
    ...multipart([['name', 'n']]),
    expect: { status: 405 },
    maxBodyBytes: 4096,
  },
  {
    name: '21.4 multipart on an unknown path',
    method: 'POST',
    path: '/no/such/path',
    ...withToken(multipart([['file', archive]])),
    expect: { status: 404 },
    maxBodyBytes: 4096,
  },
  {
    name: '21.4 JSON on a method the path does not have, without credentials',
    method: 'PATCH',
    path: '/projects/1/jobs',
    headers: { 'Content-Type': 'application/json' },
    body: '{"a":',
    expect: { status: 405 },
    maxBodyBytes: 4096,
  },
  {
    name: '21.4 50 MB JSON on an unknown path',
    method: 'POST',
    path: '/no/such/path',
    headers: { 'Content-Type': 'application/json' },
    body: () => Buffer.alloc(50 * 1024 * 1024, 0x20),
    expect: { status: 404 },
    maxBodyBytes: 4096,
  },
  {
    name: '21.2 empty JSON body on a DELETE',
    method: 'DELETE',
    path: `${MERGE_REQUESTS}/999`,
    headers: { ...TOKEN, 'Content-Type': 'application/json', 'Content-Length': '0' },
    body: '',
    expect: { status: 204, fake: 404 },
  },
  {
    name: '21.2 empty chunked JSON body on a DELETE',
    method: 'DELETE',
    path: '/projects/1/error_tracking/client_keys/999',
    headers: { ...TOKEN, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
    body: '',
    expect: { status: 204, fake: 404 },
  },
  {
    name: '21.2 empty form body on a DELETE',
    method: 'DELETE',
    path: '/groups/1/badges/999',
    headers: { ...TOKEN, 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '0' },
    body: '',
    expect: { status: 204, fake: 404 },
  },
  {
    name: '21.2 empty multipart body on a DELETE',
    method: 'DELETE',
    path: '/projects/1/invitations/nobody%40example.com',
    headers: { ...TOKEN, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'Content-Length': '0' },
    body: '',
    expect: { status: 204, fake: 404 },
  },
  {
    name: '21.2 empty text/plain body on a DELETE',
    method: 'DELETE',
    path: '/groups/1/hooks/999',
    headers: { ...TOKEN, 'Content-Type': 'text/plain', 'Content-Length': '0' },
    body: '',
    expect: { status: 204, fake: 404 },
  },
  {
    name: '21.3 path parameter repeated URL-encoded in the body',
    method: 'PUT',
    path: '/projects/1/repository/files/src%2Findex.js',
    ...json({ file_path: 'src%2Findex.js', branch: 'main', commit_message: 'm', content: 'x' }),
    expect: { status: 200, fake: 200 },
  },
  {
    name: '21.3 path parameter repeated in the query with another value',
    method: 'PUT',
    path: '/projects/1/repository/files/src%2Findex.js?file_path=other.js',
    ...json({ branch: 'main', commit_message: 'm', content: 'y' }),
    expect: { status: 200, fake: 200 },
  },
  {
    name: '21.7 deepObject parameter plain, then bracketed',
    method: 'GET',
    path: '/users?custom_attributes=a&custom_attributes[b]=c',
    headers: TOKEN,
    expect: { status: 400 },
    maxBodyBytes: 4096,
  },
  {
    name: '21.7 deepObject parameter bracketed, then plain',
    method: 'GET',
    path: '/users?custom_attributes[b]=c&custom_attributes=a',
    headers: TOKEN,
    expect: { status: 400 },
    maxBodyBytes: 4096,
  },
  {
    name: '21.7 form field plain and bracketed',
    method: 'POST',
    path: MERGE_REQUESTS,
    ...form('source_branch=a&target_branch=b&title=t&labels=x&labels[a]=y'),
    expect: { status: 400 },
    maxBodyBytes: 4096,
  },
  {
    name: '21.9 Accept: application/json on a raw file download',
    method: 'GET',
    path: '/projects/1/repository/files/README.md/raw?ref=main',
    headers: { ...TOKEN, Accept: 'application/json' },
    expect: { status: 200, fake: 200 },
  },
  {
    name: '21.9 Accept: application/json on an archive download',
    method: 'GET',
    path: '/projects/1/repository/archive',
    headers: { ...TOKEN, Accept: 'application/json' },
    expect: { status: 200, fake: 200 },
  },
  {
    name: '21.9 Accept: text/html on a JSON operation',
    method: 'GET',
    path: '/projects/1/jobs',
    headers: { ...TOKEN, Accept: 'text/html' },
    expect: { status: 200, fake: 200 },
  },
];

const mergeRequestJson = JSON.stringify(mergeRequest);

/**
 * Requests on which a `fetch` answered in process (the fake's) and the same fake over HTTP once differed: a body's
 * Content-Encoding (the server reads none), a method Node's parser does not know, GET with a body and credentials in
 * the URL (which `fetch` itself refuses), headers above Node's limit.
 */
export const inProcessCases: HostileCase[] = [
  {
    name: 'a gzip body',
    method: 'POST',
    path: MERGE_REQUESTS,
    headers: { ...json({}).headers, 'Content-Encoding': 'gzip' },
    body: () => gzipSync(mergeRequestJson),
    expect: { status: [201, 400, 415] },
  },
  {
    name: 'a br body',
    method: 'POST',
    path: MERGE_REQUESTS,
    headers: { ...json({}).headers, 'Content-Encoding': 'br' },
    body: () => brotliCompressSync(mergeRequestJson),
    expect: { status: [201, 400, 415] },
  },
  {
    name: 'a body in an unknown encoding',
    method: 'POST',
    path: MERGE_REQUESTS,
    headers: { ...json({}).headers, 'Content-Encoding': 'x-unknown' },
    body: mergeRequestJson,
    expect: { status: [201, 400, 415] },
  },
  { name: 'method BOGUS', method: 'BOGUS', path: '/projects/1/jobs', headers: TOKEN, expect: { status: [400, 405] } },
  {
    name: 'method patch in lower case',
    method: 'patch',
    path: '/projects/1/jobs',
    headers: TOKEN,
    expect: { status: [400, 405] },
  },
  {
    name: 'method get in lower case',
    method: 'get',
    path: '/projects/1/jobs',
    headers: TOKEN,
    expect: { status: 200 },
  },
  {
    name: 'GET with a body',
    method: 'GET',
    path: '/projects/1/jobs',
    headers: json({}).headers,
    body: '{}',
    expect: { status: [200, 400] },
  },
  {
    name: 'credentials in the URL',
    method: 'GET',
    path: '/projects/1/jobs',
    headers: TOKEN,
    userinfo: 'user:secret',
    expect: { status: [200, 401] },
  },
  {
    name: '20 KB of headers',
    method: 'GET',
    path: '/projects/1/jobs',
    headers: { ...TOKEN, 'X-Padding': 'x'.repeat(20 * 1024) },
    expect: { status: 431 },
  },
];

/**
 * An upstream's answer that a proxy in front of it must survive: the raw bytes it writes once it has the request's
 * head, then whether it closes its side (`end`) or resets the connection (`reset`, an RST). Whatever the bytes, the
 * client gets a readable answer: the upstream's where it is well-formed and whole, else a 502 naming what broke.
 */
export interface HostileUpstreamCase {
  name: string;
  /** What the upstream writes (UTF-8), before it reads any of the request's body. */
  answer: string;
  then: 'end' | 'reset';
  /** The client's request (default: an authenticated GET of a project's jobs). */
  request?: Pick<HostileCase, 'method' | 'path' | 'headers' | 'body'>;
  /** The status the client gets through the proxy. */
  expect: { status: number };
}

const JOBS = '[]';
const jobsAnswer = (statusLine: string, headers = '') =>
  `HTTP/1.1 ${statusLine}\r\nContent-Type: application/json\r\n${headers}Content-Length: ${JOBS.length}\r\n\r\n${JOBS}`;
const TOO_LARGE = '{"message":"413 Payload Too Large - the body is larger than 16 MiB"}';
const early413 = `HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${TOO_LARGE.length}\r\n\r\n${TOO_LARGE}`;
const upload = (size: number) => ({
  method: 'POST',
  path: FILE,
  headers: { ...TOKEN, 'Content-Type': 'application/json' },
  body: () => Buffer.alloc(size, 0x20),
});

export const hostileUpstreamCases: HostileUpstreamCase[] = [
  { name: 'a well-formed answer', answer: jobsAnswer('200 OK'), then: 'end', expect: { status: 200 } },
  { name: 'status 000', answer: jobsAnswer('000 Zero'), then: 'end', expect: { status: 502 } },
  { name: 'status 099', answer: jobsAnswer('099 Low'), then: 'end', expect: { status: 502 } },
  { name: 'status 600', answer: jobsAnswer('600 High'), then: 'end', expect: { status: 502 } },
  { name: 'status 999', answer: jobsAnswer('999 Higher'), then: 'end', expect: { status: 502 } },
  { name: 'status of four digits', answer: jobsAnswer('2000 OK'), then: 'end', expect: { status: 502 } },
  { name: 'status that is not a number', answer: jobsAnswer('abc OK'), then: 'end', expect: { status: 502 } },
  { name: 'control character in the reason', answer: jobsAnswer('200 O\x01K'), then: 'end', expect: { status: 502 } },
  { name: 'DEL in the reason', answer: jobsAnswer('200 O\x7fK'), then: 'end', expect: { status: 502 } },
  { name: 'non-latin1 reason (UTF-8)', answer: jobsAnswer('200 Fine ✓'), then: 'end', expect: { status: 502 } },
  { name: 'latin1 reason', answer: jobsAnswer('200 Très bien'), then: 'end', expect: { status: 502 } },
  {
    name: 'space in a header name',
    answer: jobsAnswer('200 OK', 'X Bad: 1\r\n'),
    then: 'end',
    expect: { status: 502 },
  },
  {
    name: 'control character in a header name',
    answer: jobsAnswer('200 OK', 'X-\x01: 1\r\n'),
    then: 'end',
    expect: { status: 502 },
  },
  {
    name: 'control character in a header value',
    answer: jobsAnswer('200 OK', 'X-Bad: a\x01b\r\n'),
    then: 'end',
    expect: { status: 502 },
  },
  {
    name: 'NUL in a header value',
    answer: jobsAnswer('200 OK', 'X-Bad: a\x00b\r\n'),
    then: 'end',
    expect: { status: 502 },
  },
  // Bytes above 0x7f in a field value are obs-text, which HTTP allows: passed on as they came.
  {
    name: 'UTF-8 in a header value',
    answer: jobsAnswer('200 OK', 'X-Odd: ✓\r\n'),
    then: 'end',
    expect: { status: 200 },
  },
  {
    name: 'two different Content-Lengths',
    answer: jobsAnswer('200 OK', 'Content-Length: 7\r\n'),
    then: 'end',
    expect: { status: 502 },
  },
  {
    name: 'Content-Length beside chunked',
    answer: jobsAnswer('200 OK', 'Transfer-Encoding: chunked\r\n'),
    then: 'end',
    expect: { status: 502 },
  },
  { name: 'not HTTP at all', answer: 'garbage\r\n\r\n', then: 'end', expect: { status: 502 } },
  { name: 'a reset before answering', answer: '', then: 'reset', expect: { status: 502 } },
  { name: 'a close before answering', answer: '', then: 'end', expect: { status: 502 } },
  {
    name: 'a reset after the head',
    answer: 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n',
    then: 'reset',
    expect: { status: 502 },
  },
  {
    name: 'a reset mid-body',
    answer: 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[{"id":1,',
    then: 'reset',
    expect: { status: 502 },
  },
  {
    name: 'a close mid-body',
    answer: 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[{"id":1,',
    then: 'end',
    expect: { status: 502 },
  },
  {
    name: 'a reset mid-chunk',
    answer: 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n[{"id"',
    then: 'reset',
    expect: { status: 502 },
  },
  {
    name: 'an early 413 then a reset, 64 KiB upload',
    answer: early413,
    then: 'reset',
    request: upload(64 * 1024),
    expect: { status: 413 },
  },
  {
    name: 'an early 413 then a reset, 5 MB upload',
    answer: early413,
    then: 'reset',
    request: upload(5 * 1000 * 1000),
    expect: { status: 413 },
  },
  {
    name: 'an early 413 then a close, 5 MB upload',
    answer: early413,
    then: 'end',
    request: upload(5 * 1000 * 1000),
    expect: { status: 413 },
  },
];
