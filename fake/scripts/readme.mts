// Rewrites the list of implemented operations in the root README (between the fake-operations markers) from the code;
// the prose around it is edited by hand. Run from the repository root: node --import tsx fake/scripts/readme.mts
import fs from 'node:fs';
const m = await import('../src/index.ts');
const { routes } = await import('@service-api/server');
const START = '<!-- fake-operations:start -->';
const END = '<!-- fake-operations:end -->';
const list = m.implementedOperations.map((x: string) => '- `' + x + '`').join('\n');
const block = `${START}
Operations with a real handler (${m.implementedOperations.length} of the ${routes.length} operations; \`test/fake-cli.test.ts\` checks this list against the code):

${list}
${END}`;
const readme = fs.readFileSync('README.md', 'utf8');
const start = readme.indexOf(START);
const end = readme.indexOf(END);
if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} block`);
fs.writeFileSync('README.md', readme.slice(0, start) + block + readme.slice(end + END.length));
