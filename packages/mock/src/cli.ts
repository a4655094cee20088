#!/usr/bin/env node
/**
 * service-api-mock [--port 4010] [--host 127.0.0.1] [--strict] [--quiet] (here: npm run mock -- …).
 * Serves the mock under http://HOST:PORT/api/v4, one log line per request.
 */
import { fail, readCommand, startOrFail, stopOnSignals } from '@service-api/server/command';
import { loadDocument } from './document.ts';
import { startMock } from './index.ts';

const started = performance.now();
const { values, port, host } = readCommand({
  usage: 'Usage: service-api-mock [--port 4010] [--host 127.0.0.1] [--strict] [--quiet]',
  help: `  --strict  refuse, with 400 naming the field, what the Service tolerates (string booleans, writes in the query, forms, unknown fields)
  --quiet   no access log`,
  options: {
    strict: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
  defaultPort: 4010,
});

const document = await loadDocument().catch((error: Error) => fail(error.message));
const mock = await startOrFail(
  startMock({
    document,
    port,
    host,
    strict: values.strict,
    log: values.quiet ? undefined : (line) => console.log(line),
  }),
  'mock',
  port,
);

console.log(
  `Mock of ${document.info.title} ${document.info.version} listening on ${mock.url}/api/v4${values.strict ? ' (strict: only the exact form of the contract)' : ''} (started in ${Math.round(performance.now() - started)} ms)`,
);
console.log(`Try: curl -H 'PRIVATE-TOKEN: any' ${mock.url}/api/v4/projects/42/jobs   (Ctrl-C to stop)`);
stopOnSignals(() => mock.close());
