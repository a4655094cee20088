/** The contract-checking proxy (issue 25): its overhead over a plain pass-through proxy, its report's size and its memory. */
import { headersFor, compareServers, printServers, ratio } from '../lib/http.ts';
import { routes } from '../lib/fixtures.ts';
import { load } from '../lib/load.ts';
import { rssMiB, startServer, tsServer } from '../lib/processes.ts';
import { goal, heading, spread, table } from '../lib/report.ts';

export const name = 'proxy';

/** The requests of the report run: the bench's routes, plus a request with an undocumented parameter and an undocumented path. */
const reportRoutes = [
  ...routes,
  { name: 'GET jobs ?unknown', method: 'GET', path: '/projects/42/jobs?unknown=1' },
  { name: 'GET undocumented', method: 'GET', path: '/projects/42/undocumented' },
];

export async function run(options: { rounds: number; durationS: number }): Promise<void> {
  heading(
    'Contract-checking proxy: overhead, report size, memory',
    `The fake (scripts/bench/servers/fake.ts) as the upstream, in its own process; in front of it, each in its own process, the proxy\n` +
      '(packages/proxy/src, default options) and a plain node:http pass-through proxy (scripts/bench/servers/plain-proxy.ts: pipes, keep-alive agent,\n' +
      `checks nothing). autocannon in another process, 10 connections, ${options.durationS} s per route after a warm-up, ${options.rounds} rounds in rotated\n` +
      'order. p99 added: the proxy’s p99 minus the pass-through’s, per route (median of rounds). The fake repeats its answers byte for byte, which\n' +
      'the proxy checks once and then recognises (its memo of the last answer per operation and status). Then three runs of about 33,400 requests each\n' +
      'through a fresh proxy (the routes, one undocumented parameter, one undocumented path): the report’s size after 100,000 requests\n' +
      '(GET /__proxy/report) and the proxy’s RSS after each run.',
  );
  const upstream = await startServer('fake', tsServer('fake.ts'));
  const origin = new URL(upstream.api).origin;
  try {
    const figures = await compareServers(
      [
        {
          name: 'proxy',
          spec: async () => ({ ...tsServer('proxy.ts'), args: [...tsServer('proxy.ts').args, origin] }),
        },
        {
          name: 'pass-through',
          spec: async () => ({ ...tsServer('plain-proxy.ts'), args: [...tsServer('plain-proxy.ts').args, origin] }),
        },
      ],
      { rounds: options.rounds, durationS: options.durationS, connections: 10, warmupS: 0.5, restartEachRound: false },
    );
    printServers(figures, 'pass-through', []);
    for (const route of routes) {
      const r = ratio(figures, route.name, 'proxy', 'pass-through');
      const byRound = figures.byRoute[route.name]!;
      // On a loaded machine req/s ratios swing; CPU per request, which bounds throughput once the CPU is the limit, less so.
      const cpu = spread(byRound['pass-through']!.cpuUs).median / spread(byRound.proxy!.cpuUs).median;
      goal(
        name,
        `${route.name}: proxy ≥ 0.5× a plain pass-through proxy (req/s; CPU/req ratio in brackets)`,
        `${r.toFixed(2)}× (${cpu.toFixed(2)}×)`,
        r >= 0.5,
      );
      const added = spread(byRound.proxy!.p99Ms.map((p99, i) => p99 - byRound['pass-through']!.p99Ms[i]!)).median;
      goal(name, `${route.name}: p99 added by the proxy at 10 connections < 5 ms`, `${added.toFixed(1)} ms`, added < 5);
    }
    // The bench's POST answers 409 from the fake after the first (its merge request exists): only the GETs count here.
    const failures = routes
      .filter((route) => route.method === 'GET')
      .reduce((n, route) => n + figures.byRoute[route.name]!.proxy!.failures, 0);
    goal(name, 'the proxy forwards every GET (2xx from the fake)', `${failures} failed`, failures === 0);
    await reportAndMemory(origin);
  } finally {
    await upstream.stop();
  }
}

/** Three runs of a third of 100,000 requests through a fresh proxy: RSS after each, the report's size at the end. */
async function reportAndMemory(origin: string): Promise<void> {
  const proxy = await startServer('proxy', { ...tsServer('proxy.ts'), args: [...tsServer('proxy.ts').args, origin] });
  const reportUrl = `${new URL(proxy.api).origin}/__proxy/report`;
  const requestsSoFar = async () => ((await (await fetch(reportUrl)).json()) as { requests: number }).requests;
  try {
    const rss: number[] = [];
    for (let run = 1; run <= 3; run += 1) {
      const target = Math.round((100_000 * run) / 3);
      while ((await requestsSoFar()) < target) {
        for (const route of reportRoutes) {
          const body = 'body' in route ? route.body : undefined;
          await load({
            url: proxy.api + route.path,
            method: route.method,
            headers: headersFor(body),
            body,
            connections: 10,
            durationS: 1,
          });
        }
      }
      rss.push(rssMiB(proxy.process.pid!));
    }
    const report = await (await fetch(reportUrl)).text();
    const requests = (JSON.parse(report) as { requests: number }).requests;
    console.log(
      `\n${table(
        ['after run', 'requests', 'proxy RSS MiB'],
        rss.map((r, i) => [
          String(i + 1),
          i === 2 ? String(requests) : `≈ ${Math.round((100_000 * (i + 1)) / 3)}`,
          r.toFixed(1),
        ]),
      )}`,
    );
    console.log(`Report after ${requests} requests: ${report.length} bytes`);
    goal(
      name,
      `report after ${requests} requests ≤ 1 MB`,
      `${(report.length / 1024).toFixed(1)} KiB`,
      requests >= 100_000 && report.length <= 1_000_000,
    );
    const growth = rss[2]! / rss[0]! - 1;
    goal(
      name,
      'proxy RSS after three runs within 10 % of the first',
      `${(growth * 100).toFixed(1)} % (${rss.map((r) => r.toFixed(0)).join(' → ')} MiB)`,
      Math.abs(growth) <= 0.1,
    );
  } finally {
    await proxy.stop();
  }
}
