/**
 * One request through the proxy: admitted as the server package admits it (a refusal that does not depend on the
 * upstream is answered here and nothing is forwarded), forwarded, its answer streamed back, and both checked.
 */
import {
  request as httpRequest,
  type Agent,
  type ClientRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { apiPrefix, errorBody, routes, securitySchemes, type ServiceApiLimits } from '@service-api/server';
import {
  admissionRoute,
  admit,
  admitBody,
  essence,
  operationMatcher,
  type AdmissionRoute,
  type MatchedOperation,
  type Refusal,
  type Verdict,
} from '@service-api/server/internal';
import { type BodyMemo, checkHead, checksBody, decoded } from './check-answer.ts';
import { checkRequest } from './check-request.ts';
import type { AnswersByOperation } from './contract.ts';
import type { Disagreement, Report } from './report.ts';
import type { Rewritten } from './rewrite.ts';
import { asksFirst, forwardBody, forwardedHeaders, sendJson, Tee } from './streams.ts';

export const REPORT_PATH = '/__proxy/report';
const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD']);

/** What every exchange of one proxy shares. */
export interface ProxyContext {
  upstream: URL;
  /** The upstream's path prefix, without a trailing slash. */
  base: string;
  agent: Agent;
  strict: boolean;
  timeoutMs: number;
  checkBytes: number;
  answers: AnswersByOperation;
  report: Report;
  limits: ServiceApiLimits;
  memo: BodyMemo;
  rewrite: (raw: string[], proxyOrigin: string) => Rewritten;
  log?: (line: string) => void;
  /** The origin clients call the proxy at (its `origin` option, else its address once it listens): never a client's `Host`. */
  ownOrigin: () => string;
  match: (method: string, path: string) => MatchedOperation | undefined;
  admission: (route: MatchedOperation['route']) => AdmissionRoute;
}

/** The parts of a proxy's context that depend only on the server package's routes. */
export function routeReaders(limits: ServiceApiLimits): Pick<ProxyContext, 'match' | 'admission'> {
  const admissions = new Map<string, AdmissionRoute>();
  return {
    match: operationMatcher(routes),
    admission: (route) => {
      let found = admissions.get(route.id);
      if (!found) admissions.set(route.id, (found = admissionRoute(route, securitySchemes, limits)));
      return found;
    },
  };
}

/** A request being proxied. */
interface Exchange {
  context: ProxyContext;
  request: IncomingMessage;
  response: ServerResponse;
  method: string;
  url: string;
  /** `METHOD path`, where findings are located. */
  location: string;
  /** The operation's id, or a key of an undocumented call. */
  operation: string;
  matched: MatchedOperation | undefined;
  /** Settles once the request is checked (or found not to be checkable). */
  requestChecked: Promise<void>;
  answered: boolean;
  /** The upstream's answer, once its head arrived. */
  incoming?: IncomingMessage;
  /** Set once the upstream failed and the client got a 502 (or a cut connection). */
  failed: boolean;
}

/** Proxies one request (the report at `REPORT_PATH` is the proxy's own). */
export function handleRequest(context: ProxyContext, request: IncomingMessage, response: ServerResponse): void {
  const method = request.method ?? 'GET';
  const url = request.url ?? '/';
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  if (method === 'GET' && path === REPORT_PATH) return void sendJson(response, 200, context.report.toJSON());
  const matched = path.startsWith(`${apiPrefix}/`) ? context.match(method, path.slice(apiPrefix.length)) : undefined;
  const operation = matched ? context.admission(matched.route) : undefined;
  const verdict = admit(url, request.headers, operation, context.limits);
  const refusal = ownRefusal(verdict, request, operation, context.limits);
  if (refusal) return void refuse(request, response, refusal);
  const exchange: Exchange = {
    context,
    request,
    response,
    method,
    url,
    location: `${method} ${path}`,
    operation: operationKey(method, path, matched),
    matched,
    requestChecked: Promise.resolve(),
    answered: false,
    failed: false,
  };
  if (!matched) recordUndocumented(exchange, path);
  if (matched) exchange.requestChecked = checkRequestWhenRead(exchange, matched, verdict.query);
  forward(exchange);
}

/**
 * The refusal of the server package's admission that the proxy answers itself, before anything is forwarded. An
 * anonymous call of an authenticated operation (401) and a body of a media type the operation does not read (415) are
 * the upstream's to answer, in the server's order (401 before any limit on the body): the proxy checks that answer.
 */
function ownRefusal(
  verdict: Verdict,
  request: IncomingMessage,
  operation: AdmissionRoute | undefined,
  limits: ServiceApiLimits,
): Refusal | undefined {
  if (verdict.refusal) return verdict.refusal.status === 401 ? undefined : verdict.refusal;
  const refusal = operation ? admitBody(request.headers, operation, limits) : undefined;
  return refusal?.status === 415 ? undefined : refusal;
}

/** The operation a path reaches, under the API's prefix; a key for an undocumented one (ids folded, bounded). */
function operationKey(method: string, path: string, matched: MatchedOperation | undefined): string {
  if (matched) return matched.route.id;
  const folded = path.replace(/\/\d+(?=\/|$)/g, '/{n}');
  return `${method} ${folded.length > 120 ? `${folded.slice(0, 120)}…` : folded}`;
}

function record(exchange: Exchange, found: Disagreement[]): void {
  const { context, operation, location } = exchange;
  for (const disagreement of found) {
    context.report.disagree(operation, disagreement, location);
    context.log?.(`✖ ${operation} ${disagreement.kind}: ${disagreement.detail} (${location})`);
  }
}

function recordUndocumented(exchange: Exchange, path: string): void {
  const detail = path.startsWith(`${apiPrefix}/`)
    ? 'no documented operation at this method and path'
    : `outside ${apiPrefix}`;
  record(exchange, [{ kind: 'undocumented-operation', detail }]);
}

/** Checks a bounded copy of the request once it is read; settles when done. */
function checkRequestWhenRead(
  exchange: Exchange,
  matched: MatchedOperation,
  query: Record<string, unknown>,
): Promise<void> {
  const { context, request, method, operation } = exchange;
  const tee = METHODS_WITHOUT_BODY.has(method) ? undefined : new Tee(context.checkBytes);
  if (tee) request.on('data', (chunk: Buffer) => tee.add(chunk));
  return new Promise<void>((resolve) => {
    request.once('end', () => {
      if (tee?.over) {
        context.report.unchecked(operation, 'request body too large to check');
        return resolve();
      }
      const type = essence(request.headers['content-type']);
      const parts = { matched, method, query, headers: request.headers, type, body: tee?.bytes() };
      checkRequest(parts, context.limits)
        .then(
          (found) => record(exchange, found),
          () => context.report.unchecked(operation, 'request could not be checked'),
        )
        .finally(resolve);
    });
  });
}

/** Sends the request upstream: 504 when its answer does not begin in time, 502 when it cannot be reached. */
function forward(exchange: Exchange): void {
  const { context, request, response, method, url } = exchange;
  const { upstream } = context;
  const askFirst = !METHODS_WITHOUT_BODY.has(method) && asksFirst(request.headers);
  const headers = { ...request.headers, host: upstream.host, ...(askFirst ? { expect: '100-continue' } : {}) };
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  const outgoing = send({
    protocol: upstream.protocol,
    hostname: upstream.hostname,
    port: upstream.port,
    method,
    path: context.base + url,
    headers,
    agent: context.agent,
  });
  const timer = setTimeout(() => {
    if (exchange.answered) return;
    const detail = `the upstream ${upstream.origin} did not answer within ${context.timeoutMs} ms`;
    answerOnce(exchange, 504, `504 Gateway Timeout - ${detail}`);
    outgoing.destroy();
  }, context.timeoutMs);
  outgoing.on('error', (error: NodeJS.ErrnoException) => {
    clearTimeout(timer);
    // An answer already whole (an early 413, then a reset while the body was still going) is relayed as it is.
    if (exchange.incoming?.complete) return;
    if (exchange.incoming) return upstreamFailed(exchange, 'the connection broke off mid-answer');
    if (exchange.answered) return;
    const code = error.code ?? 'an error';
    upstreamFailed(exchange, `no answer: the connection failed (${code})`, `could not be reached (${code})`);
  });
  forwardBody(request, outgoing, askFirst, () => exchange.answered);
  response.on('close', () => {
    if (!response.writableFinished) outgoing.destroy();
  });
  onUpstreamAnswer(exchange, outgoing, timer);
}

/**
 * The upstream failed or sent what HTTP cannot carry on (`detail`, without any of its bytes): reported, and the
 * client gets a 502 in the API's shape, or, once the answer's head went out, a cut connection, as the upstream's.
 */
function upstreamFailed(
  exchange: Exchange,
  detail: string,
  message = `sent an answer that cannot be relayed: ${detail}`,
): void {
  if (exchange.failed) return;
  exchange.failed = true;
  exchange.incoming?.resume();
  record(exchange, [{ kind: 'upstream-failure', detail }]);
  if (exchange.response.headersSent) return void exchange.response.destroy();
  exchange.answered = true;
  exchange.context.report.call(exchange.operation, 502);
  sendJson(exchange.response, 502, {
    message: `502 Bad Gateway - the upstream ${exchange.context.upstream.origin} ${message}`,
  });
}

/** The proxy's own answer when the upstream's did not come. */
function answerOnce(exchange: Exchange, status: number, message: string): void {
  exchange.answered = true;
  exchange.context.report.call(exchange.operation, status);
  sendJson(exchange.response, status, { message });
}

function onUpstreamAnswer(exchange: Exchange, outgoing: ClientRequest, timer: NodeJS.Timeout): void {
  outgoing.on('response', (incoming) => {
    clearTimeout(timer);
    if (exchange.answered) return void incoming.resume();
    exchange.answered = true;
    exchange.incoming = incoming;
    // A reset or a close before the whole answer came.
    incoming.once('close', () => {
      if (!incoming.complete) upstreamFailed(exchange, 'the connection broke off mid-answer');
    });
    incoming.on('error', () => undefined);
    const problem = statusLineProblem(incoming);
    if (problem) return upstreamFailed(exchange, problem);
    relayAnswer(exchange, incoming);
  });
}

/** A status line the proxy cannot pass on as it came: a status outside 100–599, a reason phrase beyond printable ASCII. */
function statusLineProblem(incoming: IncomingMessage): string | undefined {
  const status = incoming.statusCode ?? 0;
  if (!Number.isInteger(status) || status < 100 || status > 599) return `status ${status} outside 100-599`;
  if (!/^[\t\x20-\x7e]*$/.test(incoming.statusMessage ?? '')) return 'a reason phrase beyond printable ASCII';
  return undefined;
}

/** How much of an answer is held before its head is sent: a smaller one that breaks off still gets a clean 502. */
const HOLD_BYTES = 64 * 1024;

/**
 * The upstream's answer, checked: held until it ends or passes a bound (under `--strict`, the bound of the checked
 * copy, and held until checked), then streamed.
 */
function relayAnswer(exchange: Exchange, incoming: IncomingMessage): void {
  const { context, matched, method, operation } = exchange;
  const status = incoming.statusCode!;
  const head = { method, status, headers: incoming.headers };
  const { found, answer } = matched
    ? checkHead(context.answers.get(matched.route.id) ?? new Map(), head)
    : { found: [], answer: undefined };
  const tee = matched !== undefined && checksBody(head, answer) ? new Tee(context.checkBytes) : undefined;
  const answered: Answered = {
    incoming,
    status,
    tee,
    finish: (bodyFound) => {
      context.report.call(operation, status);
      void exchange.requestChecked.then(() => record(exchange, [...found, ...bodyFound]));
    },
  };
  const violations = found.filter((disagreement) => disagreement.kind !== 'absent-optional-header');
  if (context.strict && violations.length > 0) {
    incoming.resume();
    return void incoming.once('end', () => {
      answered.finish([]);
      violation(exchange.response, violations);
    });
  }
  holdThenStream(exchange, answered, context.strict && tee ? context.checkBytes : HOLD_BYTES);
}

/** An upstream answer being relayed. */
interface Answered {
  incoming: IncomingMessage;
  status: number;
  /** The copy of the body being checked, if it is. */
  tee: Tee | undefined;
  /** Counts the call and records what was found, once the request's own check is done. */
  finish: (bodyFound: Disagreement[]) => void;
}

/** Holds the answer up to `bound` bytes: sent whole once it ends; past the bound, what is held is sent and the rest streamed. */
function holdThenStream(exchange: Exchange, answered: Answered, bound: number): void {
  const { incoming, tee } = answered;
  const { response } = exchange;
  const held: Buffer[] = [];
  let size = 0;
  let streaming = false;
  incoming.on('data', (chunk: Buffer) => {
    tee?.add(chunk);
    if (streaming) return;
    held.push(chunk);
    size += chunk.length;
    if (size <= bound) return;
    streaming = true;
    if (!writeHead(exchange, answered)) return;
    for (const part of held) response.write(part);
    held.length = 0;
    incoming.pipe(response);
  });
  incoming.once('end', () => {
    if (exchange.failed) return;
    const problems = bodyFindings(exchange, answered);
    if (response.headersSent) return answered.finish(problems);
    if (exchange.context.strict && problems.length > 0) {
      answered.finish(problems);
      return violation(response, problems);
    }
    if (!writeHead(exchange, answered)) return;
    answered.finish(problems);
    response.end(held.length === 1 ? held[0] : Buffer.concat(held));
  });
}

/**
 * The answer's head, with the upstream's own URLs in `Link` and `Location` moved to the proxy's origin; false (and a
 * 502) when a header cannot be passed on.
 */
function writeHead(exchange: Exchange, { incoming, status }: Answered): boolean {
  const { context, response } = exchange;
  const forwarded = context.rewrite(forwardedHeaders(incoming.rawHeaders), context.ownOrigin());
  try {
    response.writeHead(status, incoming.statusMessage, forwarded.headers);
  } catch {
    upstreamFailed(exchange, 'a header that HTTP does not allow');
    return false;
  }
  for (const name of forwarded.rewritten) context.report.rewrote(name);
  return true;
}

/** What the answer's body breaks of the contract (nothing when it is not checked or cannot be). */
function bodyFindings(exchange: Exchange, { incoming, status, tee }: Answered): Disagreement[] {
  const { context, operation, matched } = exchange;
  if (!tee || !matched) return [];
  if (tee.over) {
    context.report.unchecked(operation, 'answer body too large to check');
    return [];
  }
  const bytes = decoded(tee.bytes(), incoming.headers['content-encoding'] as string | undefined, context.checkBytes);
  if (typeof bytes === 'string') {
    context.report.unchecked(operation, bytes);
    return [];
  }
  return context.memo.check(matched.route.id, status, bytes);
}

/** A hostile input the server package refuses: its status and message, and nothing forwarded. */
function refuse(request: IncomingMessage, response: ServerResponse, refusal: Refusal): void {
  request.resume();
  sendJson(response, refusal.status, errorBody(refusal.status, refusal.detail, refusal.problems));
}

/** `--strict`: the answer broke the contract; the client gets the violations instead. */
function violation(response: ServerResponse, found: Disagreement[]): void {
  sendJson(response, 502, {
    message: `502 Bad Gateway - the upstream's answer breaks the contract: ${found.map((d) => `${d.kind}: ${d.detail}`).join('; ')}`,
    violations: found,
  });
}
