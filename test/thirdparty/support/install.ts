/**
 * The third-party tier's global setup: installs its tools once per run, before any of its test files, from its lock
 * file (scripts/lib/locked-install.ts: exact versions, no install scripts, skipped when its stamp is current). The
 * tests themselves need no network.
 */
import { installLocked } from '../../../scripts/lib/locked-install.ts';
import { TIER } from './tools.ts';

export default async function installTools(): Promise<void> {
  const seconds = await installLocked(TIER);
  if (seconds > 0)
    console.log(`test:thirdparty: installed the tools of test/thirdparty/package-lock.json in ${seconds.toFixed(1)} s`);
}
