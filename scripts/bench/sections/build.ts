/**
 * The README's first step, `npm ci && npm run build`, in a fresh clone of HEAD (committed files only), with npm's cache
 * as this machine has it: `npm ci`, then the cold build (no stamp, no dist/: it lints and generates everything), then
 * the warm build (run again, nothing changed: the lint is skipped by its stamp). Each build is timed step by step from
 * the moment each line of its progress appears.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../lib/paths.ts';
import { childrenCpuSeconds } from '../../lib/test-steps.ts';
import { goal, heading, table } from '../lib/report.ts';

export const name = 'build';

interface Timed {
  code: number | null;
  wall: number;
  cpu: number;
  lines: { at: number; text: string }[];
  errors: string;
}

/** Runs a command in `cwd`, keeping each line of its output with the second it appeared; CPU of it and its children. */
async function timed(command: string, args: string[], cwd: string): Promise<Timed> {
  const started = performance.now();
  const cpuBefore = childrenCpuSeconds();
  const lines: Timed['lines'] = [];
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let buffered = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const text of parts)
      if (text.trim()) lines.push({ at: (performance.now() - started) / 1000, text: text.trim() });
  });
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, wall: (performance.now() - started) / 1000, cpu: childrenCpuSeconds() - cpuBefore, lines, errors };
}

/**
 * The build prints `[n/m] …` as a step starts and a generator's line (`types 1 file(s) in …`) as it ends: the time
 * between two such lines belongs to the generator the second one names, else to the step the first one starts.
 */
function buildSteps(run: Timed): Map<string, number> {
  const generatorLine = /^(\S+)\s+\d+ file\(s\) in (\S+)/;
  const marks = run.lines.filter((l) => /^\[\d+\/\d+\]/.test(l.text) || generatorLine.test(l.text));
  const steps = new Map<string, number>([['npm and tsx start-up', marks[0]?.at ?? 0]]);
  marks.slice(0, -1).forEach((mark, i) => {
    const next = marks[i + 1]!;
    const generated = generatorLine.exec(next.text);
    const step = generated ? `${generated[1]} → ${generated[2]}` : mark.text.slice(0, 80);
    steps.set(step, (steps.get(step) ?? 0) + next.at - mark.at);
  });
  return steps;
}

const seconds = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(1));
const times = (run: Timed) => `${run.wall.toFixed(1)} s (CPU ${run.cpu.toFixed(1)} s)`;

export async function run(): Promise<void> {
  heading(
    'Set-up and build, cold and warm',
    "The README's `npm ci && npm run build` in a fresh clone of HEAD (in a temporary folder; npm's cache as this machine\n" +
      'has it, the network reachable): `npm ci`; the cold build (a fresh clone has no stamp and no dist/: Redocly and\n' +
      'Spectral lint, every generator runs, every package compiles); then the warm build, run again with nothing changed\n' +
      '(the lint skipped by its stamp, generated/ and dist/ written again). Wall and CPU time (user + system of npm and\n' +
      `everything it waited for). CPU ÷ ${cpus().length} cores is what a step would take at best on this machine left to itself.`,
  );
  const clone = await mkdtemp(join(tmpdir(), 'service-api-bench-clone-'));
  try {
    const cloned = await timed('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone], ROOT);
    if (cloned.code !== 0) throw new Error(`git clone failed: ${cloned.errors}`);
    const install = await timed('npm', ['ci', '--no-audit', '--no-fund'], clone);
    if (install.code !== 0) {
      console.log(`npm ci failed (${install.code}):\n${install.errors.slice(-2000)}`);
      goal(name, 'README step 1 (npm ci && npm run build) ≤ 60 s wall, cold', 'npm ci failed', false);
      return;
    }
    const cold = await timed('npm', ['run', '--silent', 'build'], clone);
    const warm = cold.code === 0 ? await timed('npm', ['run', '--silent', 'build'], clone) : undefined;
    for (const run of [cold, warm])
      if (run && run.code !== 0) console.log(`npm run build failed (${run.code}):\n${run.errors.slice(-2000)}`);
    const coldSteps = buildSteps(cold);
    const warmSteps = warm ? buildSteps(warm) : new Map<string, number>();
    const names = [...new Set([...coldSteps.keys(), ...warmSteps.keys()])];
    console.log(
      table(
        ['build step', 'cold s', 'warm s'],
        names.map((step) => [step, seconds(coldSteps.get(step)), seconds(warmSteps.get(step))]),
      ),
    );
    console.log(`\nnpm ci: ${times(install)}`);
    console.log(`npm run build, cold: ${times(cold)}`);
    if (warm) console.log(`npm run build, warm: ${times(warm)}`);
    const setup = install.wall + cold.wall;
    const ok = cold.code === 0;
    goal(
      name,
      'README step 1 (npm ci && npm run build) ≤ 60 s wall, cold (fresh clone, npm cache warm)',
      ok
        ? `${setup.toFixed(1)} s (npm ci ${install.wall.toFixed(1)} s + build ${cold.wall.toFixed(1)} s; CPU ${(install.cpu + cold.cpu).toFixed(1)} s)`
        : 'build failed',
      ok && setup <= 60,
    );
    goal(name, 'npm run build ≤ 60 s wall, cold (fresh clone)', ok ? times(cold) : 'failed', ok && cold.wall <= 60);
    goal(
      name,
      'npm run build ≤ 15 s wall, warm (run again, nothing changed)',
      warm?.code === 0 ? times(warm) : 'failed',
      warm?.code === 0 && warm.wall <= 15,
    );
  } finally {
    await rm(clone, { recursive: true, force: true });
  }
}
