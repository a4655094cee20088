// Rewrites the parameter table in docs/fake.md (between the fake-parameters markers) from
// packages/fake/src/handlers/parameters.ts. Run from the repository root:
// node --import tsx packages/fake/scripts/parameters-list.mts
import fs from 'node:fs';
const { parameterTablesMarkdown } = await import('../src/handlers/parameters.ts');
const FILE = 'docs/fake.md';
const START = '<!-- fake-parameters:start -->';
const END = '<!-- fake-parameters:end -->';
const text = fs.readFileSync(FILE, 'utf8');
const start = text.indexOf(START);
const end = text.indexOf(END);
if (start < 0 || end < start) throw new Error(`${FILE} has no ${START} … ${END} block`);
fs.writeFileSync(FILE, `${text.slice(0, start)}${START}\n${parameterTablesMarkdown()}\n${text.slice(end)}`);
