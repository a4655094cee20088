/**
 * The generated client against raw fetch, openapi-fetch and @gitbeaker/rest: the same calls to the same canned server
 * in its own process, on success (200, the jobs list) and on error (404).
 */
import { Gitlab } from '@gitbeaker/rest';
import createClient from 'openapi-fetch';
import { createServiceApi, createServiceClient } from '@service-api/client';
import { TOKEN } from '../lib/fixtures.ts';
import { startServer, tsServer } from '../lib/processes.ts';
import { format, goal, heading, interleaved, showSpread, spread, table } from '../lib/report.ts';

export const name = 'client';

type Call = () => Promise<unknown>;

export async function run(options: { rounds: number; calls: number }): Promise<void> {
  heading(
    'Client: per-call cost against raw fetch, openapi-fetch and @gitbeaker/rest',
    `A canned node:http server in its own process (the documented jobs list, 200; a missing job, 404). ${options.calls} sequential calls per\n` +
      `contender per round, ${options.rounds} rounds in rotated order after ${WARM_UP.toLocaleString('en')} warm-up calls each. CPU time is the client process's own\n` +
      "(process.cpuUsage), so the server is not in it; wall time includes the server and the loopback. gitbeaker's rate\n" +
      'limiter is lifted and it fetches one page, as the others do.',
  );
  const server = await startServer('client target', tsServer('client-target.ts'));
  try {
    const host = server.api.replace(/\/api\/v4$/, '');
    const api = createServiceApi({ host, auth: { privateToken: TOKEN } });
    const low = createServiceClient({ host, auth: { privateToken: TOKEN } });
    const plain = createClient<never>({ baseUrl: server.api, headers: { 'PRIVATE-TOKEN': TOKEN } }) as unknown as {
      GET(path: string, init: object): Promise<{ data?: unknown; error?: unknown }>;
    };
    const gitbeaker = new Gitlab({ host, token: TOKEN, rateLimits: { '**': 1e9 } });
    const headers = { 'PRIVATE-TOKEN': TOKEN };
    const swallow = (p: Promise<unknown>) =>
      p.then(
        () => {
          throw new Error('expected an error');
        },
        () => undefined,
      );

    const success: Record<string, Call> = {
      'raw fetch + json()': async () => (await fetch(`${server.api}/projects/42/jobs`, { headers })).json(),
      'client: api.jobs.listProjectJobs': () => api.jobs.listProjectJobs({ path: { id: 42 } }),
      'client: low level client.GET': () => low.GET('/projects/{id}/jobs', { params: { path: { id: 42 } } }),
      'openapi-fetch GET': () => plain.GET('/projects/{id}/jobs', { params: { path: { id: 42 } } }),
      '@gitbeaker/rest Jobs.all': () => gitbeaker.Jobs.all(42, { maxPages: 1 }),
    };
    const failure: Record<string, Call> = {
      'raw fetch + json()': async () => (await fetch(`${server.api}/projects/42/jobs/999`, { headers })).json(),
      'client: api.jobs.getProjectJob (throws)': () =>
        swallow(api.jobs.getProjectJob({ path: { id: 42, job_id: 999 } })),
      'client: low level client.GET': () =>
        low.GET('/projects/{id}/jobs/{job_id}', { params: { path: { id: 42, job_id: 999 } } }),
      'openapi-fetch GET': () =>
        plain.GET('/projects/{id}/jobs/{job_id}', { params: { path: { id: 42, job_id: 999 } } }),
      '@gitbeaker/rest Jobs.show (throws)': () => swallow(gitbeaker.Jobs.show(42, 999)),
    };
    const ok = await measure(success, options);
    print('Success: GET /projects/42/jobs (200)', ok);
    const failed = await measure(failure, options);
    print('Error: GET /projects/42/jobs/999 (404)', failed);

    const cpu = (f: Record<string, Figures>, label: string) => spread(f[label]!.cpuUs).median;
    const vsRaw = cpu(ok, 'client: api.jobs.listProjectJobs') / cpu(ok, 'raw fetch + json()');
    const vsBeaker = cpu(ok, 'client: api.jobs.listProjectJobs') / cpu(ok, '@gitbeaker/rest Jobs.all');
    goal(name, 'client ≤ 1.3× raw fetch (CPU per call, success)', `${vsRaw.toFixed(2)}×`, vsRaw <= 1.3);
    goal(name, 'client below gitbeaker (CPU per call, success)', `${vsBeaker.toFixed(2)}×`, vsBeaker < 1);
    const errRaw = cpu(failed, 'client: api.jobs.getProjectJob (throws)') / cpu(failed, 'raw fetch + json()');
    goal(name, 'client error path ≤ 1.3× raw fetch (CPU per call)', `${errRaw.toFixed(2)}×`, errRaw <= 1.3);
  } finally {
    await server.stop();
  }
}

interface Figures {
  cpuUs: number[];
  wallUs: number[];
}

/**
 * Calls per contender before measuring: V8 optimises a call path after many runs (the typed client's first 3,000 calls
 * took 531 µs of CPU each, the next 3,000 358 µs), and 100 warm-up calls measured mostly unoptimised code.
 */
const WARM_UP = 1_000;

async function measure(
  contenders: Record<string, Call>,
  options: { rounds: number; calls: number },
): Promise<Record<string, Figures>> {
  const figures: Record<string, Figures> = Object.fromEntries(
    Object.keys(contenders).map((n) => [n, { cpuUs: [], wallUs: [] }]),
  );
  for (const call of Object.values(contenders)) for (let i = 0; i < WARM_UP; i += 1) await call();
  await interleaved(Object.keys(contenders), options.rounds, async (label) => {
    const call = contenders[label]!;
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (let i = 0; i < options.calls; i += 1) await call();
    const wall = performance.now() - start;
    const used = process.cpuUsage(cpu);
    figures[label]!.cpuUs.push((used.user + used.system) / options.calls);
    figures[label]!.wallUs.push((wall * 1000) / options.calls);
    return 0;
  });
  return figures;
}

function print(title: string, figures: Record<string, Figures>): void {
  const [first] = Object.keys(figures);
  const base = spread(figures[first!]!.cpuUs).median;
  console.log(`\n${title}`);
  console.log(
    table(
      ['contender', 'CPU µs/call min / median / max', 'wall µs/call (median)', '× raw fetch (CPU)'],
      Object.entries(figures).map(([label, f]) => [
        label,
        showSpread(spread(f.cpuUs)),
        format(spread(f.wallUs).median),
        (spread(f.cpuUs).median / base).toFixed(2),
      ]),
    ),
  );
}
