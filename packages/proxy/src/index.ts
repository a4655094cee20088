/**
 * A contract-checking proxy: forwards every request to the upstream and every answer to the client unchanged (but for
 * the upstream's own URLs in `Link` and `Location`, moved to the origin the client called) and streamed, and checks a bounded copy of both against the contract. The request is read with the server package's
 * readers and limits; hostile inputs it refuses before reading get its 4xx and are not forwarded.
 */
import {
  createServer,
  request as httpRequest,
  Agent as HttpAgent,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import {
  apiPrefix,
  defaultLimits,
  errorBody,
  essence,
  extractCredentials,
  InputError,
  operationMatcher,
  parseQuery,
  sourceOf,
  routes,
  securitySchemes,
  type MatchedOperation,
} from '@service-api/server';
import { BodyMemo, checkHead, checksBody, decoded } from './check-answer.ts';
import { checkRequest } from './check-request.ts';
import { loadAnswers, type AnswersByOperation } from './contract.ts';
import { Report, type Disagreement, type ReportJson, type ReportLimits } from './report.ts';
import { oneLine, rateLimitedLog } from './log.ts';
import { clientOrigin, upstreamUrlRewriter } from './rewrite.ts';
import { asksFirst, forwardBody, forwardedHeaders, sendJson, Tee } from './streams.ts';

export { Report, type Disagreement, type Kind, type ReportJson, type ReportLimits } from './report.ts';
/** The version of the contract this package implements (that of the @service-api/server it runs on). */
export { contractVersion } from '@service-api/server';

export interface ProxyOptions {
  /** Where requests go: `https://service.example` (a path prefix, if any, is kept). */
  upstream: string;
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

export const REPORT_PATH = '/__proxy/report';
const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD']);

/** The operation a path reaches, under the API's prefix; a key for an undocumented one (ids folded, bounded). */
function operationKey(method: string, path: string, matched: MatchedOperation | undefined): string {
  if (matched) return matched.route.id;
  const folded = path.replace(/\/\d+(?=\/|$)/g, '/{n}');
  return `${method} ${folded.length > 120 ? `${folded.slice(0, 120)}…` : folded}`;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = new URL(options.upstream);
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new Error(`--upstream must be an http: or https: URL, got ${upstream.protocol}`);
  const base = upstream.pathname.replace(/\/$/, '');
  const secure = upstream.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const checkBytes = options.checkBytes ?? 4 * 1024 * 1024;
  const answers = options.answers ?? (await loadAnswers());
  const match = operationMatcher(routes);
  const report = new Report(upstream.origin + base, options.reportLimits);
  const log = options.log ? rateLimitedLog(options.log, 10) : undefined;
  const limits = defaultLimits;
  const memo = new BodyMemo();
  const rewrite = upstreamUrlRewriter(upstream.origin + base);
  let ownOrigin = '';

  const record = (operation: string, found: Disagreement[], location: string) => {
    for (const disagreement of found) {
      report.disagree(operation, disagreement, location);
      log?.(`✖ ${operation} ${disagreement.kind}: ${disagreement.detail} (${location})`);
    }
  };

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    if (method === 'GET' && path === REPORT_PATH) return sendJson(response, 200, report.toJSON());
    const location = `${method} ${path}`;
    const rawQuery = at < 0 ? '' : url.slice(at + 1);
    // The server package's admission: bounds checked before anything is forwarded.
    if (rawQuery.length > limits.queryLength)
      return refuse(request, response, 414, `the query string is longer than ${limits.queryLength} bytes`);
    const matched = path.startsWith(`${apiPrefix}/`) ? match(method, path.slice(apiPrefix.length)) : undefined;
    let query: Record<string, unknown>;
    try {
      query = parseQuery(rawQuery, matched?.route.query, limits.queryParameters);
    } catch (error) {
      if (error instanceof InputError) return refuse(request, response, error.statusCode, error.message);
      throw error;
    }
    const type = essence(request.headers['content-type']);
    const bodyLimit = sourceOf(type) === 'multipart' ? limits.multipartBody : limits.jsonBody;
    // In the server's order: an unknown path (404) and an anonymous call of an authenticated operation (401) are the
    // upstream's to answer, before any limit on the body.
    if (
      matched &&
      !refusedAsAnonymous(matched, request.headers, query) &&
      Number(request.headers['content-length']) > bodyLimit
    )
      return refuse(request, response, 413, `the body is larger than ${bodyLimit} bytes`);
    const operation = operationKey(method, path, matched);
    if (!matched)
      record(
        operation,
        [
          {
            kind: 'undocumented-operation',
            detail: path.startsWith(`${apiPrefix}/`)
              ? 'no documented operation at this method and path'
              : `outside ${apiPrefix}`,
          },
        ],
        location,
      );

    const requestTee = matched && !METHODS_WITHOUT_BODY.has(method) ? new Tee(checkBytes) : undefined;
    if (requestTee) request.on('data', (chunk: Buffer) => requestTee.add(chunk));
    const requestChecked = new Promise<void>((resolve) => {
      request.once('end', () => {
        if (!matched) return resolve();
        if (requestTee?.over) {
          report.unchecked(operation, 'request body too large to check');
          return resolve();
        }
        checkRequest({ matched, method, query, headers: request.headers, type, body: requestTee?.bytes() }, limits)
          .then(
            (found) => record(operation, found, location),
            () => report.unchecked(operation, 'request could not be checked'),
          )
          .finally(resolve);
      });
    });

    const askFirst = !METHODS_WITHOUT_BODY.has(method) && asksFirst(request.headers);
    const headers = { ...request.headers, host: upstream.host, ...(askFirst ? { expect: '100-continue' } : {}) };
    const outgoing = send({
      protocol: upstream.protocol,
      hostname: upstream.hostname,
      port: upstream.port,
      method,
      path: base + url,
      headers,
      agent,
    });
    let answered = false;
    const timer = setTimeout(() => {
      if (answered) return;
      answered = true;
      report.call(operation, 504);
      sendJson(response, 504, {
        message: `504 Gateway Timeout - the upstream ${upstream.origin} did not answer within ${timeoutMs} ms`,
      });
      outgoing.destroy();
    }, timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (answered) return void response.destroy();
      answered = true;
      report.call(operation, 502);
      sendJson(response, 502, {
        message: `502 Bad Gateway - the upstream ${upstream.origin} could not be reached (${error.code ?? error.message})`,
      });
    });
    forwardBody(request, outgoing, askFirst, () => answered);
    response.on('close', () => {
      if (!response.writableFinished) outgoing.destroy();
    });

    outgoing.on('response', (incoming) => {
      clearTimeout(timer);
      if (answered) return void incoming.resume();
      answered = true;
      const status = incoming.statusCode ?? 502;
      /** The answer's head, with the upstream's own URLs in `Link` and `Location` moved to the origin called. */
      const writeHead = () => {
        const forwarded = rewrite(forwardedHeaders(incoming.rawHeaders), clientOrigin(request.headers.host, ownOrigin));
        for (const name of forwarded.rewritten) report.rewrote(name);
        response.writeHead(status, incoming.statusMessage, forwarded.headers);
      };
      const head = { method, status, headers: incoming.headers };
      const { found, answer } = matched
        ? checkHead(answers.get(matched.route.id) ?? new Map(), head)
        : { found: [], answer: undefined };
      const checking = matched !== undefined && checksBody(head, answer);
      const finish = (bodyFound: Disagreement[]) => {
        report.call(operation, status);
        void requestChecked.then(() => record(operation, [...found, ...bodyFound], location));
      };
      const violations = found.filter((disagreement) => disagreement.kind !== 'absent-optional-header');
      if (options.strict && violations.length > 0) {
        incoming.resume();
        return void incoming.once('end', () => {
          finish([]);
          violation(response, violations);
        });
      }
      const tee = checking ? new Tee(checkBytes) : undefined;
      const bodyFound = () => {
        if (!tee) return [];
        if (tee.over) {
          report.unchecked(operation, 'answer body too large to check');
          return [];
        }
        const bytes = decoded(tee.bytes(), incoming.headers['content-encoding'] as string | undefined, checkBytes);
        if (typeof bytes === 'string') {
          report.unchecked(operation, bytes);
          return [];
        }
        return memo.check(matched!.route.id, status, bytes);
      };
      if (options.strict && tee) {
        // Held until checked, up to the bound; past it, what is held is sent and the rest streamed unchecked.
        const held: Buffer[] = [];
        let streaming = false;
        incoming.on('data', (chunk: Buffer) => {
          if (streaming) return;
          tee.add(chunk);
          if (!tee.over) return void held.push(chunk);
          streaming = true;
          writeHead();
          for (const part of held) response.write(part);
          response.write(chunk);
          held.length = 0;
          incoming.pipe(response);
        });
        return void incoming.once('end', () => {
          const problems = bodyFound();
          finish(problems);
          if (response.headersSent) return;
          if (problems.length > 0) return violation(response, problems);
          writeHead();
          response.end(Buffer.concat(held));
        });
      }
      writeHead();
      if (tee) incoming.on('data', (chunk: Buffer) => tee.add(chunk));
      incoming.pipe(response);
      incoming.once('end', () => finish(bodyFound()));
      incoming.once('error', () => response.destroy());
    });
  };

  // Room for the server package's 16 KiB query string (refused above it with 414) beside the other headers.
  const server = createServer({ maxHeaderSize: 32 * 1024 }, (request, response) => {
    try {
      handle(request, response);
    } catch (error) {
      if (!response.headersSent) sendJson(response, 500, errorBody(500, 'the proxy failed'));
      options.log?.(oneLine(`✖ proxy error: ${(error as Error).message}`));
    }
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return;
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = JSON.stringify(
      status === 431 ? { message: '431 Request Header Fields Too Large' } : errorBody(400, 'the request is malformed'),
    );
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4011, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  ownOrigin = `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    url: ownOrigin,
    report: () => report.toJSON(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

/** Whether the upstream answers 401 before reading the body: an authenticated operation called without a credential. */
function refusedAsAnonymous(
  matched: MatchedOperation,
  headers: IncomingMessage['headers'],
  query: Record<string, unknown>,
): boolean {
  if (!matched.route.authenticated) return false;
  const accepted = new Set(matched.route.security.flat());
  const schemes = Object.fromEntries(Object.entries(securitySchemes).filter(([id]) => accepted.has(id)));
  return extractCredentials(headers, query, schemes as Parameters<typeof extractCredentials>[2]).length === 0;
}

/** A hostile input the server package refuses: its status and message, and nothing forwarded. */
function refuse(request: IncomingMessage, response: ServerResponse, status: number, detail: string): void {
  request.resume();
  sendJson(response, status, errorBody(status, detail));
}

/** `--strict`: the answer broke the contract; the client gets the violations instead. */
function violation(response: ServerResponse, found: Disagreement[]): void {
  sendJson(response, 502, {
    message: `502 Bad Gateway - the upstream's answer breaks the contract: ${found.map((d) => `${d.kind}: ${d.detail}`).join('; ')}`,
    violations: found,
  });
}
