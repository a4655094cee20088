/**
 * A contract-checking proxy: forwards every request to the upstream and every answer to the client unchanged (but for
 * the upstream's own URLs in `Link` and `Location`, moved to the origin the client called) and streamed, and checks a
 * bounded copy of both against the contract. The request is admitted by the server package's own admission
 * (`exchange.ts`); hostile inputs it refuses before reading get its 4xx and are not forwarded.
 */
import { createServer, Agent as HttpAgent, type Server } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { defaultLimits, errorBody } from '@service-api/server';
import { clientErrorHandler } from '@service-api/server/internal';
import { BodyMemo } from './check-answer.ts';
import { loadAnswers, type AnswersByOperation } from './contract.ts';
import { handleRequest, routeReaders, type ProxyContext } from './exchange.ts';
import { Report, type ReportJson, type ReportLimits } from './report.ts';
import { oneLine, rateLimitedLog } from './log.ts';
import { upstreamUrlRewriter } from './rewrite.ts';
import { sendJson } from './streams.ts';

export { REPORT_PATH } from './exchange.ts';
export { Report, type Disagreement, type Kind, type ReportJson, type ReportLimits } from './report.ts';
/** The version of the contract this package implements (that of the @service-api/server it runs on). */
export { contractVersion } from '@service-api/server';

export interface ProxyOptions {
  /** Where requests go: `https://service.example` (a path prefix, if any, is kept). */
  upstream: string;
  /**
   * The origin clients call the proxy at (`https://proxy.example`), written into the upstream's rewritten `Link` and
   * `Location` (default: the address it listens on). A client's `Host` header is never used.
   */
  origin?: string;
  port?: number;
  host?: string;
  /** Answer 502 with the violations instead of forwarding an answer that breaks the contract. */
  strict?: boolean;
  /** Milliseconds to wait for the upstream's answer to begin before answering 504 (default 30,000). */
  timeoutMs?: number;
  /** Largest body (request or answer) copied for checking, in bytes (default 4 MiB); larger ones are forwarded unchecked. */
  checkBytes?: number;
  /** One line per disagreement as it happens (at most 10 a second); absent: no log. */
  log?: (line: string) => void;
  reportLimits?: ReportLimits;
  /** The contract's documented answers (default: the packaged `openapi.json`). */
  answers?: AnswersByOperation;
}

export interface RunningProxy {
  url: string;
  report(): ReportJson;
  close(): Promise<void>;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const origin = options.origin === undefined ? undefined : configuredOrigin(options.origin);
  const context = await proxyContext(options);
  // Room for the server package's 16 KiB query string (refused above it with 414) beside the other headers.
  const server = createServer({ maxHeaderSize: 32 * 1024 }, (request, response) => {
    try {
      handleRequest(context, request, response);
    } catch (error) {
      if (!response.headersSent) sendJson(response, 500, errorBody(500, 'the proxy failed'));
      options.log?.(oneLine(`✖ proxy error: ${(error as Error).message}`));
    }
  });
  // Node's own errors (headers too large, garbage) in the API's shape, as the server package answers them.
  server.on('clientError', clientErrorHandler);
  const url = await listen(server, options.port ?? 4011, options.host ?? '127.0.0.1');
  context.ownOrigin = () => origin ?? url;
  return {
    url,
    report: () => context.report.toJSON(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        context.agent.destroy();
      }),
  };
}

async function proxyContext(options: ProxyOptions): Promise<ProxyContext> {
  const upstream = new URL(options.upstream);
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new Error(`--upstream must be an http: or https: URL, got ${upstream.protocol}`);
  const base = upstream.pathname.replace(/\/$/, '');
  const limits = defaultLimits;
  return {
    upstream,
    base,
    agent: upstream.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
    strict: options.strict === true,
    timeoutMs: options.timeoutMs ?? 30_000,
    checkBytes: options.checkBytes ?? 4 * 1024 * 1024,
    answers: options.answers ?? (await loadAnswers()),
    report: new Report(upstream.origin + base, options.reportLimits),
    limits,
    memo: new BodyMemo(),
    rewrite: upstreamUrlRewriter(upstream.origin + base),
    log: options.log ? rateLimitedLog(options.log, 10) : undefined,
    ownOrigin: () => '',
    ...routeReaders(limits),
  };
}

/** `https://proxy.example/` → `https://proxy.example`; anything but an http(s) origin is refused. */
function configuredOrigin(text: string): string {
  const url = new URL(text);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== text.replace(/\/$/, ''))
    throw new Error(`origin must be an http: or https: origin such as https://proxy.example, got ${text}`);
  return url.origin;
}

/** Listens, and resolves to the origin clients call. */
async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
}
