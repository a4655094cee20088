import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formFields, parseCookies, parseForm, parseQuery } from '../src/input.ts';
import { coerce, normalizeInput, Tolerances } from '../src/tolerance.ts';
import { exceedsValues } from '../src/input.ts';
import { TOKEN } from '../../../test/hostile/cases.ts';
import { startExampleServer, type ExampleServer } from '../../../test/support/example-server.ts';

function form(entries: [string, string][]): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('formFields', () => {
  const cases: [string, [string, string][], Record<string, unknown>][] = [
    [
      'plain fields',
      [
        ['path', 'p'],
        ['name', 'n'],
      ],
      { path: 'p', name: 'n' },
    ],
    [
      'a repeated name as an array',
      [
        ['tags', 'a'],
        ['tags', 'b'],
      ],
      { tags: ['a', 'b'] },
    ],
    [
      'name[key] fields as a hash',
      [
        ['override_params[visibility]', 'private'],
        ['override_params[name]', 'n'],
      ],
      { override_params: { visibility: 'private', name: 'n' } },
    ],
    ['nested keys', [['a[b][c]', '1']], { a: { b: { c: '1' } } }],
    [
      'name[] as a list',
      [
        ['tag_list[]', 'a'],
        ['tag_list[]', 'b'],
      ],
      { tag_list: ['a', 'b'] },
    ],
  ];
  it.each(cases)('%s', (_title, given, want) => {
    expect(plain(formFields(form(given)))).toEqual(want);
  });
});

describe('parsers refuse names that reach a prototype, and build objects that inherit nothing', () => {
  it.each(['__proto__[private_token]', 'constructor[prototype][sudo]', 'a[__proto__][b]', 'prototype', '__proto__'])(
    '%s',
    (name) => {
      expect(() => formFields(form([[name, 'planted']]))).toThrow(/not allowed/);
      expect(() => parseForm(`${encodeURIComponent(name)}=planted`, 100)).toThrow(/not allowed/);
      expect(({} as Record<string, unknown>).private_token).toBeUndefined();
    },
  );

  it('keeps inherited names out of parsed objects', () => {
    const query = parseQuery('toString=1&hasOwnProperty=2&valueOf=3');
    expect(Object.getPrototypeOf(Object.getPrototypeOf(query))).toBeNull();
    expect(plain(query)).toEqual({ toString: '1', hasOwnProperty: '2', valueOf: '3' });
    expect(parseQuery('a=1').toString).toBeUndefined();
  });
});

describe('parseQuery', () => {
  it('reads names as sent, deep and csv styles, repeated names as arrays', () => {
    expect(
      plain(parseQuery('scope[]=a&scope[]=b&range[start]=1&range[end]=2&ids=1,2&x', { range: 'deep', ids: 'csv' })),
    ).toEqual({ 'scope[]': ['a', 'b'], range: { start: '1', end: '2' }, ids: ['1', '2'], x: '' });
  });

  it('keeps 8,000 repeats of a name in one array (appended in place)', () => {
    expect((parseQuery('a&'.repeat(8000), {}, 10_000).a as unknown[]).length).toBe(8000);
  });

  it('refuses more parameters than the limit and malformed escapes', () => {
    expect(() => parseQuery('a&'.repeat(1001))).toThrow(/more than 1000 query parameters/);
    expect(() => parseQuery('per_page=%')).toThrow(/malformed percent-escape/);
    expect(() => parseQuery('ref=%FF')).toThrow(/malformed percent-escape/);
  });
});

describe('arrays as Rack and the Service read them', () => {
  const shape = {
    q: { 'user_ids[]': { a: 'i' as const }, 'scope[]': { a: 0 as const }, state: 0 as const },
    p: [],
    u: { user_ids: 'comma-separated' as const, scope: 'one-value' as const },
  };
  const read = (raw: string) => {
    const t = new Tolerances(20);
    const input = { method: 'GET', shape, params: {}, query: parseQuery(raw), body: undefined };
    return { query: plain(normalizeInput(input, t).query), tolerated: t.list.map((x) => x.problem) };
  };

  it('builds a list from name[] only', () => {
    expect(read('user_ids[]=3&user_ids[]=4')).toEqual({ query: { 'user_ids[]': [3, 4] }, tolerated: [] });
  });

  it('reads the last of a repeated plain name (Rack), reported', () => {
    expect(read('state=opened&state=closed')).toEqual({
      query: { state: 'closed' },
      tolerated: ['query parameter state is sent 2 times: the last value is read'],
    });
  });

  it('reads a plain name of a list as the Service declares it: split at commas, or one value', () => {
    expect(read('user_ids=3,4,')).toEqual({
      query: { 'user_ids[]': [3, 4] },
      tolerated: ['query parameter user_ids "3,4," read as user_ids[]=3&user_ids[]=4'],
    });
    expect(read('user_ids=2&user_ids=3').query).toEqual({ 'user_ids[]': [3] });
    expect(read('scope=failed,success').query).toEqual({ 'scope[]': ['failed,success'] });
  });

  it('replaces name[] by a later plain name, and refuses name[] after a plain name (Rack)', () => {
    expect(read('user_ids[]=1&user_ids=3').query).toEqual({ 'user_ids[]': [3] });
    expect(() => parseQuery('user_ids=3&user_ids[]=1')).toThrow(/user_ids is sent as a value before user_ids\[\]/);
  });
});

describe('a name sent both plain and bracketed is a 400 naming it, in either order', () => {
  it.each([
    [
      'query, plain first',
      () => parseQuery('custom_attributes=a&custom_attributes[b]=c', { custom_attributes: 'deep' }),
      /query parameter custom_attributes is sent both/,
    ],
    [
      'query, bracketed first',
      () => parseQuery('custom_attributes[b]=c&custom_attributes=a', { custom_attributes: 'deep' }),
      /query parameter custom_attributes is sent both/,
    ],
    [
      'query, a list and a hash',
      () => parseQuery('custom_attributes[]=a&custom_attributes[b]=c', { custom_attributes: 'deep' }),
      /query parameter custom_attributes is sent both/,
    ],
    ['form, plain first', () => parseForm('labels=x&labels[a]=y', 100), /body field labels is sent both/],
    ['form, a hash then a list', () => parseForm('labels[a]=y&labels[]=x', 100), /body field labels is sent both/],
    ['form, nested', () => parseForm('a[b]=1&a[b][c]=2', 100), /body field a is sent both/],
    [
      'multipart',
      () =>
        formFields(
          form([
            ['a[b]', '1'],
            ['a', '2'],
          ]),
        ),
      /body field a is sent both/,
    ],
  ])('%s', (_title, parse, message) => {
    expect(parse).toThrow(message);
  });

  it('keeps lists and hashes sent one way', () => {
    expect(plain(parseForm('a[]=1&a[]=2&h[x]=1&h[y]=2', 100))).toEqual({ a: ['1', '2'], h: { x: '1', y: '2' } });
  });
});

describe('parseCookies', () => {
  it('ignores a cookie it cannot decode, the session cookie too (no credential)', () => {
    expect(plain(parseCookies('foo=%; _service_session=abc'))).toEqual({ _service_session: 'abc' });
    expect(plain(parseCookies('_service_session=%; other=1'))).toEqual({ other: '1' });
  });
});

describe('coerce', () => {
  const cases: [string, unknown, Parameters<typeof coerce>[1], Parameters<typeof coerce>[2], unknown, number][] = [
    ['query "true" is exact', 'true', 'b', 'query', true, 0],
    ['query "True" is tolerated', 'True', 'b', 'query', true, 1],
    ['query "0" is tolerated', '0', 'b', 'query', false, 1],
    ['JSON "false" is tolerated', 'false', 'b', 'json', false, 1],
    ['JSON 1 is tolerated', 1, 'b', 'json', true, 1],
    ['"yes" is left for the validator', 'yes', 'b', 'query', 'yes', 0],
    ['form "42" is exact', '42', 'i', 'form', 42, 0],
    ['JSON "42" is tolerated', '42', 'i', 'json', 42, 1],
    ['a 16-digit string is left for the validator', '1234567890123456', 'i', 'form', '1234567890123456', 0],
    ['one form value for a list', '3', { a: 'i' }, 'form', [3], 0],
    ['unknown keys of an object are dropped', { a: 'True', b: 1 }, { o: { a: 'b' } }, 'json', { a: true }, 2],
  ];
  it.each(cases)('%s', (_title, value, shape, source, want, tolerated) => {
    const t = new Tolerances(20);
    expect(plain(coerce(value, shape, source, 'field', 'body', t))).toEqual(want);
    expect(t.count).toBe(tolerated);
  });
});

describe('exceedsValues', () => {
  it.each([
    ['a scalar', 'x', 1, false],
    ['an object and its values', { a: 1, b: [2, 3] }, 5, false],
    ['one value too many', { a: 1, b: [2, 3] }, 4, true],
    ['a long array', Array.from({ length: 1001 }, () => 0), 1000, true],
  ])('%s', (_title, value, max, want) => {
    expect(exceedsValues(value, max)).toBe(want);
  });
});

/** A request body for fetch: a FormData, text, or a stream (sent chunked, without Content-Length). */
type Body = () => FormData | string | ReadableStream<Uint8Array>;

const avatar = (size: number) => () => {
  const data = new FormData();
  data.append('avatar', new Blob([new Uint8Array(size).fill(0x89)], { type: 'image/png' }), 'avatar.png');
  return data;
};
const title = (size: number) => () =>
  JSON.stringify({ source_branch: 'a', target_branch: 'b', title: 'x'.repeat(size) });
const chunked = (size: number) => () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (let sent = 0; sent < size; sent += 16 * 1024)
        controller.enqueue(new Uint8Array(Math.min(16 * 1024, size - sent)).fill(0x20));
      controller.close();
    },
  });
const JSON_HEADERS = { ...TOKEN, 'Content-Type': 'application/json' };

describe("refusals of an upload are read by Node's fetch (the body is discarded first, up to a bound)", () => {
  let server: ExampleServer;
  beforeAll(async () => {
    server = await startExampleServer({ limits: { jsonBody: 64 * 1024 } });
  });
  afterAll(() => server?.close());

  const cases: [string, string, string, Record<string, string>, Body, number, RegExp][] = [
    [
      'a 300 KB avatar (200 KiB maximum, declared length above the body limit)',
      'PUT',
      '/user/avatar',
      TOKEN,
      avatar(300_000),
      400,
      /avatar is too big \(should be at most 200 KiB\)/,
    ],
    ['a 250 KB avatar (read, then refused)', 'PUT', '/user/avatar', TOKEN, avatar(250_000), 400, /avatar is too big/],
    [
      'a 200 KB JSON body over a 64 KiB limit',
      'POST',
      '/projects/1/merge_requests',
      JSON_HEADERS,
      title(200_000),
      413,
      /the body is larger than 64 KiB/,
    ],
    [
      'a chunked 200 KB JSON body over a 64 KiB limit',
      'POST',
      '/projects/1/merge_requests',
      JSON_HEADERS,
      chunked(200_000),
      413,
      /the body is larger than 64 KiB/,
    ],
    [
      'a 500 KB JSON body without credentials',
      'POST',
      '/projects/1/merge_requests',
      { 'Content-Type': 'application/json' },
      title(500_000),
      401,
      /^401 Unauthorized$/,
    ],
    [
      'a 300 KB multipart body on a method the path does not have',
      'PUT',
      '/users/1',
      TOKEN,
      avatar(300_000),
      405,
      /^405 Method Not Allowed$/,
    ],
    [
      'a 300 KB text/plain body',
      'POST',
      '/projects/1/merge_requests',
      { ...TOKEN, 'Content-Type': 'text/plain' },
      title(300_000),
      415,
      /^415 Unsupported Media Type/,
    ],
  ];
  /**
   * Sends the head and half the body; once the server has read them all (`read`: its own socket's count, a state, not
   * a moment on the clock) or answered (`answer`), sends the rest. Gives what had arrived and what the server had
   * written before the rest, and the whole answer.
   */
  async function halfThenRest(
    declared: number,
    waitFor: 'read' | 'answer',
  ): Promise<{ early: string; written: number; answer: string }> {
    const { port } = new URL(server.origin);
    const accepted = new Promise<Socket>((resolve) => server.app.server.once('connection', resolve));
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => void (received += chunk.toString('latin1')));
    socket.on('error', () => undefined); // a reset after the answer is the case being tested
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const half = Buffer.alloc(Math.floor(declared / 2), 0x20);
    const head = `POST /api/v4/projects/1/merge_requests HTTP/1.1\r\nHost: x\r\nPRIVATE-TOKEN: t\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`;
    socket.write(head);
    socket.write(half);
    const peer = await accepted;
    // Hang guards only: the wait ends on the state, however long the machine takes.
    if (waitFor === 'read')
      await vi.waitFor(() => expect(peer.bytesRead).toBe(head.length + half.length), { timeout: 50_000, interval: 5 });
    else await vi.waitFor(() => expect(received).not.toBe(''), { timeout: 50_000, interval: 5 });
    const [early, written] = [received, peer.bytesWritten];
    if (!socket.destroyed) socket.write(Buffer.alloc(declared - half.length, 0x20));
    await closed;
    return { early, written, answer: received };
  }

  it('answers a body within the bound only once it has arrived, then closes', async () => {
    const { early, written, answer } = await halfThenRest(200_000, 'read');
    expect([early, written]).toEqual(['', 0]);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toMatch(/\r\n\r\n\{"message":"413 Payload Too Large - the body is larger than 64 KiB"\}$/);
  });

  it('answers a body declared beyond the bound (4 × 64 KiB) at once', async () => {
    const { early } = await halfThenRest(300 * 1024, 'answer');
    expect(early).toMatch(/^HTTP\/1\.1 413 /);
  });

  it.each(cases)('%s → %i', async (_title, method, path, headers, body, status, message) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await fetch(`${server.origin}/api/v4${path}`, {
        method,
        headers,
        body: body(),
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(((await response.json()) as { message: string }).message).toMatch(message);
    }
  });
});
