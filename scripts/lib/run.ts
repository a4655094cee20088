import { spawn } from 'node:child_process';

export interface RunResult {
  code: number;
  output: string;
}

export interface TimedRunResult extends RunResult {
  /** The command's own wall time, in seconds. */
  wall: number;
  /** Its CPU time (user and system, its children included), in seconds; NaN where /proc is not there to tell. */
  cpu: number;
}

/** Runs a command from node_modules/.bin without a shell, capturing stdout and stderr together. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output: withoutNoise(output) }));
  });
}

/**
 * A Node script that runs a command (its arguments) and prints its wall and CPU time as a line of JSON after the
 * command's output. The caller's clock would not do: a caller that compiles synchronously meanwhile (the build) hears
 * of the exit only when it is done, seconds later. Its CPU figure is read as `childrenCpuSeconds` (test-steps.ts) reads
 * it, in the timer's own process (it is plain JavaScript for `node -e`, so it cannot import that function).
 */
const TIMER = `const { spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const childrenCpu = () => {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return NaN;
  }
};
const started = performance.now();
const result = spawnSync(process.argv[1], process.argv.slice(2), { stdio: 'inherit' });
console.log('\\n' + JSON.stringify({ wall: (performance.now() - started) / 1000, cpu: childrenCpu() }));
process.exit(result.status ?? 1);`;

/** `run`, with the command's own wall and CPU time (TIMER). */
export async function runTimed(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<TimedRunResult> {
  const result = await run(process.execPath, ['-e', TIMER, command, ...args], env);
  // The command's stderr may arrive after the timer's line (two pipes): the line is found wherever it is.
  const lines = result.output.split('\n');
  const at = lines.findIndex((line) => line.startsWith('{"wall":'));
  const times = (at < 0 ? {} : JSON.parse(lines.splice(at, 1)[0]!)) as { wall?: number; cpu?: number };
  return {
    code: result.code,
    output: lines.join('\n').trim(),
    wall: times.wall ?? Number.NaN,
    cpu: times.cpu ?? Number.NaN,
  };
}

/** Drops lines that say nothing about the project: npm's config warnings and the Redocly Node 20 notice box. */
function withoutNoise(output: string): string {
  return output
    .split('\n')
    .filter((line) => !/^npm warn Unknown user config|[║╔╚]/.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
