#!/usr/bin/env node
/**
 * service-api-fake [--port 4010] [--host 127.0.0.1] [--data file.json] [--any-token] [--cors [ORIGIN,…]] [--verbose]
 * (here: npm run fake -- …). Serves the stateful fake under http://HOST:PORT/api/v4.
 */
import { readFile } from 'node:fs/promises';
import { fail, readCommand, startOrFail, stopOnSignals } from '@service-api/server/command';
import type { FakeData } from './data.ts';
import { implementedOperations, startFake } from './index.ts';

const started = performance.now();
// `--cors` alone (last, or before another option) allows any origin without credentials: `--cors=*`.
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++)
  if (args[i] === '--cors' && (i + 1 === args.length || args[i + 1]!.startsWith('-'))) args[i] = '--cors=*';
process.argv.splice(2, args.length, ...args);
const { values, port, host } = readCommand({
  usage:
    'Usage: service-api-fake [--port 4010] [--host 127.0.0.1] [--data file.json] [--any-token] [--cors [ORIGIN,…]] [--verbose]',
  help: `  --cors      let browsers call the fake: alone, any origin without credentials (Access-Control-Allow-Origin: *);
              with origins (--cors http://localhost:5173, repeated or a comma list), exactly those, with credentials`,
  options: {
    data: { type: 'string' },
    'any-token': { type: 'boolean', default: false },
    cors: { type: 'string', multiple: true },
    verbose: { type: 'boolean', default: false },
  },
  defaultPort: 4010,
});
const listed = ((values.cors ?? []) as unknown as string[]).flatMap((value) => value.split(',')).map((o) => o.trim());
const cors = listed.length === 0 ? false : listed.every((o) => o === '*') ? true : listed;
if (Array.isArray(cors) && cors.includes('*')) fail('--cors takes origins or nothing, not both with *');

let data: FakeData | undefined;
if (values.data) {
  const text = await readFile(values.data, 'utf8').catch((error: Error) =>
    fail(`cannot read --data ${values.data}: ${error.message}`),
  );
  try {
    data = JSON.parse(text) as FakeData;
  } catch (error) {
    fail(`--data ${values.data} is not JSON: ${(error as Error).message}`);
  }
  for (const key of ['users', 'tokens', 'groups', 'projects', 'pipelines', 'jobs', 'merge_requests'] as const) {
    if (!Array.isArray(data[key])) fail(`--data ${values.data}: "${key}" must be an array`);
  }
}

const fake = await startOrFail(
  startFake({ port, host, data, anyToken: values['any-token'], cors, logger: values.verbose }),
  'fake',
  port,
);

console.log(
  `Service API fake listening on ${fake.url}/api/v4 (${implementedOperations.length} operations implemented, the others answer 501; started in ${Math.round(performance.now() - started)} ms)`,
);
console.log(
  `Data: ${values.data ?? 'the default data set'}${values['any-token'] ? '; every token is the administrator' : ''}. Reset: POST ${fake.url}/__fake/reset; state: GET ${fake.url}/__fake/state`,
);
console.log(
  `Try: curl -H 'PRIVATE-TOKEN: developer-token' ${fake.url}/api/v4/projects/my-group%2Fmy-project/merge_requests   (Ctrl-C to stop)`,
);
stopOnSignals(() => fake.close());
