import { describe, expect, it } from 'vitest';
import referenceWording from '../../scripts/spectral/reference-wording.js';

const cases: [string, unknown, number][] = [
  ['accepts reference prose', 'Merges the merge request. Answers 409 when `sha` is not the head.', 0],
  ['rejects a section citation', 'Merges it (Part 3 §3).', 1],
  ['rejects a bare section sign', 'See §7 rule 1.', 1],
  ['rejects the word seed', 'As the seed says.', 1],
  ['rejects "not stated"', 'Type not stated; a string.', 1],
  ['rejects "not shown"', 'Other values: not shown.', 1],
  ['rejects a guess', '`simple=true` presumably selects the simple view.', 1],
  ['rejects a pointer at the source table', 'Integer as in the PUT table.', 1],
  ['rejects the rest of a section number', 'The full view (`Project`.2).', 1],
  ['accepts a version or a sentence end after code', 'Use `v4`. 2 items; `ProjectSimple`, 2 fields.', 0],
  ['rejects an extension name', 'Every field is present, except those marked with `x-tiers`.', 1],
  ['rejects a schema keyword in parentheses', 'Exactly one of `cn` and `filter` (`oneOf`).', 1],
  ['rejects if/then in parentheses', '`group_id` is required for group runners (`if`/`then`).', 1],
  ['rejects schema talk', 'The fields are left untyped. Typed as its replacement. `Project` validates both views.', 1],
  ['rejects an extension as the reason', 'The body is open (`x-not-shown`).', 1],
  ['accepts a header named x-…', 'Answers with `x-next-page` and `x-page` headers.', 0],
  [
    'accepts the list of extensions the info explains',
    'Vendor extensions (`x-tiers`, `x-offerings`, …) mark tiers.',
    0,
  ],
  ['ignores what is not text', 42, 0],
];

describe('reference-wording', () => {
  it.each(cases)('%s', (_title, given, want) => {
    expect(referenceWording(given)).toHaveLength(want);
  });
});
