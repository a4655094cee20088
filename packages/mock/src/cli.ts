#!/usr/bin/env node
/**
 * service-api-mock [--port 4010] [--host 127.0.0.1] [--strict] [--quiet] (here: npm run mock -- …).
 * Serves the mock under http://HOST:PORT/api/v4, one log line per request.
 */
import { parseArgs } from 'node:util';
import { startMock } from './index.ts';
import { loadDocument } from './document.ts';

const usage = 'Usage: service-api-mock [--port 4010] [--host 127.0.0.1] [--strict] [--quiet]';

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
        strict: { type: 'boolean', default: false },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${usage}`);
  }
})();
if (values.help) {
  console.log(
    `${usage}\n  --strict  refuse, with 400 naming the field, what the Service tolerates (string booleans, writes in the query, forms, unknown fields)\n  --quiet   no access log`,
  );
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be a number from 0 to 65535, got "${values.port}"`);

const document = await loadDocument().catch((error: Error) => fail(error.message));
const mock = await startMock({
  document,
  port,
  host: values.host,
  strict: values.strict,
  log: values.quiet ? undefined : (line) => console.log(line),
}).catch((error: NodeJS.ErrnoException) =>
  fail(
    error.code === 'EADDRINUSE'
      ? `Port ${port} is in use: pass --port with a free port`
      : `Could not start the mock: ${error.message}`,
  ),
);

console.log(
  `Mock of ${document.info.title} ${document.info.version} listening on ${mock.url}/api/v4${values.strict ? ' (strict: only the exact form of the contract)' : ''} (started in ${Math.round(performance.now() - started)} ms)`,
);
console.log(`Try: curl -H 'PRIVATE-TOKEN: any' ${mock.url}/api/v4/projects/42/jobs   (Ctrl-C to stop)`);
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void mock.close().then(() => process.exit(0));
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
// Started by npm (npx, npm run), the mock runs under `sh -c`, which dies of a SIGTERM without passing it on: once the
// process that started it is gone, the mock stops too instead of holding its port as an orphan.
if (process.env.npm_command) {
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && stop(), 250).unref();
}
