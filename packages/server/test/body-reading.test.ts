/**
 * The server package's one body reader (`parseBody`), which its Fastify parsers and the proxy both use: what each
 * media type reads as, and the 4xx of each refusal.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/input.ts';
import { parseBody, parseJsonBody } from '../src/parsers.ts';

const limits = { bodyFields: 10, jsonValues: 20 };
const bytes = (text: string) => new TextEncoder().encode(text);
const form = new FormData();
form.append('path', 'p');
form.append('file', new Blob(['x'.repeat(5)]), 'export.tar.gz');
const multipart = new Response(form);
const multipartType = multipart.headers.get('content-type')!;
const multipartBytes = new Uint8Array(await multipart.arrayBuffer());

async function refusal(read: () => unknown): Promise<[number, string] | 'read'> {
  try {
    await read();
    return 'read';
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return [error.statusCode, error.message];
  }
}

describe('parseBody', () => {
  it.each([
    ['JSON', 'application/json; charset=utf-8', '{"a":[1,2]}', { a: [1, 2] }],
    ['JSON with a byte order mark', 'application/json', '\uFEFF{"a":1}', { a: 1 }],
    ['a +json type', 'application/merge-patch+json', '{"a":1}', { a: 1 }],
    ['a form', 'application/x-www-form-urlencoded', 'a=1&b[c]=2', { a: '1', b: { c: '2' } }],
    ['an empty body of any type', 'text/plain', '', undefined],
  ])('reads %s', async (_name, type, text, expected) => {
    const value = await parseBody(type, bytes(text), limits);
    expect(value === undefined ? value : JSON.parse(JSON.stringify(value))).toEqual(expected);
  });

  it('reads multipart, files as Blobs, and refuses a file above its documented maximum', async () => {
    const fields = (await parseBody(multipartType, multipartBytes, limits)) as Record<string, unknown>;
    expect(fields.path).toBe('p');
    expect(fields.file).toBeInstanceOf(Blob);
    expect(await refusal(() => parseBody(multipartType, multipartBytes, limits, { file: 4 }))).toEqual([
      400,
      'file is too big (should be at most 4 bytes)',
    ]);
  });

  it.each([
    ['not JSON', 'application/json', '{oops', 400],
    ['a __proto__ key', 'application/json', '{"a":{"__proto__":{"x":1}}}', 400],
    ['constructor.prototype', 'application/json', '[{"constructor":{"prototype":{"x":1}}}]', 400],
    ['more values than the limit', 'application/json', JSON.stringify(Array.from({ length: 30 }, (_, i) => i)), 400],
    [
      'more form fields than the limit',
      'application/x-www-form-urlencoded',
      Array.from({ length: 11 }, (_, i) => `f${i}=1`).join('&'),
      400,
    ],
    ['multipart without a boundary', 'multipart/form-data', 'x', 400],
    ['a media type the server does not read', 'text/plain', 'x', 415],
  ])('refuses %s', async (_name, type, text, status) => {
    const result = await refusal(() => parseBody(type, bytes(text), limits));
    expect(result === 'read' ? result : result[0]).toBe(status);
  });

  it('keeps a harmless constructor field and leaves Object.prototype clean', () => {
    expect(parseJsonBody('{"constructor":"x","name":"n"}', limits.jsonValues)).toEqual({ constructor: 'x', name: 'n' });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
