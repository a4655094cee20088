/** Load comparisons of HTTP servers, each in its own process, the load generator in another. */
import { TOKEN, routes } from './fixtures.ts';
import { load } from './load.ts';
import { cpuMs, startServer } from './processes.ts';
import { format, interleaved, showSpread, spread, table } from './report.ts';

export interface Contender {
  name: string;
  spec(): Promise<{ command: string; args: string[]; api?: string }>;
}

export interface RouteFigures {
  rps: number[];
  /** Server CPU per request, µs (user + system of the server process during the run). */
  cpuUs: number[];
  p99Ms: number[];
  /** Errors, timeouts and non-2xx answers over every run. */
  failures: number;
}

export interface HttpFigures {
  firstAnswerMs: Record<string, number[]>;
  byRoute: Record<string, Record<string, RouteFigures>>;
}

export const headersFor = (body?: string): Record<string, string> => ({
  'PRIVATE-TOKEN': TOKEN,
  ...(body ? { 'content-type': 'application/json' } : {}),
});

type Started = Awaited<ReturnType<typeof startServer>>;

/**
 * Rounds in rotated order; in each, every contender loads each route for `durationS` seconds with `connections`
 * connections, after a warm-up of that route. With `restartEachRound` (`--full`) each round starts every contender
 * afresh and records its first answer (one sample per round); otherwise each contender is started once, its routes
 * warmed up in the first round, and kept running through the rounds (one first-answer sample), which keeps the whole
 * bench within its time budget. Kept servers are measured route by route: the contenders' samples of a route are
 * taken back to back (a second apart, not a whole round), so that the machine's load drifts less between them.
 */
export async function compareServers(
  contenders: Contender[],
  options: { rounds: number; durationS: number; connections: number; warmupS: number; restartEachRound: boolean },
): Promise<HttpFigures> {
  const figures: HttpFigures = { firstAnswerMs: {}, byRoute: {} };
  for (const route of routes)
    figures.byRoute[route.name] = Object.fromEntries(
      contenders.map((c) => [c.name, { rps: [], cpuUs: [], p99Ms: [], failures: 0 }]),
    );
  const byName = new Map(contenders.map((c) => [c.name, c]));
  const names = contenders.map((c) => c.name);
  const measureRoute = async (name: string, server: Started, route: (typeof routes)[number], warmUp: boolean) => {
    const job = {
      url: server.api + route.path,
      method: route.method,
      headers: headersFor('body' in route ? route.body : undefined),
      body: 'body' in route ? route.body : undefined,
      connections: options.connections,
    };
    if (warmUp) await load({ ...job, durationS: options.warmupS });
    const before = cpuMs(server.process.pid!);
    const result = await load({ ...job, durationS: options.durationS });
    const cpu = cpuMs(server.process.pid!) - before;
    const f = figures.byRoute[route.name]![name]!;
    f.rps.push(result.rps);
    f.cpuUs.push(result.requests ? (cpu * 1000) / result.requests : NaN);
    f.p99Ms.push(result.p99Ms);
    f.failures += result.errors + result.non2xx;
  };
  const measure = async (name: string, server: Started, warmUp: boolean) => {
    for (const route of routes) await measureRoute(name, server, route, warmUp);
  };
  if (options.restartEachRound) {
    figures.firstAnswerMs = await interleaved(names, options.rounds, async (name) => {
      const server = await startServer(name, await byName.get(name)!.spec());
      try {
        await measure(name, server, true);
      } finally {
        await server.stop();
      }
      return server.firstAnswerMs;
    });
    return figures;
  }
  const servers = new Map<string, Started>();
  try {
    for (const name of names) {
      const server = await startServer(name, await byName.get(name)!.spec());
      servers.set(name, server);
      figures.firstAnswerMs[name] = [server.firstAnswerMs];
    }
    for (let round = 0; round < options.rounds; round += 1) {
      for (const route of routes) {
        // Each route in rotated order (A B C, B C A …), as `interleaved` rotates whole rounds.
        for (let i = 0; i < names.length; i += 1) {
          const name = names[(i + round) % names.length]!;
          await measureRoute(name, servers.get(name)!, route, round === 0);
        }
      }
    }
  } finally {
    for (const server of servers.values()) await server.stop();
  }
  return figures;
}

/** One table per route: req/s, server CPU per request and p99 per contender, and req/s ratios (median of the rounds' ratios). */
export function printServers(figures: HttpFigures, baseline: string, ratioTo: string[]): void {
  for (const [route, byContender] of Object.entries(figures.byRoute)) {
    console.log(`\n${route}`);
    console.log(
      table(
        [
          'contender',
          'req/s min / median / max',
          'server CPU µs/req (median)',
          'p99 ms (median)',
          'failed',
          `× ${baseline} (req/s, median of rounds)`,
          ...ratioTo.map((r) => `× ${r}`),
        ],
        Object.entries(byContender).map(([name, f]) => [
          name,
          showSpread(spread(f.rps)),
          format(spread(f.cpuUs).median),
          format(spread(f.p99Ms).median),
          String(f.failures),
          ratio(figures, route, name, baseline).toFixed(2),
          ...ratioTo.map((r) => ratio(figures, route, name, r).toFixed(2)),
        ]),
      ),
    );
  }
  console.log(
    `\nFirst answer after spawning the process (ms, min / median / max over ${Object.values(figures.firstAnswerMs)[0]?.length ?? 0} start(s)):`,
  );
  console.log(
    table(
      ['contender', 'first answer ms'],
      Object.entries(figures.firstAnswerMs).map(([name, s]) => [name, showSpread(spread(s))]),
    ),
  );
}

/**
 * req/s of `a` over `b` on a route: the median of the rounds' ratios. The two samples of a round were taken back to
 * back, so the ratio of a pair cancels the load the machine had then; a ratio of medians mixes samples minutes apart.
 */
export function ratio(figures: HttpFigures, route: string, a: string, b: string): number {
  const r = figures.byRoute[route]!;
  return spread(r[a]!.rps.map((rps, i) => rps / r[b]!.rps[i]!)).median;
}
