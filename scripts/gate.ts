/**
 * The breaking-change gate (`npm run gate`, part of `npm test`): checks the recorded releases, then classifies every
 * difference between the published document and the latest release. Fails on a modified release, on a changed document
 * under a released version, and on breaking changes without a breaking version bump and a CHANGELOG mark.
 *   npm run gate -- --all     list every breaking difference, not only the first 25
 */
import { formatGate, gate, gateInputFromRepository, verifyReleases } from './lib/releases.ts';

const problems = verifyReleases();
const result = gate(gateInputFromRepository());
console.log(formatGate(result, process.argv.includes('--all') ? Infinity : 25));
if (problems.length > 0) console.error(`\n✖ Releases are immutable:\n${problems.map((p) => `  ${p}`).join('\n')}`);
if (problems.length > 0 || !result.ok) process.exit(1);
