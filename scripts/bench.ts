/**
 * npm run bench — a benchmark, not a test. Prints ratios measured in this run:
 *   1. client per-call overhead: the generated client (typed method and low-level openapi-fetch) against raw fetch and
 *      against @gitbeaker/rest, on the same local node:http server answering canned JSON, the same calls;
 *   2. validator throughput on a large record payload: the generated standalone validator against Ajv compiling the
 *      same schema at run time (the straightforward alternative), and what that compilation costs;
 *   3. the time to load all validators (a cold import in a fresh Node process).
 * Targets: client ≤ 1.3× raw fetch and below gitbeaker; validators load in under 100 ms.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Gitlab } from '@gitbeaker/rest';
import ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createServiceApi, createServiceClient } from '../generated/client/dist/index.js';
import { schemaValidators } from '../generated/validators/dist/index.js';
import { componentSchemaId, componentsSchema } from '../generators/lib/ajv.ts';
import { PUBLISHED_JSON, ROOT } from './lib/paths.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const ROUNDS = 5;
const doc = JSON.parse(readFileSync(PUBLISHED_JSON, 'utf8'));
const dereferenced = JSON.parse(readFileSync(join(ROOT, 'generated', 'openapi', 'openapi.dereferenced.json'), 'utf8'));

// The canned answer: the documented example of GET /projects/{id}/jobs.
const jobsExample = Object.values(dereferenced.paths['/projects/{id}/jobs'].get.responses['200'].content['application/json'].examples as Record<string, { value: unknown[] }>)[0]!.value;
const payload = JSON.stringify(jobsExample);

const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'x-page': '1' });
  res.end(payload);
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const url = `${origin}/api/v4/projects/42/jobs`;

const api = createServiceApi({ host: origin, auth: { privateToken: 'token' } });
const low = createServiceClient({ host: origin, auth: { privateToken: 'token' } });
// gitbeaker rate-limits every endpoint to 3000 requests a minute by default; lift it so that it measures its overhead.
const gitbeaker = new Gitlab({ host: origin, token: 'token', rateLimits: { '**': 1e9 } });

const contenders: [string, () => Promise<unknown>][] = [
  ['raw fetch', async () => (await fetch(url, { headers: { 'PRIVATE-TOKEN': 'token' } })).json()],
  ['client: api.jobs.listProjectJobs', () => api.jobs.listProjectJobs({ path: { id: 42 } })],
  ['client: low level client.GET', () => low.GET('/projects/{id}/jobs', { params: { path: { id: 42 } } })],
  ['@gitbeaker/rest Jobs.all', () => gitbeaker.Jobs.all(42, { maxPages: 1 })],
];

async function timeCalls(call: () => Promise<unknown>, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i += 1) await call();
  return performance.now() - start;
}

for (const [, call] of contenders) await timeCalls(call, 200); // warm up sockets and JIT
const totals = new Map<string, number>(contenders.map(([name]) => [name, 0]));
for (let round = 0; round < ROUNDS; round += 1) {
  // Interleaved rounds, so that drift in the machine's load affects every contender alike.
  for (const [name, call] of contenders) totals.set(name, totals.get(name)! + (await timeCalls(call, CALLS)));
}
server.close();

const perCall = (name: string) => (totals.get(name)! / (ROUNDS * CALLS)) * 1000; // µs
const raw = perCall('raw fetch');
const beaker = perCall('@gitbeaker/rest Jobs.all');
console.log(`\nClient: ${ROUNDS} × ${CALLS} sequential GETs of a ${payload.length}-byte JSON list from a local node:http server`);
console.log(table(['contender', 'µs/call', 'calls/s', '× raw fetch', '× gitbeaker'], contenders.map(([name]) => [name, perCall(name).toFixed(1), (1e6 / perCall(name)).toFixed(0), (perCall(name) / raw).toFixed(2), (perCall(name) / beaker).toFixed(2)])));

// Validators: a merge request, the largest record of the API, from the document's own example.
const largest = 'MergeRequest';
const examples = doc.components.examples as Record<string, { value: unknown }>;
const record = examples.MergeRequestCreated?.value;
if (!record) throw new Error('The document has no MergeRequestCreated example to benchmark the validators with');
const standalone = schemaValidators[largest as keyof typeof schemaValidators];
const compileStart = performance.now();
const ajv = new ajv2020.default({ allErrors: true, strict: false, allowUnionTypes: true });
addFormats.default(ajv);
ajv.addFormat('binary', true);
ajv.addSchema(componentsSchema(doc));
const compiled = ajv.getSchema(componentSchemaId(largest))!;
const compileMs = performance.now() - compileStart;
if (!standalone(record) || !compiled(record)) throw new Error(`The example ${largest} is not valid: ${JSON.stringify(standalone.errors ?? compiled.errors)}`);

const VALIDATIONS = 200_000;
const throughput = (validate: (v: unknown) => boolean) => {
  for (let i = 0; i < 10_000; i += 1) validate(record);
  const start = performance.now();
  for (let i = 0; i < VALIDATIONS; i += 1) validate(record);
  return VALIDATIONS / ((performance.now() - start) / 1000);
};
const standaloneOps = throughput(standalone);
const compiledOps = throughput(compiled);
console.log(`\nValidators: ${largest} (${JSON.stringify(record).length}-byte record with nested objects), ${VALIDATIONS} validations each`);
console.log(
  table(
    ['validator', 'validations/s', '× standalone'],
    [
      ['generated standalone (no compile at run time)', standaloneOps.toFixed(0), '1.00'],
      [`Ajv compiling the same schemas at run time (compile: ${compileMs.toFixed(0)} ms)`, compiledOps.toFixed(0), (compiledOps / standaloneOps).toFixed(2)],
    ],
  ),
);

// Cold load of every validator in a fresh process (median of 5).
const loads: number[] = [];
const entry = pathToFileURL(join(ROOT, 'generated', 'validators', 'dist', 'index.js')).href;
for (let i = 0; i < 5; i += 1) {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(entry)}); console.log(performance.now() - t);`], { encoding: 'utf8' });
  loads.push(Number(child.stdout.trim()));
}
const load = loads.sort((a, b) => a - b)[2]!;
console.log(`\nValidators load (cold import of generated/validators, median of 5): ${load.toFixed(1)} ms`);

const client = perCall('client: api.jobs.listProjectJobs');
console.log('\nTargets');
console.log(table(['target', 'measured', 'met'], [
  ['client ≤ 1.3× raw fetch', `${(client / raw).toFixed(2)}×`, client / raw <= 1.3 ? 'yes' : 'NO'],
  ['client below gitbeaker', `${(client / beaker).toFixed(2)}×`, client < beaker ? 'yes' : 'NO'],
  ['validators load < 100 ms', `${load.toFixed(1)} ms`, load < 100 ? 'yes' : 'NO'],
]));

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
