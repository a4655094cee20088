/**
 * The strict consumer of the 0.5.0 consumer trial (`../shared/reviews/0.5.0/consumer/node`: a team's server, proxy,
 * fake flow and bundles, written against the packages under the alias `@acme/*`) still compiles against the packages
 * as built, under its own strict tsconfig (`exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`,
 * `skipLibCheck: false`), with its bundles too, and with no edit: a client or types change that breaks a team's code
 * fails here.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT, WORK_DIR } from '../scripts/lib/paths.ts';
import { SHARED, sharedMissing } from './support/shared.ts';

const CONSUMER = join(SHARED, 'reviews', '0.5.0', 'consumer', 'node');
const ALIASED = ['client', 'fake', 'mock', 'proxy', 'server', 'types', 'validators'];

/** The consumer's files in a folder of the work tree, its `@acme/*` imports linked to the built packages. */
function stage(): string {
  const out = join(WORK_DIR, 'reviewed-consumer');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'node_modules', '@acme'), { recursive: true });
  for (const part of ['src', 'test', 'bundles', 'package.json'])
    cpSync(join(CONSUMER, part), join(out, part), { recursive: true });
  for (const name of ALIASED) {
    const link = join(out, 'node_modules', '@acme', name);
    symlinkSync(relative(join(link, '..'), join(ROOT, 'packages', name)), link);
  }
  const tsconfig = JSON.parse(readFileSync(join(CONSUMER, 'tsconfig.json'), 'utf8')) as { include: string[] };
  tsconfig.include = [...tsconfig.include, 'bundles'];
  writeFileSync(join(out, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  return out;
}

describe('the reviewed strict consumer', () => {
  if (!existsSync(CONSUMER)) {
    sharedMissing('reviews/0.5.0/consumer/node');
    return;
  }
  it('compiles with its own strict options, bundles included, against the built packages', async () => {
    const folder = stage();
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: folder }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe('');
  }, 600_000);
});
