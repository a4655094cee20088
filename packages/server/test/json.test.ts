/**
 * The server runtime's JSON text (`responseJson`): always JSON.stringify's, with the text of a deeply frozen plain record
 * computed once, also when the record is an item of a fresh page array; anything that can still change is not kept.
 */
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerServiceApi, type Handlers } from '@service-api/server';
import { responseJson } from '../src/json.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Freezes a value through and through, as a server that keeps immutable records does. */
function deepFreeze<T>(value: T, seen = new Set<object>()): T {
  if (typeof value !== 'object' || value === null || seen.has(value)) return value;
  seen.add(value);
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child, seen);
  return value;
}

const record = () => ({
  id: 1,
  title: 'Add login',
  author: { id: 7, name: 'Jane' },
  labels: ['ui', 'é'],
  merged_at: null,
  draft: false,
  ratio: 0.5,
});
const frozenRecord = () => deepFreeze(record());
const sparse = () => {
  const array: unknown[] = [1];
  array[3] = 2;
  return array;
};

const values: [string, () => unknown][] = [
  ['a plain object', record],
  ['a deeply frozen record', frozenRecord],
  ['an array of frozen records', () => [frozenRecord(), frozenRecord()]],
  ['a deeply frozen array of records', () => deepFreeze([record(), record()])],
  ['an empty array', () => []],
  ['an empty frozen object', () => Object.freeze({})],
  [
    'a frozen object without prototype',
    () => deepFreeze(Object.assign(Object.create(null) as object, { a: 1, b: [2] })),
  ],
  ['a string', () => 'text "quoted" \u2028 \ud800 🎉'],
  ['numbers', () => [0, -0, 1.5, NaN, Infinity, -Infinity, 1e21]],
  ['booleans and null', () => [true, false, null]],
  ['a number', () => -0],
  ['null', () => null],
  ['undefined, functions and symbols in an array', () => [undefined, () => 1, Symbol('s'), frozenRecord()]],
  ['undefined, functions and symbols in an object', () => deepFreeze({ a: undefined, b: Symbol('s'), c: 1 })],
  ['a sparse array', () => [frozenRecord(), ...sparse()]],
  ['a sparse frozen array', () => deepFreeze(sparse())],
  ['dates', () => [frozenRecord(), new Date(0), { at: new Date(0) }]],
  [
    'toJSON gets the index of its item',
    () => [frozenRecord(), { toJSON: (key: string) => `item ${key}` }, { toJSON: () => undefined }],
  ],
  [
    'items past index 9',
    () => [
      ...Array.from({ length: 11 }, frozenRecord),
      { toJSON: (key: string) => `item ${key}` },
      new Date(0),
      undefined,
      { a: 1 },
    ],
  ],
  ['toJSON of the body', () => ({ toJSON: (key: string) => ({ key }) })],
  ['an array with its own toJSON', () => Object.assign([frozenRecord()], { toJSON: () => 'own' })],
  ['integer-like and __proto__ keys', () => deepFreeze(JSON.parse('{"b":1,"10":2,"2":3,"__proto__":4}') as object)],
  [
    'a record shared twice in a list',
    () => {
      const shared = frozenRecord();
      return [shared, { nested: shared }, shared];
    },
  ],
  ['nested arrays', () => [[frozenRecord()], deepFreeze([[1], [2]])]],
];

describe('responseJson is JSON.stringify', () => {
  it.each(values)('%s', (_title, make) => {
    const value = make();
    expect(responseJson(value)).toBe(JSON.stringify(value));
    expect(responseJson(value)).toBe(JSON.stringify(value)); // again, from what was kept
    const page = [frozenRecord(), value];
    expect(responseJson(page)).toBe(JSON.stringify(page));
  });

  it('throws on a frozen cycle as JSON.stringify does', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    Object.freeze(cycle);
    expect(() => responseJson(cycle)).toThrow(TypeError);
    expect(() => responseJson([frozenRecord(), cycle])).toThrow(TypeError);
  });
});

const calledWith = (spy: { mock: { calls: unknown[][] } }, value: unknown) =>
  spy.mock.calls.filter(([first]) => first === value).length;

describe('a deeply frozen record is serialized at most twice, then its text is kept', () => {
  it.each<[string, (value: object) => unknown]>([
    ['as the body', (value) => value],
    ['as an item of a fresh page array', (value) => [value]],
    ['in a deeply frozen array', (value) => deepFreeze([value])],
  ])('%s', (_title, wrap) => {
    const value = frozenRecord();
    const text = JSON.stringify(value);
    const spy = vi.spyOn(JSON, 'stringify');
    const first = responseJson(wrap(value));
    const second = responseJson(wrap(value));
    const sofar = calledWith(spy, value);
    expect(sofar).toBeLessThanOrEqual(2);
    expect(responseJson(wrap(value))).toBe(first);
    expect(responseJson(wrap(value))).toBe(first);
    expect(calledWith(spy, value)).toBe(sofar);
    expect(first).toBe(second);
    expect(first).toContain(text);
    expect(responseJson(value)).toBe(text);
  });

  it('a record sent three times calls JSON.stringify for it the first two times only (kept from its second response)', () => {
    const value = frozenRecord();
    const spy = vi.spyOn(JSON, 'stringify');
    const texts = [responseJson(value), responseJson(value)];
    expect(calledWith(spy, value)).toBe(2);
    texts.push(responseJson(value), responseJson(value));
    expect(calledWith(spy, value)).toBe(2);
    expect(new Set(texts).size).toBe(1);
  });
});

class Box {
  constructor(readonly label: string) {}
}

/** Values that may still change, each with how: never kept, always JSON.stringify's text of the moment. */
const changing: [string, () => { value: object; change: () => void }][] = [
  [
    'an unfrozen object',
    () => {
      const value = record();
      return { value, change: () => void (value.title = 'changed') };
    },
  ],
  [
    'a shallow-frozen object with an unfrozen nested object',
    () => {
      const author = { id: 7, name: 'Jane' };
      return { value: Object.freeze({ id: 1, author }), change: () => void (author.name = 'changed') };
    },
  ],
  [
    'a frozen array with an unfrozen item',
    () => {
      const item = { id: 1 };
      return { value: Object.freeze([item]), change: () => void (item.id = 2) };
    },
  ],
  [
    'a frozen object with a getter',
    () => {
      let count = 1;
      return {
        value: Object.freeze({
          get count() {
            return count;
          },
        }),
        change: () => void (count += 1),
      };
    },
  ],
  [
    'a frozen class instance',
    () => {
      class Labelled extends Box {}
      return {
        value: Object.freeze(new Labelled('first')),
        change: () => void ((Labelled.prototype as { toJSON?: () => string }).toJSON = () => 'changed'),
      };
    },
  ],
  [
    'a frozen Date',
    () => {
      const value = Object.freeze(new Date(0));
      return { value, change: () => void value.setTime(1000) };
    },
  ],
  [
    'a frozen object with toJSON',
    () => {
      let stamp = 'first';
      return { value: Object.freeze({ id: 1, toJSON: () => ({ stamp }) }), change: () => void (stamp = 'changed') };
    },
  ],
];

describe('what may still change is not kept', () => {
  it.each(changing)('%s, as the body and as an item', (_title, make) => {
    for (const wrap of [(value: object) => value, (value: object) => [frozenRecord(), value]]) {
      const { value, change } = make();
      const before = responseJson(wrap(value));
      expect(before).toBe(JSON.stringify(wrap(value)));
      change();
      const after = responseJson(wrap(value));
      expect(after).toBe(JSON.stringify(wrap(value)));
      expect(after).not.toBe(before);
    }
  });
});

describe('a page list through a server', () => {
  it('answers JSON.stringify of the same records, read after read and after a write', async () => {
    const records = [1, 2, 3].map((id) => deepFreeze({ ...record(), id, iid: id }));
    const handlers: Handlers<{ user: string }> = {
      // A fresh page array of kept records, as a stateful server's lists are (the body need not match the document here).
      'merge-requests/list-project-merge-requests': () => ({ status: 200, body: records.slice(0, 2) as never }),
    };
    const app = Fastify();
    await registerServiceApi(app, { handlers, authenticate: () => ({ user: 'jane' }) });
    const read = async () =>
      (await app.inject({ url: '/api/v4/projects/1/merge_requests', headers: { 'private-token': 't' } })).payload;
    try {
      expect(await read()).toBe(JSON.stringify(records.slice(0, 2)));
      expect(await read()).toBe(JSON.stringify(records.slice(0, 2)));
      records[1] = deepFreeze({ ...records[1]!, title: 'Renamed' });
      expect(await read()).toBe(JSON.stringify(records.slice(0, 2)));
    } finally {
      await app.close();
    }
  });
});
