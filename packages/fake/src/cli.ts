#!/usr/bin/env node
/**
 * service-api-fake [--port 4010] [--host 127.0.0.1] [--data file.json] [--any-token] [--verbose]
 * (here: npm run fake -- …). Serves the stateful fake under http://HOST:PORT/api/v4.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { FakeData } from './data.ts';
import { implementedOperations, startFake } from './index.ts';

const usage = 'Usage: service-api-fake [--port 4010] [--host 127.0.0.1] [--data file.json] [--any-token] [--verbose]';

function fail(text: string): never {
  console.error(`✖ ${text}`);
  process.exit(1);
}

const started = performance.now();
const { values } = (() => {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: process.env.PORT ?? '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        data: { type: 'string' },
        'any-token': { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${usage}`);
  }
})();
if (values.help) {
  console.log(usage);
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be a number from 0 to 65535, got "${values.port}"`);

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

const fake = await startFake({
  port,
  host: values.host,
  data,
  anyToken: values['any-token'],
  logger: values.verbose,
}).catch((error: NodeJS.ErrnoException) =>
  fail(
    error.code === 'EADDRINUSE'
      ? `Port ${port} is in use: pass --port with a free port`
      : `Could not start the fake: ${error.message}`,
  ),
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
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void fake.close().then(() => process.exit(0));
  });
}
