/**
 * Hostile inputs for the mock (issue 9 items 10–12 and the classic ones), in the shape of the shared table
 * `test/hostile/cases.ts` (`HostileCase`), so that one runner drives both.
 */
export interface HostileCase {
  name: string;
  method: string;
  /** Under /api/v4, sent as is (no normalisation of escapes). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer | (() => Buffer);
  expect: { status: number | number[] };
  /** Largest acceptable response body (default 64 KiB). */
  maxBodyBytes?: number;
}

const token = { 'PRIVATE-TOKEN': 'hostile' };
const json = { ...token, 'content-type': 'application/json' };
const mergeRequest = { source_branch: 'a', target_branch: 'main', title: 't' };
const MiB = 1024 * 1024;

function multipart(parts: { name: string; filename?: string; content: Buffer | string }[], boundary = 'hostileBoundary'): { headers: Record<string, string>; body: () => Buffer } {
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: () =>
      Buffer.concat([
        ...parts.flatMap((p) => [
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n\r\n`),
          Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content),
          Buffer.from('\r\n'),
        ]),
        Buffer.from(`--${boundary}--\r\n`),
      ]),
  };
}

const avatar = (bytes: number) => multipart([{ name: 'avatar', filename: 'a.png', content: Buffer.alloc(bytes, 1) }]);
const planted = multipart([{ name: '__proto__[private_token]', content: 'planted' }, { name: 'constructor[prototype][sudo]', content: 'root' }, { name: 'path', content: 'p' }, { name: 'file', filename: 'e.tar.gz', content: 'x' }]);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

export const mockHostileCases: HostileCase[] = [
  // Item 10: escapes.
  { name: 'bad escape in a path segment, no token', method: 'GET', path: '/projects/%FF/jobs', expect: { status: 400 } },
  { name: 'bad escape in a path segment', method: 'GET', path: '/projects/%E0%A4%A/jobs', headers: token, expect: { status: 400 } },
  { name: 'lone % in a path segment', method: 'GET', path: '/projects/%/jobs', headers: token, expect: { status: 400 } },
  { name: 'bad escape in an unrelated cookie is ignored', method: 'GET', path: '/projects/42/jobs', headers: { ...token, Cookie: 'foo=%' }, expect: { status: 200 } },
  { name: 'bad escape in the session cookie credential', method: 'GET', path: '/projects/42/jobs', headers: { Cookie: '_service_session=%' }, expect: { status: [400, 401] } },
  { name: 'bad escape in a query value', method: 'GET', path: '/projects/42/jobs?ref=%FF%', headers: token, expect: { status: 400 } },
  // Item 11: body limits.
  { name: '50 MB multipart avatar', method: 'PUT', path: '/user/avatar', headers: { ...token, ...avatar(50 * MiB).headers }, body: avatar(50 * MiB).body, expect: { status: 400 } },
  { name: '300 KB avatar, above 200 KiB', method: 'PUT', path: '/user/avatar', headers: { ...token, ...avatar(300_000).headers }, body: avatar(300_000).body, expect: { status: 400 } },
  { name: '200 KiB avatar, at the limit', method: 'PUT', path: '/user/avatar', headers: { ...token, ...avatar(204_800).headers }, body: avatar(204_800).body, expect: { status: 200 } },
  { name: '50 MB octet-stream on a JSON write', method: 'POST', path: '/projects/42/repository/files/a.txt', headers: { ...token, 'content-type': 'application/octet-stream' }, body: () => Buffer.alloc(50 * MiB, 97), expect: { status: 415 } },
  { name: '30 MB JSON body', method: 'POST', path: '/projects/42/merge_requests', headers: json, body: () => Buffer.from(JSON.stringify({ ...mergeRequest, description: 'x'.repeat(30 * MiB) })), expect: { status: 413 } },
  { name: '1,048,576-character description fits', method: 'POST', path: '/projects/42/merge_requests', headers: json, body: () => Buffer.from(JSON.stringify({ ...mergeRequest, description: 'é'.repeat(1_048_576) })), expect: { status: 201 } },
  { name: '5 MiB repository file content fits', method: 'POST', path: '/projects/42/repository/files/big.bin', headers: json, body: () => Buffer.from(JSON.stringify({ branch: 'main', commit_message: 'm', encoding: 'base64', content: Buffer.alloc(5 * MiB, 7).toString('base64') })), expect: { status: 201 } },
  { name: '50 MB body without credentials is refused before reading', method: 'POST', path: '/projects/42/merge_requests', headers: { 'content-type': 'application/json' }, body: () => Buffer.alloc(50 * MiB, 32), expect: { status: 401 } },
  // Item 12: empty values are values; single values for arrays; unknown multipart fields; 405.
  { name: 'empty Sudo header', method: 'GET', path: '/projects/42/jobs', headers: { ...token, Sudo: '' }, expect: { status: 400 } },
  { name: 'empty ?sudo=', method: 'GET', path: '/projects/42/jobs?sudo=', headers: token, expect: { status: 400 } },
  { name: 'empty ?per_page=', method: 'GET', path: '/projects/42/jobs?per_page=', headers: token, expect: { status: 400 } },
  { name: 'one value for an array parameter', method: 'GET', path: '/projects/42/merge_requests?approved_by_ids=3', headers: token, expect: { status: 200 } },
  { name: 'unknown multipart field on the avatar', method: 'PUT', path: '/user/avatar', headers: { ...token, ...multipart([{ name: 'avatar', filename: 'a.png', content: 'png' }, { name: 'colour', content: 'red' }]).headers }, body: multipart([{ name: 'avatar', filename: 'a.png', content: 'png' }, { name: 'colour', content: 'red' }]).body, expect: { status: 200 } },
  { name: 'another method on a known path', method: 'PATCH', path: '/projects/42/jobs', headers: token, expect: { status: 405 } },
  // Prototype keys.
  { name: 'prototype keys in the query, no token', method: 'GET', path: '/projects/42/jobs?__proto__[private_token]=x&constructor[prototype][private_token]=x&__proto__=x', expect: { status: 401 } },
  { name: 'prototype keys in the query', method: 'GET', path: '/projects/42/jobs?__proto__[private_token]=x&not[__proto__]=1', headers: token, expect: { status: 200 } },
  { name: 'prototype keys in deepObject', method: 'GET', path: '/users?custom_attributes[__proto__]=x&custom_attributes[constructor]=y', headers: token, expect: { status: [200, 400] } },
  { name: 'prototype keys in JSON', method: 'POST', path: '/projects/42/merge_requests', headers: json, body: JSON.stringify(mergeRequest).replace('{', '{"__proto__":{"private_token":"x","sudo":"root"},"constructor":{"prototype":{"private_token":"x"}},'), expect: { status: 201 } },
  { name: 'prototype keys in multipart names, no token', method: 'POST', path: '/projects/import', headers: planted.headers, body: planted.body, expect: { status: 401 } },
  { name: 'prototype keys in multipart names', method: 'POST', path: '/projects/import', headers: { ...token, ...planted.headers }, body: planted.body, expect: { status: [201, 400] } },
  { name: 'prototype keys in a form body', method: 'POST', path: '/projects/42/merge_requests', headers: { ...token, 'content-type': 'application/x-www-form-urlencoded' }, body: 'source_branch=a&target_branch=main&title=t&__proto__[private_token]=x&constructor[prototype][x]=1', expect: { status: 201 } },
  // Media types and malformed bodies.
  { name: 'wrong media type', method: 'POST', path: '/projects/42/merge_requests', headers: { ...token, 'content-type': 'application/xml' }, body: '<mr/>', expect: { status: 415 } },
  { name: 'no media type', method: 'POST', path: '/projects/42/merge_requests', headers: token, body: '{}', expect: { status: 415 } },
  { name: 'malformed JSON', method: 'POST', path: '/projects/42/merge_requests', headers: json, body: '{"title":', expect: { status: 400 } },
  { name: 'multipart without boundary', method: 'PUT', path: '/user/avatar', headers: { ...token, 'content-type': 'multipart/form-data' }, body: 'xx', expect: { status: 400 } },
  { name: 'multipart with a broken body', method: 'PUT', path: '/user/avatar', headers: { ...token, 'content-type': 'multipart/form-data; boundary=zz' }, body: '--zz\r\nnonsense', expect: { status: 400 } },
  { name: 'invalid UTF-8 in JSON', method: 'POST', path: '/projects/42/merge_requests', headers: json, body: Buffer.concat([Buffer.from('{"source_branch":"a","target_branch":"main","title":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]), expect: { status: [201, 400] } },
  // Sizes and shapes.
  { name: '8,000 repeated query parameters', method: 'GET', path: `/projects/42/jobs?${'a&'.repeat(8000)}`, headers: token, expect: { status: 400 } },
  { name: '8,000 repeated query parameters, no token', method: 'GET', path: `/projects/42/jobs?${'a&'.repeat(8000)}`, expect: { status: [400, 401] } },
  { name: '100 KB query', method: 'GET', path: `/projects/42/jobs?ref=${'x'.repeat(100_000)}`, headers: token, expect: { status: [400, 414, 431] } },
  { name: 'deeply nested JSON array', method: 'POST', path: '/projects/42/merge_requests', headers: json, body: () => Buffer.from('['.repeat(100_000) + ']'.repeat(100_000)), expect: { status: 400 } },
  { name: 'deeply nested JSON object', method: 'POST', path: '/projects/42/merge_requests', headers: json, body: () => Buffer.from(deepObject(50_000)), expect: { status: 400 } },
  { name: 'deep form field names', method: 'POST', path: '/projects/42/merge_requests', headers: { ...token, 'content-type': 'application/x-www-form-urlencoded' }, body: `source_branch=a&target_branch=main&title=t&${'a'.padEnd(20_000, '[x]')}=1`, expect: { status: 201 } },
  { name: '100,000 unknown JSON fields', method: 'POST', path: '/projects/42/merge_requests', headers: json, body: () => Buffer.from(JSON.stringify({ ...mergeRequest, ...Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])) })), expect: { status: 201 } },
  { name: '100,000 invalid array items', method: 'POST', path: '/projects/42/merge_requests', headers: json, body: () => Buffer.from(JSON.stringify({ ...mergeRequest, assignee_ids: Array.from({ length: 100_000 }, () => 'x') })), expect: { status: 400 } },
  { name: 'huge string in a query parameter of the right size', method: 'GET', path: `/projects/42/jobs?sudo=${'u'.repeat(8000)}`, headers: token, expect: { status: [200, 400] } },
  { name: 'bad id', method: 'GET', path: '/projects/42/jobs/abc', headers: token, expect: { status: 400 } },
  { name: 'negative id', method: 'GET', path: '/projects/42/jobs/-1', headers: token, expect: { status: [200, 400] } },
  { name: 'id beyond 2^53', method: 'GET', path: '/projects/42/jobs/99999999999999999999999', headers: token, expect: { status: [200, 400] } },
  { name: 'unknown Prefer example', method: 'GET', path: '/projects/42/jobs/7', headers: { ...token, Prefer: 'code=403, example=Nope' }, expect: { status: 400 } },
  { name: 'nonsense Prefer code', method: 'GET', path: '/projects/42/jobs/7', headers: { ...token, Prefer: 'code=abc' }, expect: { status: 400 } },
];
