/** `npm test`, timed step by step: wall and CPU time of check, typecheck, gate and vitest, and the whole run. */
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../lib/paths.ts';
import { runStep, stepTimes, testSteps, type StepResult } from '../../lib/test-steps.ts';
import { goal, heading, table } from '../lib/report.ts';

export const name = 'test';

/** The runner `npm test` starts (package.json: `tsx scripts/test.ts`), run the same way without npm in front. */
const npmTest = { name: 'npm test', what: 'the four steps together', args: ['--import', 'tsx', join(ROOT, 'scripts', 'test.ts')] };

/** `  ✓ check      12.3 s (CPU 20.1 s)` lines of the runner's summary. */
function stepLines(output: string): Map<string, { wall: number; cpu: number; ok: boolean }> {
  const steps = new Map<string, { wall: number; cpu: number; ok: boolean }>();
  for (const match of output.matchAll(/^ {2}([✓✖]) (\S+)\s+([\d.]+) s \(CPU ([\d.]+) s\)$/gm)) {
    steps.set(match[2]!, { ok: match[1] === '✓', wall: Number(match[3]), cpu: Number(match[4]) });
  }
  return steps;
}

export async function run(options: { sequential: boolean }): Promise<void> {
  heading(
    'npm test',
    '`npm test` once, as CI runs it (scripts/test.ts starts check, typecheck, gate and vitest together); each step\'s wall\n' +
      'time and CPU time (user + system of its process and every process it waited for: tsc, npm, Chromium). On a shared\n' +
      `machine the wall time grows with the load and the CPU time barely does: CPU ÷ ${cpus().length} cores is what the run\n` +
      'would take at best on this machine left to itself.' +
      (options.sequential ? ' `--full` also runs the four steps one after another (the former `&&` chain) for comparison.' : ''),
  );
  const load = loadavg()[0]!;
  const together = await runStep(npmTest, false);
  const steps = stepLines(together.output);
  if (together.code !== 0 || steps.size === 0) {
    const failures = together.output.split('\n').filter((line) => /\bFAIL\b|Error:|✖/.test(line));
    console.log(`npm test failed (${together.code}):\n${failures.slice(0, 40).join('\n')}\n…\n${together.output.slice(-2000)}`);
    goal(name, 'npm test ≤ 60 s wall', `failed after ${together.wall.toFixed(1)} s`, false);
    return;
  }
  const tests = /^tests: .*$/m.exec(together.output)?.[0] ?? '';
  const rows = [...steps].map(([step, t]) => [step, t.wall.toFixed(1), t.cpu.toFixed(1)]);
  rows.push(['npm test (all together)', together.wall.toFixed(1), together.cpu.toFixed(1)]);

  let sequential: StepResult[] = [];
  if (options.sequential) {
    for (const step of testSteps()) sequential.push(await runStep(step, false));
    if (sequential.some((r) => r.code !== 0)) sequential = [];
  }
  const atBest = together.cpu / cpus().length;
  console.log(table(['step', 'wall s', 'CPU s'], rows));
  console.log(`\n${tests}; load average ${load.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.`);
  console.log(`CPU ${together.cpu.toFixed(1)} s ÷ ${cpus().length} cores = ${atBest.toFixed(1)} s: the wall time of this run on an otherwise idle machine, at best.`);
  if (sequential.length > 0) {
    const wall = sequential.reduce((s, r) => s + r.wall, 0);
    const cpu = sequential.reduce((s, r) => s + r.cpu, 0);
    console.log(`\nOne after another: ${sequential.map((r) => `${r.name} ${stepTimes(r)}`).join(', ')}; in all ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU.`);
    console.log(`Together / one after another: ${(together.wall / wall).toFixed(2)} of the wall time, ${(together.cpu / cpu).toFixed(2)} of the CPU time.`);
  }
  goal(name, 'npm test ≤ 60 s wall', `${together.wall.toFixed(1)} s (CPU ${together.cpu.toFixed(1)} s ÷ ${cpus().length} cores = ${atBest.toFixed(1)} s; load ${load.toFixed(1)})`, together.wall <= 60);
}
