/**
 * The third-party tier's global setup: installs its tools and the pinned Nodes (test/nodes, whose Node 24 runs the tools
 * needing Node >= 22) once per run, before any of its test files, each from its lock file
 * (scripts/lib/locked-install.ts: exact versions, no install scripts, skipped when its stamp is current). The tests
 * themselves need no network.
 */
import { relative } from 'node:path';
import { installLocked } from '../../../scripts/lib/locked-install.ts';
import { ROOT } from '../../../scripts/lib/paths.ts';
import { NODES_FOLDER } from '../../../scripts/node-matrix.ts';
import { TIER } from './tools.ts';

export default async function installTools(): Promise<void> {
  for (const folder of [TIER, NODES_FOLDER]) {
    const seconds = await installLocked(folder);
    if (seconds > 0)
      console.log(`test:thirdparty: installed ${relative(ROOT, folder)}/package-lock.json in ${seconds.toFixed(1)} s`);
  }
}
