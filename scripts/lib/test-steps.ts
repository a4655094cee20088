/**
 * The steps of `npm test`, each its own process, with the wall and CPU time each took. Used by `npm test`
 * (scripts/test.ts) and by the bench's test section, so that both time the same commands.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, WORK_DIR } from './paths.ts';
import { PACKAGES } from './packages.ts';
import { GENERATED, LINT } from './stamps.ts';

/** tsc's record of what it checked (git-ignored .tmp/): a clean clone has none and checks everything. */
const TSC_BUILD_INFO = join(WORK_DIR, 'tsc-test.tsbuildinfo');

/**
 * The packages tier's consumer projects as installed from the test's registry, each kept under a key of the tarballs
 * it was installed from (test/support/install-cache.ts); never used on CI.
 */
export const INSTALL_CACHE = join(WORK_DIR, 'packages-install');

/**
 * What a second `npm test` reuses from the first, none of it in a fresh clone: the stamps of the lint and the
 * regeneration (scripts/lib/stamps.ts), the fixture packages with their stamp (test/support/fixture-packages.ts), tsc's
 * build info, every package's dist/ (the check step builds them) and
 * the packages tier's installs. Each is keyed by every input it depends on.
 */
export const TEST_CACHES = [
  join(WORK_DIR, LINT.file),
  join(WORK_DIR, GENERATED.file),
  join(WORK_DIR, 'fixture-packages.sha256'),
  TSC_BUILD_INFO,
  ...PACKAGES.map(({ folder }) => join(ROOT, folder, 'dist')),
  INSTALL_CACHE,
];

export interface Step {
  name: string;
  /** What the step checks, for the summary. */
  what: string;
  args: string[];
}

export interface StepResult {
  name: string;
  code: number;
  /** Seconds from start to exit. */
  wall: number;
  /** User + system CPU seconds of the step's process and every process it waited for (tsc, npm, Chromium …). */
  cpu: number;
  /** stdout and stderr together (empty when the step wrote to the terminal itself). */
  output: string;
}

const node = process.execPath;
const tsx = (script: string, ...args: string[]) => ['--import', 'tsx', join(ROOT, 'scripts', script), ...args];

/** The steps, without `npm run` in between (an npm process costs half a second of CPU and prints nothing useful). */
export function testSteps(vitestArgs: string[] = []): Step[] {
  return [
    {
      name: 'check',
      what: "regenerate and compare generated/, build the packages' dist/ (skipped when nothing it reads changed since it passed here); typecheck and vitest wait for it",
      args: tsx('build.ts', '--check', '--cache', '--no-lint'),
    },
    {
      name: 'lint-contract',
      what: 'lint openapi/ and the bundle (layout, Redocly, Spectral); skipped when nothing it reads changed since it passed here',
      args: tsx('build.ts', '--check', '--cache', '--lint-only'),
    },
    {
      name: 'typecheck',
      what: 'tsc --noEmit over the repository and the type tests (*.test-d.ts), incremental: a warm run rechecks what changed',
      args: [
        join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        '--noEmit',
        '-p',
        join(ROOT, 'tsconfig.json'),
        '--incremental',
        '--tsBuildInfoFile',
        TSC_BUILD_INFO,
      ],
    },
    {
      name: 'gate',
      what: 'the breaking-change gate against the latest release (whether generated/ is current is check’s to say)',
      args: tsx('gate.ts', '--no-bundle'),
    },
    {
      name: 'lint',
      what: 'Biome: the formatting and lint rules of biome.jsonc over the hand-written TypeScript and JavaScript; a warning fails too',
      args: [
        join(ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome'),
        'ci',
        '--error-on-warnings',
        '--colors=off',
      ],
    },
    {
      name: 'node-matrix',
      what: "the packages' test files on each pinned Node of test/nodes (scripts/node-matrix.ts), after check",
      args: tsx('node-matrix.ts'),
    },
    {
      name: 'vitest',
      what: 'every test file of every tier (vitest.config.ts)',
      args: [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...vitestArgs],
    },
  ];
}

/**
 * CPU seconds of this process's waited-for children so far (cutime + cstime of /proc/self/stat). A child's CPU, and
 * that of the processes it waited for, is added when it is reaped, so the difference across a child's exit is its
 * CPU time. Linux only; elsewhere 0 (then the summary shows wall times only).
 */
export function childrenCpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime, cstime: fields 16 and 17, in clock ticks of 10 ms
  } catch {
    return 0;
  }
}

/**
 * Runs one step. `live` lets it write to this terminal (its output is then not captured); otherwise its output is
 * kept and returned. Steps that end at the same instant may share their CPU figure (each exit reads the counter).
 */
export function runStep(step: Step, live: boolean, env: NodeJS.ProcessEnv = {}): Promise<StepResult> {
  const started = performance.now();
  // The first step of a batch counts from now: the CPU of children that ended before it (a bench section's own npm ci,
  // say) is not its own.
  if (running++ === 0) lastCpu = childrenCpuSeconds();
  const child = spawn(node, step.args, {
    cwd: ROOT,
    stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.once('error', (error) => {
      running--;
      resolve({
        name: step.name,
        code: 1,
        wall: (performance.now() - started) / 1000,
        cpu: 0,
        output: `${output}\n${error.message}`,
      });
    });
    child.once('exit', (code, signal) => {
      const wall = (performance.now() - started) / 1000;
      const cpu = cpuAtExit();
      running--;
      child.once('close', () => resolve({ name: step.name, code: code ?? (signal ? 1 : 0), wall, cpu, output }));
    });
  });
}

/**
 * CPU seconds the whole machine has spent so far (every process, from /proc/stat): Chromium's renderers are not
 * waited for by the test that starts them, so only the machine's count includes them. Linux only; elsewhere 0.
 */
export function machineCpuSeconds(): number {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return (user! + nice! + system! + irq! + softirq! + (steal ?? 0)) / 100;
  } catch {
    return 0;
  }
}

let lastCpu = childrenCpuSeconds();
/** Steps started and not yet ended. */
let running = 0;
/** The children's CPU added since the previous exit: the CPU of the child that just ended. */
function cpuAtExit(): number {
  const now = childrenCpuSeconds();
  const used = now - lastCpu;
  lastCpu = now;
  return used;
}

/** `12.3 s (CPU 20.1 s)` */
export function stepTimes(result: Pick<StepResult, 'wall' | 'cpu'>): string {
  return `${result.wall.toFixed(1)} s (CPU ${result.cpu.toFixed(1)} s)`;
}
