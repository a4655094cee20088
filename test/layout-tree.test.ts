/**
 * The layout rules on this repository's openapi/ tree: every one of its 770 files parsed, a whole-document check of the
 * integration tier (test/layout.test.ts checks the rules on small trees).
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { checkLayout } from '../scripts/lib/layout.ts';
import { ROOT } from '../scripts/lib/paths.ts';

it('the openapi/ tree follows the layout rules', () => {
  expect(checkLayout(join(ROOT, 'openapi'))).toEqual([]);
});
