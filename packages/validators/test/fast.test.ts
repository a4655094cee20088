import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import * as fast from '../dist/fast.js';
import * as full from '../dist/standalone.js';
import { dateTime, uri } from '../src/formats.ts';
import * as validators from '@service-api/validators';
import { pascalCase } from '../../../generators/lib/naming.ts';
import { publishedDocument } from '../../../test/support/documents.ts';

type Check = (value: unknown) => boolean;
const doc = publishedDocument();

/** Every example value of the document and every value nested in one, each once. */
function samplePool(): unknown[] {
  const seen = new Map<string, unknown>();
  const add = (value: unknown, depth: number) => {
    const key = JSON.stringify(value);
    if (key === undefined || seen.has(key)) return;
    seen.set(key, value);
    if (depth > 4 || typeof value !== 'object' || value === null) return;
    for (const child of Object.values(value)) add(child, depth + 1);
  };
  const walk = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example') add(value, 0);
      else if (key === 'examples' && typeof value === 'object' && value !== null) {
        for (const example of Object.values(value)) add((example as { value?: unknown }).value, 0);
      } else walk(value);
    }
  };
  walk(doc);
  for (const generic of [null, 0, -1, 1.5, '', 'x', true, [], {}, [{}], { id: 'x' }, { id: 1 }]) add(generic, 5);
  return [...seen.values()];
}

/** Broken copies of a valid object: each property (up to 25) removed, nulled, retyped or given a bad format. */
function mutants(value: unknown): unknown[] {
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value))
    return value.length
      ? [[...value, 'x'], [null], value.slice(1), ...mutants(value[0]).map((m) => [m, ...value.slice(1)])]
      : [['x']];
  const out: unknown[] = [{ ...value, ['__proto__']: 1 }];
  for (const key of Object.keys(value).slice(0, 25)) {
    const { [key]: dropped, ...rest } = value as Record<string, unknown>;
    out.push(rest);
    for (const bad of [
      null,
      typeof dropped === 'string' ? 12345 : 'x',
      'http://a b',
      '2025-13-01T00:00:00Z',
      '2025-03-11T10:02:11Z',
      'https://service.example/x',
    ]) {
      out.push({ ...value, [key]: bad });
    }
    if (typeof dropped === 'object' && dropped !== null)
      for (const inner of mutants(dropped).slice(0, 8)) out.push({ ...value, [key]: inner });
  }
  return out;
}

const pool = samplePool();
const fullExports = full as unknown as Record<string, Check>;
const fastExports = fast as unknown as Record<string, Check>;
const twins = Object.keys(fullExports).filter((name) => fastExports[`fast_${name}`]);

describe('fast validators', () => {
  it('exist for the exact validators that do not need evaluated-property tracking', () => {
    expect(twins.length).toBeGreaterThan(Object.keys(fullExports).length * 0.9);
    for (const name of Object.keys(validators.schemaValidators)) {
      expect(typeof (validators as unknown as Record<string, Check>)[`is${pascalCase(name)}`], name).toBe('function');
    }
  });

  it('agree with the full validators on valid and invalid samples of every component schema, response and body', () => {
    let valid = 0;
    let invalid = 0;
    const withValid = new Set<string>();
    for (const name of twins) {
      const check = fastExports[`fast_${name}`]!;
      const exact = fullExports[name]!;
      const accepted: unknown[] = [];
      for (const sample of pool) {
        const expected = exact(sample);
        if (check(sample) !== expected) expect.fail(`${name} disagrees on ${JSON.stringify(sample).slice(0, 300)}`);
        if (expected) accepted.push(sample);
      }
      for (const sample of accepted.slice(0, 4).flatMap(mutants)) {
        const expected = exact(sample);
        if (check(sample) !== expected)
          expect.fail(`${name} disagrees on mutant ${JSON.stringify(sample).slice(0, 300)}`);
        if (expected) valid += 1;
        else invalid += 1;
      }
      if (accepted.length) withValid.add(name);
      valid += accepted.length;
      invalid += pool.length - accepted.length;
    }
    // The pool holds the document's examples, so most schemas see valid values; every one sees invalid ones.
    expect(withValid.size).toBeGreaterThan(twins.length / 2);
    expect(valid).toBeGreaterThan(1000);
    expect(invalid).toBeGreaterThan(valid);
  }, 120_000);

  it('are what the guards use, and the full validators explain a failure', () => {
    const record = (doc.components!.examples as Record<string, { value: Record<string, unknown> }>).MergeRequestCreated!
      .value;
    expect(validators.isMergeRequest(record)).toBe(true);
    expect(validators.isMergeRequest({ ...record, id: 'x' })).toBe(false);
    // `oneOf: [UserBasic, null]` is checked as one type test in the fast path: null, an object, nothing else.
    for (const key of ['merge_user', 'assignee', 'milestone', 'pipeline']) {
      expect(validators.isMergeRequest({ ...record, [key]: null }), key).toBe(true);
      for (const bad of [[], 'x', 0, {}, { ...(record.author as object), id: 'x' }])
        expect(validators.isMergeRequest({ ...record, [key]: bad }), `${key} ${JSON.stringify(bad)}`).toBe(false);
    }
    expect(validators.validateSchema('MergeRequest', { ...record, id: 'x', created_at: 'yesterday' }).errors).toEqual([
      '/id must be integer',
      '/created_at must match format "date-time"',
    ]);
  });
});

describe('error lists', () => {
  it(`describe at most ${validators.MAX_ERRORS} problems and count the rest`, () => {
    const many = Array.from({ length: 30 }, () => ({ id: 'x' }));
    const result = validators.validateResponse('jobs/list-project-jobs', 200, many);
    expect(result.valid).toBe(false);
    expect(result.errors).toHaveLength(validators.MAX_ERRORS + 1);
    expect(result.errorCount).toBeGreaterThan(validators.MAX_ERRORS);
    expect(result.errors.at(-1)).toBe(`and ${result.errorCount! - validators.MAX_ERRORS} more problem(s)`);
  });
});

describe('formats', () => {
  const exactDateTime = (fullFormats['date-time'] as { validate: Check }).validate;
  const exactUri = fullFormats.uri as Check;

  it.each([
    '2025-03-11T10:02:11.912Z',
    '2025-03-11T10:02:11Z',
    '2025-03-11t10:02:11z',
    '2025-03-11T10:02:11+01:00',
    '2025-03-11T10:02:11-23:59',
    '2024-02-29T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2000-02-29T00:00:00Z',
    '2025-04-31T00:00:00Z',
    '2025-03-11 10:02:11Z',
    '2025-03-11T23:59:60Z',
    '2025-03-11T10:02:11+0100',
    '2025-03-11T10:02:11+01',
    '2025-13-11T10:02:11Z',
    '2025-00-11T10:02:11Z',
    '2025-03-00T10:02:11Z',
    '2025-03-11T10:02:11',
    '2025-03-11T24:00:00Z',
    '2025-03-11T10:60:00Z',
    '2025-03-11T10:02:11.Z',
    '2025-03-11T10:02:11+24:00',
    '2025-03-11T10:02:11+01:60',
    '2025-03-11T10:02:11Zx',
    '',
    'x',
    '2025-03-11T10:02:11Z\n',
    '2025-01-31T00:00:00Z',
    '2025-06-31T00:00:00Z',
    '2025-12-31T23:59:59.123456789Z',
    '0000-02-29T00:00:00Z',
    '2100-02-29T00:00:00Z',
    '2025-03-32T00:00:00Z',
    '2025-03-11T10:02:11+23:59',
    '2025-03-11T10:02:11-00:00',
    '2025-03-11T10:02:11+1:00',
    '2025-03-11T1:02:11Z',
    '2025-03-1T10:02:11Z',
    '\u0662025-03-11T10:02:11Z',
    '2025-03-11T10:02:11.1.2Z',
    '2025-03-11TT10:02:11Z',
  ])('date-time %j as ajv-formats', (value) => {
    expect(dateTime(value)).toBe(exactDateTime(value));
  });

  it.each([
    'https://service.example/my-group/my-project/-/merge_requests/1',
    'http://h/a',
    'http://h:8080/a?b=c#d',
    'HTTP://H/',
    'https://x.example/%20',
    'https://x.example/%2',
    'https://u:p@h/',
    'https://[::1]/',
    'mailto:a@b',
    'urn:isbn:1',
    'http://a b',
    'http://',
    'https:///x',
    'x',
    '',
    'http://h/a b',
    'http://h/é',
    'http://h/?q=%zz',
    'http://h#a#b',
    'http://h/"',
    'ftp://files.example/a',
  ])('uri %j as ajv-formats', (value) => {
    expect(uri(value)).toBe(exactUri(value));
  });

  it('agree with ajv-formats on generated near-miss strings', () => {
    const uriChars = 'aZ09-._~!$&\'()*+,;=:@/?#%[] "<>\\^`{|}é';
    for (let k = 0; k < 20_000; k += 1) {
      let value = ['http://', 'https://', 'HTTP://', 'http:/', 'mailto:', ''][k % 6]!;
      for (let j = 0; j < (k * 7) % 17; j += 1) value += uriChars[(k * 31 + j * 17 + (k >> 3) * j) % uriChars.length];
      if (uri(value) !== exactUri(value)) expect.fail(`uri ${JSON.stringify(value)}`);
    }
    const dateChars = '0123456789-:TtZz+. ';
    for (let k = 0; k < 20_000; k += 1) {
      const chars = '2024-02-29T23:59:59.123+05:30'.split('');
      chars[k % chars.length] = dateChars[(k >> 5) % dateChars.length]!;
      const value = chars.join('').slice(0, 20 + ((k >> 9) % 10));
      if (dateTime(value) !== exactDateTime(value)) expect.fail(`date-time ${JSON.stringify(value)}`);
    }
  });
});
