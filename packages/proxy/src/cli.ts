#!/usr/bin/env node
/**
 * service-api-proxy --upstream URL [--port 4011] [--host 127.0.0.1] [--report report.json] [--strict] [--timeout 30000]
 * [--quiet] (here: npm run proxy -- …). Forwards everything to the upstream and reports where it disagrees with the contract.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { REPORT_PATH, startProxy } from './index.ts';

const usage =
  'Usage: service-api-proxy --upstream https://service.example [--port 4011] [--host 127.0.0.1] [--report report.json] [--strict] [--timeout 30000] [--quiet]';
const help = `${usage}
  --upstream  where every request is forwarded, unchanged (Host set to the upstream's)
  --report    file the report is written to on exit (Ctrl-C, SIGTERM) and on SIGUSR2; without it, printed to stdout
  --strict    answer 502 with the violations instead of forwarding an answer that breaks the contract (for CI)
  --timeout   milliseconds to wait for the upstream's answer to begin before answering 504 (default 30000)
  --quiet     no line per disagreement
The report is also served at GET ${REPORT_PATH}.`;

function fail(text: string): never {
  console.error(`✖ ${text}`);
  process.exit(1);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        upstream: { type: 'string' },
        port: { type: 'string', default: process.env.PORT ?? '4011' },
        host: { type: 'string', default: '127.0.0.1' },
        report: { type: 'string' },
        strict: { type: 'boolean', default: false },
        timeout: { type: 'string', default: '30000' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${usage}`);
  }
})();
if (values.help) {
  console.log(help);
  process.exit(0);
}
if (!values.upstream) fail(`--upstream is required\n${usage}`);
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be a number from 0 to 65535, got "${values.port}"`);
const timeoutMs = Number(values.timeout);
if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
  fail(`--timeout must be a positive number of milliseconds, got "${values.timeout}"`);
try {
  new URL(values.upstream);
} catch {
  fail(`--upstream must be a URL such as https://service.example, got "${values.upstream}"`);
}

const proxy = await startProxy({
  upstream: values.upstream,
  port,
  host: values.host,
  strict: values.strict,
  timeoutMs,
  log: values.quiet ? undefined : (line) => console.error(line),
}).catch((error: NodeJS.ErrnoException) =>
  fail(
    error.code === 'EADDRINUSE'
      ? `Port ${port} is in use: pass --port with a free port`
      : `Could not start the proxy: ${error.message}`,
  ),
);

function writeReport(): void {
  const text = `${JSON.stringify(proxy.report(), null, 2)}\n`;
  if (!values.report) return void process.stdout.write(text);
  try {
    writeFileSync(values.report, text);
    console.error(`Report written to ${values.report}`);
  } catch (error) {
    console.error(`✖ Could not write the report to ${values.report}: ${(error as Error).message}`);
  }
}

console.log(
  `Proxy to ${values.upstream} listening on ${proxy.url}${values.strict ? ' (strict: answers that break the contract become 502)' : ''}; report at ${proxy.url}${REPORT_PATH}`,
);
process.on('SIGUSR2', writeReport);
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  writeReport();
  void proxy.close().then(() => process.exit(0));
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
// Started by npm (npx, npm run), the proxy runs under `sh -c`, which dies of a SIGTERM without passing it on: once the
// process that started it is gone, the proxy stops too (and writes its report) instead of holding its port.
if (process.env.npm_command) {
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && stop(), 250).unref();
}
