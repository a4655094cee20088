/**
 * Descriptions and summaries read as the API's reference: no "seed", no "Part 3 §7" (the section lives in `x-seed`),
 * no "not stated"/"not shown in the seed" (say "not documented"), no talk about the schema itself (extension names,
 * JSON Schema keywords, "left untyped", "typed as").
 */
const FORBIDDEN = [
  [/\bseeds?\b/i, 'mentions the seed'],
  [/\bPart [123]\b|§/, 'cites a section (put it in x-seed)'],
  [/\bnot stated\b/i, 'says "not stated" (say what a caller can rely on, or "not documented")'],
  [/\bnot shown\b/i, 'says "not shown" (say "not documented")'],
  [/\bpresumably\b/i, 'guesses ("presumably"): say what is not documented instead'],
  [/\bPUT table\b/i, 'points at a table of the source text, not at the API'],
  [/`[A-Za-z][A-Za-z0-9]*`\.\d/, 'keeps the rest of a removed section number (`Name`.2)'],
  [
    /\b(?:with|by|open|shape) \(?`x-(?:tiers|offerings|editions|not-shown|admin-only|stability|feature-flag|variants|varies-with-caller|seed|query-schema|enum-descriptions|pagination)`/,
    'names an extension the rendered reference does not show (say what it means: "Premium and Ultimate only")',
  ],
  [
    /\(`(?:oneOf|anyOf|allOf|not|if`\/`then|dependentSchemas|patternProperties)`\)/,
    'names a JSON Schema keyword (say the rule: "exactly one of `cn` and `filter`")',
  ],
  [/\bleft untyped\b|\btyped as\b|\bvalidates both\b/i, 'talks about the schema, not the API (say what is documented)'],
];

export default function referenceWording(text) {
  if (typeof text !== 'string') return [];
  return FORBIDDEN.filter(([pattern]) => pattern.test(text)).map(([, why]) => ({ message: `Text ${why}` }));
}
