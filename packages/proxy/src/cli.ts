#!/usr/bin/env node
/**
 * service-api-proxy --upstream URL [--port 4011] [--host 127.0.0.1] [--origin URL] [--report report.json] [--strict] [--timeout 30000]
 * [--quiet] (here: npm run proxy -- …). Forwards everything to the upstream and reports where it disagrees with the contract.
 */
import { writeFileSync } from 'node:fs';
import { fail, readCommand, startOrFail, stopOnSignals } from '@service-api/server/command';
import { REPORT_PATH, startProxy } from './index.ts';

const usage =
  'Usage: service-api-proxy --upstream https://service.example [--port 4011] [--host 127.0.0.1] [--origin URL] [--report report.json] [--strict] [--timeout 30000] [--quiet]';
const { values, port, host } = readCommand({
  usage,
  help: `  --upstream  where every request is forwarded, unchanged (Host set to the upstream's)
  --origin    the origin clients call the proxy at, written into rewritten Link and Location (default: its address)
  --report    file the report is written to on exit (Ctrl-C, SIGTERM) and on SIGUSR2; without it, printed to stdout
  --strict    answer 502 with the violations instead of forwarding an answer that breaks the contract (for CI)
  --timeout   milliseconds to wait for the upstream's answer to begin before answering 504 (default 30000)
  --quiet     no line per disagreement
The report is also served at GET ${REPORT_PATH}.`,
  options: {
    upstream: { type: 'string' },
    origin: { type: 'string' },
    report: { type: 'string' },
    strict: { type: 'boolean', default: false },
    timeout: { type: 'string', default: '30000' },
    quiet: { type: 'boolean', default: false },
  },
  defaultPort: 4011,
});
if (!values.upstream) fail(`--upstream is required\n${usage}`);
const timeoutMs = Number(values.timeout);
if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
  fail(`--timeout must be a positive number of milliseconds, got "${values.timeout}"`);
try {
  new URL(values.upstream);
} catch {
  fail(`--upstream must be a URL such as https://service.example, got "${values.upstream}"`);
}

const proxy = await startOrFail(
  startProxy({
    upstream: values.upstream,
    port,
    host,
    origin: values.origin,
    strict: values.strict,
    timeoutMs,
    log: values.quiet ? undefined : (line) => console.error(line),
  }),
  'proxy',
  port,
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
stopOnSignals(() => {
  writeReport();
  return proxy.close();
});
