/**
 * npm run evidence [-- --check | --from-seeds [--shared DIR] | --from-entities DIR]
 * Writes docs/evidence.md, the table of every response record's fields with the evidence for each required and each
 * non-null claim, from the published document and openapi/evidence.yaml. `--check` fails when the table is stale or a
 * claim has no evidence; `--from-seeds` first adds the seed's words for the inventory's records and fields the
 * evidence file lacks (from ../shared: the seed inventory and the seeds); `--from-entities DIR` records the fields the
 * Service's entities (under DIR, a checkout of its source) expose only under a condition.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import type { Aliases } from './lib/coverage.ts';
import { EVIDENCE_MD, EVIDENCE_YAML, evidenceTable, evidenceYaml, readEvidence } from './lib/evidence-table.ts';
import { withEntityConditions } from './lib/evidence-entities.ts';
import { withSeedQuotes } from './lib/evidence-seeds.ts';
import { fieldClaims, unsupportedClaims } from './lib/evidence.ts';
import { PUBLISHED_JSON, ROOT } from './lib/paths.ts';

const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    'from-seeds': { type: 'boolean', default: false },
    shared: { type: 'string', default: join(ROOT, '..', 'shared') },
    'from-entities': { type: 'string' },
  },
});

if (values['from-seeds']) {
  const inventory = JSON.parse(readFileSync(join(values.shared!, 'seed-inventory.json'), 'utf8'));
  const folder = join(values.shared!, 'seeds');
  const seeds = readdirSync(folder)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => readFileSync(join(folder, f), 'utf8'));
  const source = withSeedQuotes(readEvidence(), inventory.resources, seeds);
  const header = readFileSync(EVIDENCE_YAML, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('#'));
  writeFileSync(EVIDENCE_YAML, evidenceYaml(source, header.join('\n')));
}

if (values['from-entities']) {
  const root = values['from-entities'];
  const read = (path: string) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined);
  const header = readFileSync(EVIDENCE_YAML, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('#'));
  writeFileSync(EVIDENCE_YAML, evidenceYaml(withEntityConditions(readEvidence(), read), header.join('\n')));
}

const doc = JSON.parse(readFileSync(PUBLISHED_JSON, 'utf8')) as OpenApiDocument;
const aliases = JSON.parse(readFileSync(join(ROOT, 'scripts', 'coverage-aliases.json'), 'utf8')) as Aliases;
const claims = fieldClaims(doc, readEvidence(), aliases);
const table = evidenceTable(claims);
const missing = unsupportedClaims(claims);
if (values.check) {
  const stale = readFileSync(EVIDENCE_MD, 'utf8') !== table;
  if (stale) console.error('✖ docs/evidence.md is stale: run `npm run evidence` and commit it');
  if (missing.length > 0) console.error(`✖ ${missing.length} claims without evidence:\n  ${missing.join('\n  ')}`);
  if (stale || missing.length > 0) process.exit(1);
} else writeFileSync(EVIDENCE_MD, table);
console.log(
  `${claims.length} fields; ${claims.filter((c) => c.required).length} required, ${claims.filter((c) => c.nonNull).length} non-null; ${missing.length} claims without evidence`,
);
