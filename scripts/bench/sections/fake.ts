/** The stateful fake of issue 12: not built yet, so there is nothing to measure. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../lib/paths.ts';
import { goal, heading } from '../lib/report.ts';

export const name = 'fake';

export async function run(): Promise<void> {
  heading('Stateful fake', 'The stateful fake (issue 12) is to be measured like the mock: against the Prism CLI and node:http.');
  const candidates = ['scripts/fake.ts', 'scripts/fake/server.ts'].filter((p) => existsSync(join(ROOT, p)));
  const text = candidates.length
    ? `found ${candidates.join(', ')}, but this bench has no section for it yet`
    : 'not built yet (issue 12 is open): nothing measured';
  console.log(text);
  goal(name, 'fake measured against Prism CLI and node:http', text, null);
}
