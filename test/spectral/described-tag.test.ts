import { describe, expect, it } from 'vitest';
import describedTag from '../../scripts/spectral/described-tag.js';

const context = { document: { data: { tags: [{ name: 'jobs', description: 'CI jobs' }, { name: 'bare' }] } } };
const cases: [string, object, string[]][] = [
  ['accepts one declared, described tag', { tags: ['jobs'] }, []],
  ['rejects no tag', {}, ['Operation must have exactly one tag, has 0']],
  ['rejects two tags', { tags: ['jobs', 'bare'] }, ['Operation must have exactly one tag, has 2']],
  ['rejects an undeclared tag', { tags: ['nope'] }, ['Tag "nope" is not declared in the top-level tags']],
  ['rejects a tag without description', { tags: ['bare'] }, ['Tag "bare" has no description']],
];

describe('described-tag', () => {
  it.each(cases)('%s', (_title, given, want) => {
    expect(describedTag(given, undefined, context).map((p: { message: string }) => p.message)).toEqual(want);
  });
});
