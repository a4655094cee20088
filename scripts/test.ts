/**
 * npm test [-- vitest arguments]: check (regenerate and compare generated/, build the packages' dist/), the contract lint
 * (Redocly, Spectral), the gate (breaking changes) and lint (Biome) start together; typecheck (tsc), vitest and the node matrix
 * (scripts/node-matrix.ts), which read dist/, start when check has passed. No step reads what another writes (except dist/), and each alone leaves a
 * core idle for much of its run; together they keep both cores busy. Vitest writes to the terminal as it runs; the
 * other steps' output follows it. Every step runs to its end, and `npm test` fails if any of them fails. The summary
 * gives each step's wall and CPU time.
 */
import { machineCpuSeconds, runStep, stepTimes, testSteps, type Step, type StepResult } from './lib/test-steps.ts';

const started = performance.now();
const machineStarted = machineCpuSeconds();
const steps = testSteps(process.argv.slice(2));
const vitest = steps.find((step) => step.name === 'vitest')!;
const check = steps.find((step) => step.name === 'check')!;
/** The steps that read the packages' dist/, which check builds. */
const afterCheck = new Set(['typecheck', 'node-matrix', 'vitest']);
const quiet = steps.filter((step) => step !== vitest && step !== check);

const inBackground = (step: Step) =>
  runStep(step, false).then((result) => {
    console.log(
      `\n${result.code === 0 ? '✓' : '✖'} npm test: ${step.name} ${result.code === 0 ? 'passed' : 'FAILED'} in ${stepTimes(result)}; its output follows the tests`,
    );
    return result;
  });

const early = quiet.filter((step) => !afterCheck.has(step.name)).map(inBackground);
console.log(`npm test: ${check.name} (${check.what})…`);
const checkResult = await runStep(check, false);
console.log(checkResult.output.trim());
if (checkResult.code !== 0) {
  await Promise.all(early);
  console.log(`\n✖ npm test: ${check.name} FAILED in ${stepTimes(checkResult)}: typecheck and vitest need it`);
  process.exit(1);
}
const late = quiet.filter((step) => afterCheck.has(step.name)).map(inBackground);
const vitestResult = await runStep(vitest, true);
const byName = new Map((await Promise.all([...early, ...late])).map((result) => [result.name, result]));
byName.set(check.name, checkResult);
byName.set(vitest.name, vitestResult);
const results: StepResult[] = steps.map((step) => byName.get(step.name)!);

for (const result of results.filter((r) => r !== checkResult && r !== vitestResult)) {
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
console.log('\nnpm test, its steps (typecheck and vitest after check, the others from the start):');
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
