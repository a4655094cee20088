/**
 * The access log and the tolerance report: one entry per answer under the prefix, and what a request sent that the
 * contract does not describe in that form, logged at `info` and passed to `onTolerated`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDescriptor } from './route.js';
import { fastifyPath } from './routing.js';
import type { Tolerances, Tolerated } from './tolerance.js';

/** What a request sent that the contract does not describe in that form, and the server tolerated. */
export interface ToleranceReport {
  operationId: string;
  method: string;
  url: string;
  /** The first `limits.errors` tolerances. */
  tolerated: Tolerated[];
  /** How many there were in all. */
  count: number;
}

/** One answered request, as `accessLog` receives it. */
export interface AccessLogEntry {
  method: string;
  /** The request's path and query as sent (at most 512 characters). */
  url: string;
  status: number;
  /** The operation the request reached (absent for a 404, a 405 or a preflight). */
  operationId?: string;
  /** From the request's arrival to the answer's end. */
  ms: number;
  /** What was tolerated (the report `onTolerated` receives), if anything. */
  tolerated?: ToleranceReport;
}

export type AccessLog = (entry: AccessLogEntry, request: FastifyRequest) => void;
export type OnTolerated = (report: ToleranceReport, request: FastifyRequest) => void;

/** The request's URL as a log shows it. */
function loggedUrl(request: FastifyRequest): string {
  return (request.raw.url ?? '').slice(0, 512);
}

/** Calls `accessLog` once per answer; returns where a request's tolerance report is kept for its entry. */
export function addAccessLog(
  scope: FastifyInstance,
  routes: RouteDescriptor[],
  accessLog: AccessLog,
): WeakMap<FastifyRequest, ToleranceReport> {
  const toleratedOf = new WeakMap<FastifyRequest, ToleranceReport>();
  const operationOf = new Map<string, string>();
  for (const route of routes) {
    const url = `${scope.prefix}${fastifyPath(route.path)}`;
    operationOf.set(`${route.method} ${url}`, route.id);
    if (route.method === 'GET' && !operationOf.has(`HEAD ${url}`)) operationOf.set(`HEAD ${url}`, route.id);
  }
  scope.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const entry: AccessLogEntry = {
      method: request.method,
      url: loggedUrl(request),
      status: reply.statusCode,
      operationId: operationOf.get(`${request.method} ${request.routeOptions.url}`),
      ms: reply.elapsedTime,
      tolerated: toleratedOf.get(request),
    };
    try {
      accessLog(entry, request);
    } catch (error) {
      request.log.error(error);
    }
    done();
  });
  return toleratedOf;
}

/** Logs a tolerant request at `info` and tells `onTolerated`. */
export function reportTolerances(
  route: RouteDescriptor,
  request: FastifyRequest,
  tolerances: Tolerances,
  onTolerated: OnTolerated | undefined,
): ToleranceReport {
  const report: ToleranceReport = {
    operationId: route.id,
    method: route.method,
    url: loggedUrl(request),
    tolerated: tolerances.list,
    count: tolerances.count,
  };
  request.log.info({ serviceApi: report }, `${route.id}: tolerated ${tolerances.count} deviation(s) from the contract`);
  try {
    onTolerated?.(report, request);
  } catch (error) {
    request.log.error(error);
  }
  return report;
}
