import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './root.ts';

/** The text of a hand-written template under generators/templates/, for a generator to copy into its package. */
export function template(name: string): Promise<string> {
  return readFile(join(ROOT, 'generators', 'templates', name), 'utf8');
}
