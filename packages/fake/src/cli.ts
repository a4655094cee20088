#!/usr/bin/env node
/**
 * service-api-fake [--port 4010] [--host 127.0.0.1] [--data file.json] [--any-token] [--cors] [--verbose]
 * (here: npm run fake -- …). Serves the stateful fake under http://HOST:PORT/api/v4.
 */
import { readFile } from 'node:fs/promises';
import { fail, readCommand, startOrFail, stopOnSignals } from '@service-api/server/command';
import type { FakeData } from './data.ts';
import { implementedOperations, startFake } from './index.ts';

const started = performance.now();
const { values, port, host } = readCommand({
  usage:
    'Usage: service-api-fake [--port 4010] [--host 127.0.0.1] [--data file.json] [--any-token] [--cors] [--verbose]',
  options: {
    data: { type: 'string' },
    'any-token': { type: 'boolean', default: false },
    cors: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
  defaultPort: 4010,
});

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
  startFake({ port, host, data, anyToken: values['any-token'], cors: values.cors, logger: values.verbose }),
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
