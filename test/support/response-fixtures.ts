import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { ROOT } from '../../scripts/lib/paths.ts';

/** The realistic response bodies of `test/fixtures/responses/`: schema name → form name → body. */
export function loadResponseFixtures(): Record<string, Record<string, unknown>> {
  const folder = join(ROOT, 'test', 'fixtures', 'responses');
  return Object.fromEntries(
    readdirSync(folder)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => [f.slice(0, -5), YAML.parse(readFileSync(join(folder, f), 'utf8')) as Record<string, unknown>]),
  );
}
