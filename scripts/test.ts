/**
 * npm test [-- vitest arguments]: check (regenerate and compare generated/, build the packages' dist/) first, since the
 * others read dist/; then lint-contract (Redocly, Spectral), typecheck (tsc), gate (breaking changes), lint (Biome) and
 * vitest, started together. None of these reads what another writes, and each alone leaves a core idle for much of its
 * run (tsc and the gate use one core, the contract lint waits on its linters); together they keep both cores busy.
 * Vitest writes to the terminal as it runs; the other steps' output follows it. Every step runs to its end, and
 * `npm test` fails if any of them fails. The summary gives each step's wall and CPU time.
 */
import { machineCpuSeconds, runStep, stepTimes, testSteps, type StepResult } from './lib/test-steps.ts';

const started = performance.now();
const machineStarted = machineCpuSeconds();
const steps = testSteps(process.argv.slice(2));
const vitest = steps.find((step) => step.name === 'vitest')!;
const first = steps.find((step) => step.name === 'check')!;
const quiet = steps.filter((step) => step !== vitest && step !== first);

console.log(`npm test: ${first.name} (${first.what})…`);
const firstResult = await runStep(first, true);
if (firstResult.code !== 0) {
  console.log(`\n✖ npm test: ${first.name} FAILED in ${stepTimes(firstResult)}: the other steps need it`);
  process.exit(1);
}

const background = quiet.map((step) =>
  runStep(step, false).then((result) => {
    console.log(
      `\n${result.code === 0 ? '✓' : '✖'} npm test: ${step.name} ${result.code === 0 ? 'passed' : 'FAILED'} in ${stepTimes(result)}; its output follows the tests`,
    );
    return result;
  }),
);
const vitestResult = await runStep(vitest, true);
const results: StepResult[] = [firstResult, ...(await Promise.all(background)), vitestResult];

for (const result of results.slice(1, -1)) {
  console.log(`\n── ${result.name} (${quiet.find((s) => s.name === result.name)!.what}) ──`);
  console.log(
    result.output
      .split('\n')
      .filter((line) => !/^npm warn Unknown user config/.test(line))
      .join('\n')
      .trim(),
  );
}

const wall = (performance.now() - started) / 1000;
const cpu = results.reduce((sum, r) => sum + r.cpu, 0);
console.log('\nnpm test, its steps (check first, then the others together):');
for (const result of results)
  console.log(`  ${result.code === 0 ? '✓' : '✖'} ${result.name.padEnd(13)} ${stepTimes(result)}`);
console.log(`  in all: ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU`);
const machine = machineCpuSeconds() - machineStarted;
if (machine > 0)
  console.log(
    `  the machine's CPU meanwhile: ${machine.toFixed(1)} s (the steps' and Chromium's, which no step waits for, and anything else running)`,
  );
const failed = results.filter((r) => r.code !== 0);
if (failed.length > 0) {
  console.error(`\n✖ npm test failed: ${failed.map((r) => r.name).join(', ')}`);
  process.exit(1);
}
