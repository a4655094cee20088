/**
 * The breaking-change gate (`npm run gate`, part of `npm test`): checks that generated/ holds what `openapi/` bundles
 * to and the release record (releases/RELEASES.json: each release read from its commit), then classifies every
 * difference between the published document and the latest release. Fails on a stale generated/ (without a verdict),
 * on a release record that does not match the history, on a changed document under a released version, and on
 * breaking changes without a **Breaking** CHANGELOG entry per kind (and, for a release version, a breaking bump).
 *   npm run gate -- --all     list every breaking difference, not only the first 25
 *   --no-bundle               skip the stale check (npm test: its check step regenerates and compares generated/)
 */
import { bundleSource } from './lib/bundle.ts';
import { GATE_BUNDLE_JSON } from './lib/paths.ts';
import { recordProblems } from './lib/release-record.ts';
import { formatGate, type GateInput, gate, gateInputFromRepository, staleDocument } from './lib/releases.ts';

// Redocly bundles in a child process while this one reads the releases and judges.
const bundling = process.argv.includes('--no-bundle') ? undefined : bundleSource(GATE_BUNDLE_JSON);
const problems = recordProblems();
const report = (lines: string[]) =>
  console.error(
    `\n✖ The release record does not match the history (releases are immutable):\n${lines.map((p) => `  ${p}`).join('\n')}`,
  );
let input: GateInput;
try {
  input = gateInputFromRepository();
} catch (error) {
  report([...problems, (error as Error).message]);
  process.exit(1);
}
const result = gate(input);
const stale = await bundling?.then(
  (bundled) => staleDocument(bundled, input.currentFiles['openapi.json']!),
  (error: Error) => `Bundling openapi/ failed, so generated/ cannot be judged:\n${error.message}`,
);
if (stale) console.error(`✖ ${stale}`);
else console.log(formatGate(result, process.argv.includes('--all') ? Infinity : 25));
if (problems.length > 0) report(problems);
if (stale || problems.length > 0 || !result.ok) process.exit(1);
