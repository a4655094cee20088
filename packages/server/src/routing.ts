/**
 * Routing: a method and path to its operation, as the server routes it (a literal segment wins over a parameter), and
 * the answers to requests no operation takes (404, 405 with `Allow`, `OPTIONS`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { preflightHeaders } from './cors.js';
import type { Refuse } from './errors.js';
import type { MatchedOperation, RouteDescriptor } from './route.js';

interface Candidate {
  route: RouteDescriptor;
  names: string[];
  pattern: RegExp;
  rank: string;
}

/**
 * A matcher of a method and a path (below the prefix, without the query) to its operation, routed as the server routes
 * it: a literal segment wins over a parameter at the same place. For tools that read requests without answering them
 * (a checking proxy); a path with a malformed percent-escape matches nothing.
 */
export function operationMatcher(
  routes: RouteDescriptor[],
): (method: string, path: string) => MatchedOperation | undefined {
  const buckets = candidatesByMethodAndLength(routes);
  return (method, path) => {
    let segments = 1;
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) segments++;
    for (const candidate of buckets.get(`${method} ${segments}`) ?? []) {
      const found = candidate.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      try {
        candidate.names.forEach((name, i) => {
          params[name] = decodeURIComponent(found[i + 1]!);
        });
      } catch {
        return undefined;
      }
      return { route: candidate.route, params };
    }
    return undefined;
  };
}

/** Routes by method and segment count, the most literal first at the first segment where two differ. */
function candidatesByMethodAndLength(routes: RouteDescriptor[]): Map<string, Candidate[]> {
  const buckets = new Map<string, Candidate[]>();
  for (const route of routes) {
    const segments = route.path.split('/');
    const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const segmentPattern = (segment: string) => templatePattern(segment, '([^/]+?)');
    const pattern = new RegExp(`^${segments.map(segmentPattern).join('/')}$`);
    const key = `${route.method} ${segments.length}`;
    const bucket = buckets.get(key) ?? [];
    bucket.push({ route, names, pattern, rank: literalRank(route.path) });
    buckets.set(key, bucket);
  }
  for (const bucket of buckets.values()) bucket.sort((x, y) => (x.rank < y.rank ? -1 : x.rank > y.rank ? 1 : 0));
  return buckets;
}

/** A template's literal text escaped for a regular expression, each `{parameter}` replaced by `parameter`. */
function templatePattern(template: string, parameter: string): string {
  return template
    .split(/\{[^}]+\}/)
    .map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join(parameter);
}

/** `/projects/{id}/jobs` → `/projects/:id/jobs` (Fastify's syntax; a literal `:` is doubled). */
export function fastifyPath(path: string): string {
  return path.replace(/:/g, '::').replace(/\{([^}]+)\}/g, ':$1');
}

interface Template {
  pattern: RegExp;
  rank: string;
  methods: string[];
}

/** Each path template with the methods it documents. */
function templatesOf(routes: RouteDescriptor[]): Map<string, Template> {
  const templates = new Map<string, Template>();
  for (const route of routes) {
    const entry = templates.get(route.path) ?? {
      pattern: new RegExp(`^${templatePattern(route.path, '[^/]+')}$`),
      rank: literalRank(route.path),
      methods: [],
    };
    entry.methods.push(route.method);
    templates.set(route.path, entry);
  }
  return templates;
}

/**
 * Requests no operation takes: a known path with another method answers 405 with `Allow`, an unknown path 404. They
 * are answered in `onRequest` of their own scope, before any body is parsed or any credential read.
 */
export function unroutedRequests(routes: RouteDescriptor[], refuse: Refuse, cors: boolean) {
  const templates = templatesOf(routes);
  return async (unrouted: FastifyInstance) => {
    const prefix = unrouted.prefix;
    const answer = (request: FastifyRequest, reply: FastifyReply): undefined => {
      const url = request.raw.url ?? '';
      const at = url.indexOf('?');
      const path = (at < 0 ? url : url.slice(0, at)).slice(prefix.length) || '/';
      // The path as the router reads it: the most literal template that matches (`/runners/all`, not `/runners/{id}`).
      let matched: Template | undefined;
      for (const template of templates.values())
        if (template.pattern.test(path) && (!matched || template.rank < matched.rank)) matched = template;
      if (!matched) return refuse(request, reply, { status: 404 });
      const allowed = allowedMethods(matched.methods);
      if (request.method === 'OPTIONS') {
        // As Grape answers OPTIONS on a known route: 204 and its methods in Allow (a preflight with CORS).
        const headers = cors ? preflightHeaders(request.headers, allowed) : { allow: allowed.join(', ') };
        return void reply.code(204).headers(headers).send();
      }
      return refuse(request, reply.header('allow', allowed.join(', ')), { status: 405 });
    };
    // The hook answers and never passes the request on: its body is not parsed.
    unrouted.addHook('onRequest', (request, reply, _done) => answer(request, reply));
    unrouted.setNotFoundHandler(answer);
  };
}

/**
 * The methods a path answers, as Grape lists them in `Allow`: its operations', `HEAD` beside `GET` (answered as the GET
 * without a body) and `OPTIONS` (Grape's `add_head_not_allowed_methods_and_options_methods` adds both to every route).
 */
function allowedMethods(methods: string[]): string[] {
  const all = new Set(methods);
  if (all.has('GET')) all.add('HEAD');
  all.add('OPTIONS');
  return [...all].sort();
}

/** How literal a template is, segment by segment: a literal segment sorts before one with a parameter in text (`archive.{format}`), which sorts before a parameter. */
function literalRank(path: string): string {
  return path
    .split('/')
    .map((s) => (!s.includes('{') ? 'a' : /^\{[^}]+\}$/.test(s) ? 'c' : 'b'))
    .join('');
}
