// Rewrites the list of implemented operations in docs/fake.md (between the fake-operations markers) from the code;
// the prose around it is edited by hand. Run from the repository root: node --import tsx packages/fake/scripts/operations-list.mts
import fs from 'node:fs';
const { implementedOperations } = await import('../src/index.ts');
const { routes } = await import('@service-api/server');
const FILE = 'docs/fake.md';
const START = '<!-- fake-operations:start -->';
const END = '<!-- fake-operations:end -->';
const list = implementedOperations.map((id: string) => '- `' + id + '`').join('\n');
const block = `${START}
Operations with a real handler (${implementedOperations.length} of the ${routes.length} operations; \`packages/fake/test/cli.test.ts\` checks this list against the code). Each handler is in the folder of its tag, the operationId's first segment: \`users/list-users\` is in \`packages/fake/src/handlers/users/\` (\`packages/fake/test/handler-layout.test.ts\` checks it).

${list}
${END}`;
const text = fs.readFileSync(FILE, 'utf8');
const start = text.indexOf(START);
const end = text.indexOf(END);
if (start < 0 || end < start) throw new Error(`${FILE} has no ${START} … ${END} block`);
fs.writeFileSync(FILE, text.slice(0, start) + block + text.slice(end + END.length));
