import { describe, expect, it } from 'vitest';
import { coerce, formFields, parseCookies, parseForm, parseQuery, Tolerances } from '../generators/templates/server-runtime.ts';
import { exceedsValues } from '../generators/templates/server-input.ts';

function form(entries: [string, string][]): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('formFields', () => {
  const cases: [string, [string, string][], Record<string, unknown>][] = [
    ['plain fields', [['path', 'p'], ['name', 'n']], { path: 'p', name: 'n' }],
    ['a repeated name as an array', [['tags', 'a'], ['tags', 'b']], { tags: ['a', 'b'] }],
    ['name[key] fields as a hash', [['override_params[visibility]', 'private'], ['override_params[name]', 'n']], { override_params: { visibility: 'private', name: 'n' } }],
    ['nested keys', [['a[b][c]', '1']], { a: { b: { c: '1' } } }],
    ['name[] as a list', [['tag_list[]', 'a'], ['tag_list[]', 'b']], { tag_list: ['a', 'b'] }],
  ];
  it.each(cases)('%s', (_title, given, want) => {
    expect(plain(formFields(form(given)))).toEqual(want);
  });
});

describe('parsers refuse names that reach a prototype, and build objects that inherit nothing', () => {
  it.each(['__proto__[private_token]', 'constructor[prototype][sudo]', 'a[__proto__][b]', 'prototype', '__proto__'])('%s', (name) => {
    expect(() => formFields(form([[name, 'planted']]))).toThrow(/not allowed/);
    expect(() => parseForm(`${encodeURIComponent(name)}=planted`, 100)).toThrow(/not allowed/);
    expect(({} as Record<string, unknown>).private_token).toBeUndefined();
  });

  it('keeps inherited names out of parsed objects', () => {
    const query = parseQuery('toString=1&hasOwnProperty=2&valueOf=3');
    expect(Object.getPrototypeOf(Object.getPrototypeOf(query))).toBeNull();
    expect(plain(query)).toEqual({ toString: '1', hasOwnProperty: '2', valueOf: '3' });
    expect(parseQuery('a=1')['toString']).toBeUndefined();
  });
});

describe('parseQuery', () => {
  it('reads names as sent, deep and csv styles, repeated names as arrays', () => {
    expect(plain(parseQuery('scope[]=a&scope[]=b&range[start]=1&range[end]=2&ids=1,2&x', { range: 'deep', ids: 'csv' }))).toEqual({ 'scope[]': ['a', 'b'], range: { start: '1', end: '2' }, ids: ['1', '2'], x: '' });
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

describe('parseCookies', () => {
  it('ignores a cookie it cannot decode, unless it is the credential', () => {
    expect(plain(parseCookies('foo=%; _service_session=abc'))).toEqual({ _service_session: 'abc' });
    expect(() => parseCookies('_service_session=%', new Set(['_service_session']))).toThrow(/cookie _service_session is malformed/);
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
