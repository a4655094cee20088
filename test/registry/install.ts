/**
 * test/registry: the npm registry of test/packages-install.test.ts (Verdaccio, loaded by test/support/registry.ts),
 * with its own package.json and lock file so that the root npm ci does not install it. The packages tier's global
 * setup (this file's default export, vitest.config.ts) installs it from the lock file before any of the tier's test
 * files (scripts/lib/locked-install.ts: exact versions, no install scripts, skipped when its stamp is current); a fresh
 * clone (CI) installs it once.
 */
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installLocked } from '../../scripts/lib/locked-install.ts';
import { ROOT } from '../../scripts/lib/paths.ts';

export const REGISTRY_FOLDER = dirname(fileURLToPath(import.meta.url));

export default async function installRegistry(): Promise<void> {
  const seconds = await installLocked(REGISTRY_FOLDER);
  if (seconds > 0)
    console.log(
      `test:packages: installed ${relative(ROOT, REGISTRY_FOLDER)}/package-lock.json in ${seconds.toFixed(1)} s`,
    );
}
