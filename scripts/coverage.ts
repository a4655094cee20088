/**
 * npm run coverage [-- --inventory PATH]
 * Compares the published document with the seed inventory and prints operations, parameters and resource fields
 * covered per seed part and section, then everything missing; then the reverse: what the document has beyond the
 * inventory without a source in scripts/coverage-sources.json (exit code 1 when there is any).
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import {
  type Aliases,
  computeCoverage,
  type Inventory,
  reverseCoverage,
  type SectionCoverage,
  type Sources,
  sourceProblems,
} from './lib/coverage.ts';
import { PUBLISHED_JSON, ROOT } from './lib/paths.ts';

const DEFAULT_INVENTORY = join(ROOT, '..', 'shared', 'seed-inventory.json');

function fail(message: string): never {
  console.error(`✖ ${message}`);
  process.exit(1);
}

async function readJson<T>(path: string, hint: string): Promise<T> {
  const text = await readFile(path, 'utf8').catch(() => fail(`${path} is missing: ${hint}`));
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    return fail(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The seed texts beside the inventory (`seeds/*.txt`, Part 1 first), or undefined when there are none. */
async function readSeeds(): Promise<string[] | undefined> {
  const folder = join(dirname(values.inventory!), 'seeds');
  const names = (await readdir(folder).catch(() => [])).filter((name) => name.endsWith('.txt')).sort();
  return names.length === 0 ? undefined : Promise.all(names.map((name) => readFile(join(folder, name), 'utf8')));
}

const { values } = parseArgs({ options: { inventory: { type: 'string', default: DEFAULT_INVENTORY } } });
const doc = await readJson<OpenApiDocument>(PUBLISHED_JSON, 'run `npm run build` first');
const inventory = await readJson<Inventory>(values.inventory!, 'pass --inventory PATH to the seed inventory');
const aliases = await readJson<Aliases>(
  join(ROOT, 'scripts', 'coverage-aliases.json'),
  'it lists the documented naming choices',
);
const sections = computeCoverage(doc, inventory, aliases);

const cell = ({ covered, total }: { covered: number; total: number }) => (total === 0 ? '-' : `${covered}/${total}`);
const row = (cols: string[]) => `| ${cols.join(' | ')} |`;
console.log(`Seed coverage of ${doc.info.title} ${doc.info.version}\n`);
console.log(row(['Part', 'Section', 'Operations', 'Parameters', 'Resource fields', 'Missing']));
console.log(row(['---', '---', '---', '---', '---', '---']));
for (const s of sections)
  console.log(
    row([String(s.part), s.section, cell(s.operations), cell(s.parameters), cell(s.fields), String(s.missing.length)]),
  );

const total = (pick: (s: SectionCoverage) => { covered: number; total: number }, part?: number) =>
  sections
    .filter((s) => part === undefined || s.part === part)
    .reduce((acc, s) => ({ covered: acc.covered + pick(s).covered, total: acc.total + pick(s).total }), {
      covered: 0,
      total: 0,
    });
for (const part of [...new Set(sections.map((s) => s.part))]) {
  console.log(
    row([
      String(part),
      'all',
      cell(total((s) => s.operations, part)),
      cell(total((s) => s.parameters, part)),
      cell(total((s) => s.fields, part)),
      '',
    ]),
  );
}
console.log(
  row([
    'all',
    'all',
    cell(total((s) => s.operations)),
    cell(total((s) => s.parameters)),
    cell(total((s) => s.fields)),
    '',
  ]),
);

const choices = sections.flatMap((s) => s.choices.map((c) => `Part ${s.part} §${s.section}: ${c}`));
if (choices.length > 0)
  console.log(
    `\nCounted through documented choices (scripts/coverage-aliases.json):\n${choices.map((c) => `  - ${c}`).join('\n')}`,
  );

const missing = sections.flatMap((s) => s.missing.map((m) => `Part ${s.part} §${s.section}: ${m}`));
console.log(
  missing.length === 0
    ? '\nNothing missing.'
    : `\nMissing (${missing.length}):\n${missing.map((m) => `  - ${m}`).join('\n')}`,
);

const sources = await readJson<Sources>(
  join(ROOT, 'scripts', 'coverage-sources.json'),
  'it lists what the document has beyond the inventory, with the source of each',
);
const reverse = reverseCoverage(doc, inventory, aliases, sources);
const problems = [
  ...reverse.unlisted.map(
    (u) => `${u}: not in the inventory; list it with its source in scripts/coverage-sources.json`,
  ),
  ...reverse.unused.map((u) => `${u}: listed in scripts/coverage-sources.json, but the document does not need it`),
  ...sourceProblems(sources, await readSeeds()),
];
console.log(
  problems.length === 0
    ? '\nNothing beyond the inventory without a source.'
    : `\nBeyond the inventory (${problems.length}):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
);
if (problems.length > 0) process.exitCode = 1;
