import { describe, expect, it } from 'vitest';
import mediaHasExample from '../../scripts/spectral/media-has-example.js';

const cases: [string, object, number][] = [
  ['accepts named examples', { schema: {}, examples: { Job: { value: {} } } }, 0],
  ['accepts a single example', { schema: {}, example: {} }, 0],
  ['accepts an example whose value is null', { schema: {}, example: null }, 0],
  ['rejects no example', { schema: { type: 'object' } }, 1],
  ['rejects an empty examples map', { schema: {}, examples: {} }, 1],
];

describe('media-has-example', () => {
  it.each(cases)('%s', (_title, given, want) => {
    expect(mediaHasExample(given)).toHaveLength(want);
  });
});
