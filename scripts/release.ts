/**
 * `npm run release`: records the published document as release `info.version`, once.
 * Copies generated/openapi/openapi.{json,yaml} to releases/<version>/ and appends their hashes to releases/SHA256SUMS.
 * Refuses when the version is already released, generated/ is stale, the versions disagree, the CHANGELOG has no
 * section for the version, or the breaking-change gate fails.
 *   npm run release -- --dry-run    every check, nothing written
 */
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT } from './lib/paths.ts';
import {
  formatGate,
  gate,
  gateInputFromRepository,
  HASHES_FILE,
  RELEASE_FILES,
  RELEASES_DIR,
  sha256,
  verifyReleases,
} from './lib/releases.ts';

function fail(message: string): never {
  console.error(`✖ ${message}`);
  process.exit(1);
}

console.log('Checking that generated/ is what the generators produce (npm run check)…');
const check = spawnSync(
  process.execPath,
  [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'scripts', 'build.ts'), '--check'],
  { stdio: 'inherit' },
);
if (check.status !== 0) fail('generated/ is not current: run npm run build and commit first');

const input = gateInputFromRepository();
const version = input.current.info.version;
const rootVersion = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
if (rootVersion !== version) fail(`package.json version ${rootVersion} differs from info.version ${version}`);
const target = join(RELEASES_DIR, version);
if (existsSync(target))
  fail(`releases/${version} exists: a release is never rewritten; raise info.version for a new one`);
const problems = verifyReleases();
if (problems.length > 0) fail(`the recorded releases are not intact:\n${problems.join('\n')}`);
const result = gate(input);
console.log(formatGate(result));
if (!result.ok) fail('the breaking-change gate fails');

if (process.argv.includes('--dry-run')) {
  console.log(`\nDry run: ${version} can be released (releases/${version}/ not written).`);
  process.exit(0);
}
mkdirSync(target, { recursive: true });
for (const name of RELEASE_FILES) {
  copyFileSync(join(ROOT, 'generated', 'openapi', name), join(target, name));
  appendFileSync(HASHES_FILE, `${sha256(readFileSync(join(target, name)))}  ${version}/${name}\n`);
}
console.log(`\nReleased ${version}: releases/${version}/openapi.json and openapi.yaml, hashes in releases/SHA256SUMS.`);
console.log(
  `Next: git add releases && git commit -m 'Release ${version}' && git tag -a v${version} -m 'Release ${version}'`,
);
