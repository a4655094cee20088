import { describe, expect, it } from 'vitest';
import { formFields } from '../generators/templates/server-runtime.ts';

function form(entries: [string, string][]): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

describe('formFields', () => {
  const cases: [string, [string, string][], Record<string, unknown>][] = [
    ['plain fields', [['path', 'p'], ['name', 'n']], { path: 'p', name: 'n' }],
    ['a repeated name as an array', [['tags', 'a'], ['tags', 'b']], { tags: ['a', 'b'] }],
    ['name[key] fields as a hash', [['override_params[visibility]', 'private'], ['override_params[name]', 'n']], { override_params: { visibility: 'private', name: 'n' } }],
    ['nested keys', [['a[b][c]', '1']], { a: { b: { c: '1' } } }],
  ];
  it.each(cases)('%s', (_title, given, want) => {
    expect(formFields(form(given))).toEqual(want);
  });
});
