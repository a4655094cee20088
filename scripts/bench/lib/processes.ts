/** Servers under test, each in its own process: start, first answer, CPU time and memory from /proc, stop. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { BIN, ROOT } from '../../lib/paths.ts';
import { TOKEN } from './fixtures.ts';

export interface Server {
  name: string;
  /** The API root, e.g. `http://127.0.0.1:4321/api/v4`. */
  api: string;
  process: ChildProcess;
  /** Milliseconds from spawning the process to the first answer to `GET /projects/42/jobs`. */
  firstAnswerMs: number;
  stop(): Promise<void>;
}

export const SERVERS = join(ROOT, 'scripts', 'bench', 'servers');

/** A TypeScript server script of scripts/bench/servers/, run by Node with tsx's loader; it prints `listening <api>`. */
export function tsServer(script: string): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--import', 'tsx', join(SERVERS, script)] };
}

/** The Prism CLI, as a team would run it (`prism mock -p PORT openapi.json`), its node process spawned directly. */
export async function prismCli(): Promise<{ command: string; args: string[]; api: string }> {
  const port = await freePort();
  const cli = realpathSync(BIN('prism'));
  return {
    command: process.execPath,
    args: [cli, 'mock', '-p', String(port), '-h', '127.0.0.1', join(ROOT, 'generated', 'openapi', 'openapi.json')],
    api: `http://127.0.0.1:${port}`,
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Spawns a server and waits for its first answer to an authenticated `GET /projects/42/jobs` (polling every 10 ms).
 * `api` is known in advance (Prism) or read from the `listening <api>` line the bench's own servers print.
 */
export async function startServer(
  name: string,
  spec: { command: string; args: string[]; api?: string },
  timeoutMs = 60_000,
): Promise<Server> {
  const started = performance.now();
  const child = spawn(spec.command, spec.args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  let output = '';
  let api = spec.api;
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    api ??= /listening (\S+)/.exec(output)?.[1];
    if (output.length > 100_000) output = output.slice(-10_000); // Prism logs every request: keep only the tail
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let firstAnswerMs = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output.slice(-2000)}`);
    if (performance.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${name} gave no answer within ${timeoutMs} ms:\n${output.slice(-2000)}`);
    }
    if (api) {
      const answered = await fetch(`${api}/projects/42/jobs`, { headers: { 'PRIVATE-TOKEN': TOKEN } }).then(
        (r) => r.arrayBuffer().then(() => r.ok),
        () => false,
      );
      if (answered) {
        firstAnswerMs = performance.now() - started;
        break;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    name,
    api: api!,
    process: child,
    firstAnswerMs,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** User + system CPU time of a process so far, in milliseconds (from /proc; clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime and stime are fields 14 and 15
}

/** Resident memory of a process, in MiB. */
export function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}
