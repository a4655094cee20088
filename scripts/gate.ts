/**
 * The breaking-change gate (`npm run gate`, part of `npm test`): checks that generated/ holds what `openapi/` bundles
 * to and the recorded releases, then classifies every difference between the published document and the latest
 * release. Fails on a stale generated/ (without a verdict), on a modified release, on a changed document under a
 * released version, and on breaking changes without a breaking version bump and a CHANGELOG mark.
 *   npm run gate -- --all     list every breaking difference, not only the first 25
 */
import { bundleSource } from './lib/bundle.ts';
import { GATE_BUNDLE_JSON } from './lib/paths.ts';
import { formatGate, gate, gateInputFromRepository, staleDocument, verifyReleases } from './lib/releases.ts';

// Redocly bundles in a child process while this one reads the releases and judges.
const bundling = bundleSource(GATE_BUNDLE_JSON);
const input = gateInputFromRepository();
const problems = verifyReleases();
const result = gate(input);
const stale = await bundling.then(
  (bundled) => staleDocument(bundled, input.currentFiles['openapi.json']!),
  (error: Error) => `Bundling openapi/ failed, so generated/ cannot be judged:\n${error.message}`,
);
if (stale) console.error(`✖ ${stale}`);
else console.log(formatGate(result, process.argv.includes('--all') ? Infinity : 25));
if (problems.length > 0) console.error(`\n✖ Releases are immutable:\n${problems.map((p) => `  ${p}`).join('\n')}`);
if (stale || problems.length > 0 || !result.ok) process.exit(1);
