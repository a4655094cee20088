/**
 * The third-party tier's global setup: installs its tools once per run, before any of its test files, with
 * `npm ci --prefix test/thirdparty` from its lock file (exact versions; `--ignore-scripts`: no tool needs an install
 * script). A stamp of the lock file in node_modules/ makes a later local run skip the install; a fresh clone (CI) has
 * none and installs. The tests themselves need no network.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run, TIER } from './tools.ts';

const STAMP = join(TIER, 'node_modules', '.installed-lock.sha256');

export async function lockHash(): Promise<string> {
  const lock = await readFile(join(TIER, 'package-lock.json'));
  return createHash('sha256').update(`${process.platform}-${process.arch}\0`).update(lock).digest('hex');
}

export default async function installTools(): Promise<void> {
  const hash = await lockHash();
  if ((await readFile(STAMP, 'utf8').catch(() => '')).trim() === hash) return;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const installed = await run(npm, ['ci', '--prefix', TIER, '--ignore-scripts', '--no-audit', '--no-fund'], TIER);
  if (installed.code !== 0)
    throw new Error(`npm ci --prefix test/thirdparty failed (exit ${installed.code}):\n${installed.output}`);
  await writeFile(STAMP, `${hash}\n`);
  console.log(
    `test:thirdparty: installed the tools of test/thirdparty/package-lock.json in ${installed.seconds.toFixed(1)} s`,
  );
}
