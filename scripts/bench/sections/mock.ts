/** The mock against the Prism CLI and a node:http ceiling. */
import { routes } from '../lib/fixtures.ts';
import { compareServers, printServers, ratio } from '../lib/http.ts';
import { prismCli, tsServer } from '../lib/processes.ts';
import { goal, heading, spread } from '../lib/report.ts';

export const name = 'mock';

export async function run(options: { rounds: number; durationS: number; restartEachRound: boolean }): Promise<void> {
  heading(
    'Mock: ours against the Prism CLI and a node:http ceiling',
    `Each server in its own process, autocannon in another; 10 connections, ${options.durationS} s per route after a warm-up, ${options.rounds} rounds,\n` +
      `${options.restartEachRound ? 'each round starting every server afresh' : 'each server started once (--full starts them afresh each round)'} in rotated order. Same requests` +
      ' (PRIVATE-TOKEN set, the documented create body),\n' +
      'same documents. Prism CLI: `prism mock -p PORT generated/openapi/openapi.json` at its default log level (its logs are\n' +
      'discarded); ours: @service-api/mock (packages/mock/src, on @service-api/server) started programmatically; ceiling: node:http sending the documented examples.',
  );
  const figures = await compareServers(
    [
      { name: 'mock (ours)', spec: async () => tsServer('mock.ts') },
      { name: 'Prism CLI', spec: prismCli },
      { name: 'node:http ceiling', spec: async () => tsServer('ceiling.ts') },
    ],
    {
      rounds: options.rounds,
      durationS: options.durationS,
      connections: 10,
      warmupS: 0.5,
      restartEachRound: options.restartEachRound,
    },
  );
  printServers(figures, 'Prism CLI', ['node:http ceiling']);
  for (const route of routes) {
    const r = ratio(figures, route.name, 'mock (ours)', 'Prism CLI');
    goal(name, `${route.name}: mock ≥ 10× Prism CLI (req/s)`, `${r.toFixed(2)}×`, r >= 10);
    const c = ratio(figures, route.name, 'mock (ours)', 'node:http ceiling');
    goal(name, `${route.name}: mock ≥ 0.3× the node:http ceiling (req/s)`, `${c.toFixed(2)}×`, c >= 0.3);
  }
  const failures = Object.values(figures.byRoute).reduce(
    (n, byContender) => n + byContender['mock (ours)']!.failures,
    0,
  );
  goal(name, 'mock answers every request with 2xx', `${failures} failed`, failures === 0);
  const first = spread(figures.firstAnswerMs['mock (ours)']!).median;
  goal(
    name,
    'mock first answer < 1 s after start',
    `${(first / 1000).toFixed(2)} s (Prism CLI ${(spread(figures.firstAnswerMs['Prism CLI']!).median / 1000).toFixed(2)} s)`,
    first < 1000,
  );
}
