/**
 * `npm run equivalence -- [--base <git ref>] [--runs N] [--seed N]`: what the current bundle
 * (generated/openapi/openapi.json) accepts and sends differently from the bundle at `--base` (default: main), by
 * values sampled from both and validated by both (scripts/lib/equivalence.ts). Prints each place that differs with a
 * value that tells the two apart; exits 0 either way (the differences are for the CHANGELOG to state).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { compareSampled } from './lib/equivalence.ts';
import { ROOT } from './lib/paths.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'main' },
    runs: { type: 'string', default: '30' },
    seed: { type: 'string', default: '1' },
  },
});
const file = 'generated/openapi/openapi.json';
const before = JSON.parse(
  execFileSync('git', ['show', `${values.base}:${file}`], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 }),
) as OpenApiDocument;
const after = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as OpenApiDocument;
const differences = compareSampled(before, after, Number(values.runs), Number(values.seed));
const show = (value: unknown) => JSON.stringify(value)?.slice(0, 160);
for (const d of differences) {
  console.log(d.where);
  if ('onlyNew' in d) console.log(`  accepted now, refused by ${values.base}: ${show(d.onlyNew)}`);
  if ('onlyOld' in d) console.log(`  refused now, accepted by ${values.base}: ${show(d.onlyOld)}`);
}
console.log(
  `${differences.length} place(s) differ from ${values.base} (${values.runs} values per schema and side, seed ${values.seed}).`,
);
