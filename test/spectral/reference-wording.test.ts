import { describe, expect, it } from 'vitest';
import referenceWording from '../../scripts/spectral/reference-wording.js';

const cases: [string, unknown, number][] = [
  ['accepts reference prose', 'Merges the merge request. Answers 409 when `sha` is not the head.', 0],
  ['rejects a section citation', 'Merges it (Part 3 §3).', 1],
  ['rejects a bare section sign', 'See §7 rule 1.', 1],
  ['rejects the word seed', 'Not shown in the seed.', 1],
  ['rejects "not stated"', 'Type not stated; a string.', 1],
  ['ignores what is not text', 42, 0],
];

describe('reference-wording', () => {
  it.each(cases)('%s', (_title, given, want) => {
    expect(referenceWording(given)).toHaveLength(want);
  });
});
