/**
 * npm run mock [-- --port 4010 --host 127.0.0.1 --strict --quiet]
 * Serves the published document's mock under http://HOST:PORT/api/v4: our router, validators and tolerant reading of
 * requests in front of Prism, which picks and renders the documented examples. One log line per request.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { API_PREFIX, startMock } from './mock/server.ts';
import { PUBLISHED_JSON } from './lib/paths.ts';

function fail(message: string): never {
  console.error(`✖ ${message}`);
  process.exit(1);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: { port: { type: 'string', default: process.env.PORT ?? '4010' }, host: { type: 'string', default: '127.0.0.1' }, strict: { type: 'boolean', default: false }, quiet: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false } },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\nUsage: npm run mock -- [--port 4010] [--host 127.0.0.1] [--strict] [--quiet]`);
  }
})();

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a number from 0 to 65535, got "${values.port}"`);

const text = await readFile(PUBLISHED_JSON, 'utf8').catch(() => fail(`${PUBLISHED_JSON} is missing: run \`npm run build\` first`));
const document = JSON.parse(text) as { info: { title: string; version: string } };
const mock = await startMock({ document, port, host: values.host, strict: values.strict, log: values.quiet ? undefined : (line) => console.log(line) }).catch((error: NodeJS.ErrnoException) =>
  fail(error.code === 'EADDRINUSE' ? `Port ${port} is in use: pass --port with a free port` : `Could not start the mock: ${error.message}`),
);

console.log(`Mock of ${document.info.title} ${document.info.version} listening on ${mock.origin}${API_PREFIX}${values.strict ? ' (strict: only the exact form of the contract)' : ''}`);
console.log(`Try: curl -H 'PRIVATE-TOKEN: any' ${mock.origin}${API_PREFIX}/projects/42/jobs   (Ctrl-C to stop)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void mock.close().then(() => process.exit(0));
  });
}
