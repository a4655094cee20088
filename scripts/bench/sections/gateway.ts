/**
 * Issue 30: what the proxy's rewrite of `Link` and `Location` costs, and the fake without a port against the fake over
 * loopback HTTP.
 */
import { createFake } from '../../../packages/fake/src/index.ts';
import { headersFor } from '../lib/http.ts';
import { load } from '../lib/load.ts';
import { cpuMs, startServer, tsServer, type Server } from '../lib/processes.ts';
import { goal, heading, interleaved, showSpread, spread, table } from '../lib/report.ts';

export const name = 'gateway';

const LIST = '/projects/42/jobs?per_page=2&page=2';

export async function run(options: { rounds: number; durationS: number; calls: number }): Promise<void> {
  await proxyRewrite(options);
  await inProcessFake(options);
}

/** The proxy in front of two upstreams whose same-size Link it rewrites or passes unchanged; same run, rotated rounds. */
async function proxyRewrite(options: { rounds: number; durationS: number }): Promise<void> {
  heading(
    'Proxy: rewriting the upstream’s Link costs nothing measurable',
    'Two upstreams (scripts/bench/servers/link-upstream.ts, node:http) answer every GET with the documented jobs list and a Link of four\n' +
      'URLs: one at its own origin (which the proxy rewrites to its own), the other at another origin of the same length (passed unchanged, the\n' +
      'same header bytes); in front of each, the proxy (packages/proxy/src, default\n' +
      `options) in its own process. autocannon in another process, 10 connections, ${options.durationS} s per run after a warm-up, ${options.rounds} rounds in\n` +
      'rotated order. Ratio: req/s rewritten over req/s passed unchanged, median of the rounds’ ratios (CPU per request of the proxy in brackets).',
  );
  const servers: Server[] = [];
  try {
    const proxies: Record<string, Server> = {};
    for (const kind of ['link', 'foreign'] as const) {
      const upstream = await startServer(`upstream ${kind}`, {
        ...tsServer('link-upstream.ts'),
        args: [...tsServer('link-upstream.ts').args, kind],
      });
      servers.push(upstream);
      const origin = new URL(upstream.api).origin;
      const proxy = await startServer(`proxy ${kind}`, {
        ...tsServer('proxy.ts'),
        args: [...tsServer('proxy.ts').args, origin],
      });
      servers.push(proxy);
      proxies[kind] = proxy;
    }
    const figures: Record<string, { rps: number; cpuUs: number }[]> = { link: [], foreign: [] };
    const runOnce = async (kind: 'link' | 'foreign', warmUp: boolean) => {
      const proxy = proxies[kind]!;
      const job = { url: proxy.api + LIST, method: 'GET', headers: headersFor(), connections: 10 };
      if (warmUp) await load({ ...job, durationS: 0.5 });
      const before = cpuMs(proxy.process.pid!);
      const result = await load({ ...job, durationS: options.durationS });
      const cpu = cpuMs(proxy.process.pid!) - before;
      figures[kind]!.push({ rps: result.rps, cpuUs: result.requests ? (cpu * 1000) / result.requests : NaN });
      return result.rps;
    };
    await interleaved(['link', 'foreign'] as const, options.rounds, (kind, round) => runOnce(kind, round === 0));
    const ratios = figures.link!.map((f, i) => f.rps / figures.foreign![i]!.rps);
    const cpuRatios = figures.foreign!.map((f, i) => f.cpuUs / figures.link![i]!.cpuUs);
    console.log(
      table(
        ['Upstream', 'req/s (min / median / max)', 'proxy CPU µs/req (median)'],
        (['link', 'foreign'] as const).map((kind) => [
          kind === 'link' ? 'with Link (rewritten)' : 'Link elsewhere (unchanged)',
          showSpread(spread(figures[kind]!.map((f) => f.rps))),
          spread(figures[kind]!.map((f) => f.cpuUs)).median.toFixed(0),
        ]),
      ),
    );
    const report = (await (await fetch(`${new URL(proxies.link!.api).origin}/__proxy/report`)).json()) as {
      requests: number;
      rewrites: { link: number };
    };
    const r = spread(ratios).median;
    goal(
      name,
      'proxy req/s with a Link to rewrite ≥ 0.9× with one it passes unchanged (same run; CPU/req ratio in brackets)',
      `${r.toFixed(2)}× (${spread(cpuRatios).median.toFixed(2)}×); ${report.rewrites.link} of ${report.requests} answers rewritten`,
      r >= 0.9 && report.rewrites.link > 0,
    );
  } finally {
    for (const server of servers.reverse()) await server.stop();
  }
}

/** The same GET, one call at a time: `fake.fetch` in process against `fetch` over loopback to the same fake. */
async function inProcessFake(options: { rounds: number; calls: number }): Promise<void> {
  heading(
    'The fake without a port: in process against loopback HTTP',
    `One fake (createFake, default data set) listening on 127.0.0.1 in the bench's process; ${options.calls} sequential calls of\n` +
      'GET /api/v4/projects/1/jobs?per_page=2 (developer token) per round, through `fake.fetch` (Fastify’s inject) and through Node’s `fetch`\n' +
      `(keep-alive) to its port, ${options.rounds} rounds in rotated order after a warm-up. µs per call: median of the rounds; CPU: this\n` +
      'process’s user + system time (the client and the fake are both in it), less sensitive to other load than wall time.',
  );
  const fake = await createFake();
  await fake.app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const url = `http://127.0.0.1:${(fake.app.server.address() as { port: number }).port}/api/v4/projects/1/jobs?per_page=2`;
    const init = { headers: { 'PRIVATE-TOKEN': 'developer-token' } };
    const transports = { 'in process': fake.fetch, 'loopback HTTP': (u: string, i: RequestInit) => fetch(u, i) };
    const cpuUs: Record<keyof typeof transports, number[]> = { 'in process': [], 'loopback HTTP': [] };
    const perCall = async (transport: keyof typeof transports, calls: number) => {
      const send = transports[transport];
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < calls; i += 1) {
        const response = await send(url, init);
        if (response.status !== 200) throw new Error(`${transport}: ${response.status}`);
        await response.arrayBuffer();
      }
      const wallUs = ((performance.now() - started) * 1000) / calls;
      const used = process.cpuUsage(cpu);
      cpuUs[transport].push((used.user + used.system) / calls);
      return wallUs;
    };
    for (const transport of Object.keys(transports) as (keyof typeof transports)[]) await perCall(transport, 200);
    for (const figures of Object.values(cpuUs)) figures.length = 0; // the warm-up's
    const samples = await interleaved(['in process', 'loopback HTTP'] as const, options.rounds, (transport) =>
      perCall(transport, options.calls),
    );
    console.log(
      table(
        ['Transport', 'µs per call (min / median / max)', 'CPU µs per call, both ends (median)'],
        Object.entries(samples).map(([transport, values]) => [
          transport,
          showSpread(spread(values)),
          spread(cpuUs[transport as keyof typeof transports]).median.toFixed(0),
        ]),
      ),
    );
    const ratio = (figures: Record<keyof typeof transports, number[]>) =>
      spread(figures['loopback HTTP'].map((http, i) => http / figures['in process'][i]!)).median;
    const r = ratio(samples);
    goal(
      name,
      'the fake in process answers ≥ 2× faster per call than over loopback HTTP',
      `${r.toFixed(2)}× (CPU ${ratio(cpuUs).toFixed(2)}×)`,
      r >= 2,
    );
  } finally {
    await fake.app.close();
  }
}
