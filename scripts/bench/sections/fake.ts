/** The stateful fake (issue 12) against the Prism CLI on the same requests, and its start-up time. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../lib/paths.ts';
import { routes } from '../lib/fixtures.ts';
import { compareServers, printServers, ratio } from '../lib/http.ts';
import { prismCli, tsServer } from '../lib/processes.ts';
import { goal, heading, showSpread, spread } from '../lib/report.ts';

export const name = 'fake';

/** Milliseconds from spawning `node packages/fake/src/cli.ts --port 0` (through tsx) to its "listening" line. */
function startUp(): Promise<number> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'packages', 'fake', 'src', 'cli.ts'), '--port', '0'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) {
        resolve(performance.now() - started);
        child.kill('SIGTERM');
      }
    });
    child.on('exit', (code) => reject(new Error(`the fake exited with ${code}: ${output}`)));
  });
}

export async function run(options: { rounds: number; durationS: number }): Promise<void> {
  heading(
    'Stateful fake: ours against the Prism CLI, and its start-up',
    `Each server in its own process, autocannon in another; 10 connections, ${options.durationS} s per route after a warm-up, ${options.rounds} rounds\n` +
      'in rotated order, each server started once and kept through the rounds. The fake (scripts/bench/servers/fake.ts: default data set\n' +
      'plus project 42, --any-token) really filters, creates and stores: its merge request list grows with every POST (from one merge\n' +
      'request to full pages of 20, about 40 KB, where Prism answers a documented example), its state kept through the rounds.\n' +
      'Start-up: spawning `packages/fake/src/cli.ts --port 0` through tsx until it prints its URL (tsx compiles on the fly: a packed fake runs compiled JS).',
  );
  const figures = await compareServers(
    [
      { name: 'fake', spec: async () => tsServer('fake.ts') },
      { name: 'Prism CLI', spec: prismCli },
    ],
    { rounds: options.rounds, durationS: options.durationS, connections: 10, warmupS: 0.5, restartEachRound: false },
  );
  printServers(figures, 'Prism CLI', []);
  for (const route of routes) {
    const r = ratio(figures, route.name, 'fake', 'Prism CLI');
    goal(name, `${route.name}: fake ≥ 10× Prism CLI (req/s)`, `${r.toFixed(2)}×`, r >= 10);
  }
  const failures = Object.values(figures.byRoute).reduce((n, byContender) => n + byContender.fake!.failures, 0);
  goal(name, 'fake answers every request with 2xx', `${failures} failed`, failures === 0);
  const samples: number[] = [];
  for (let i = 0; i < options.rounds; i += 1) samples.push(await startUp());
  const s = spread(samples);
  console.log(`\nStart-up (spawn to listening, ms, min / median / max): ${showSpread(s)}`);
  goal(name, 'fake starts in < 1 s (spawn to listening)', `${(s.median / 1000).toFixed(2)} s`, s.median < 1000);
}
