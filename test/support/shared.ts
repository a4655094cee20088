/**
 * The shared material beside the worktree (`../shared`: the seeds and the seed inventory), which a checkout may lack.
 * A check that needs it must not vanish silently: without it the check fails on CI and is reported as skipped elsewhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.ts';

export const SHARED = join(ROOT, '..', 'shared');

/** The text of a file under `../shared`, or undefined when it is absent. */
export function readShared(relative: string): string | undefined {
  const path = join(SHARED, relative);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** The seed texts (`../shared/seeds/*.txt`), or undefined when there are none. */
export function readSeeds(): string[] | undefined {
  const folder = join(SHARED, 'seeds');
  if (!existsSync(folder)) return undefined;
  const texts = readdirSync(folder)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => readFileSync(join(folder, f), 'utf8'));
  return texts.length > 0 ? texts : undefined;
}

/** Declares the test that stands for checks that need `../shared/<what>`: failing on CI, skipped (and said so) elsewhere. */
export function sharedMissing(what: string): void {
  const title = `needs ../shared/${what}, which is absent`;
  if (process.env.CI === 'true') {
    it(title, () => {
      throw new Error(`CI=true but ../shared/${what} is missing: the checks against the seeds cannot run`);
    });
  } else {
    console.warn(`skipped: ${title}`);
    it.skip(title, () => undefined);
  }
}
