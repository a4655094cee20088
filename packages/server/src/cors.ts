/**
 * CORS for browser clients (the `cors` option). Without a list of origins (`cors: true`), any page may read the
 * answers but never with its credentials (`Access-Control-Allow-Origin: *`): a page a developer happens to open cannot
 * act as them. With a list (`cors: ['http://localhost:5173']`), exactly those origins, with credentials (the session
 * cookie works); any other origin, `null` included, gets no CORS header. Every answer exposes the API's headers; a
 * preflight on a known path is answered with its methods and the headers asked for.
 */
import type { IncomingHttpHeaders } from 'node:http';

const EXPOSED = [
  'Link',
  'X-Total',
  'X-Total-Pages',
  'X-Per-Page',
  'X-Page',
  'X-Next-Page',
  'X-Prev-Page',
  'Retry-After',
  'Location',
  'Deprecation',
  'sl-violations',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Content-Disposition',
  'X-Service-Blob-Id',
  'X-Service-Commit-Id',
  'X-Service-Content-Sha256',
  'X-Service-Encoding',
  'X-Service-File-Name',
  'X-Service-File-Path',
  'X-Service-Last-Commit-Id',
  'X-Service-Ref',
  'X-Service-Size',
  'X-Service-Execute-Filemode',
].join(', ');

const TOKEN = /^[\w!#$%&'*+.^`|~-]+$/;

/** The origins a server answers browsers from: none listed, any origin without credentials. */
export interface CorsPolicy {
  origins: ReadonlySet<string>;
}

/** The policy of a `cors` option; an entry that is not an http(s) origin (`null` included) is refused. */
export function corsPolicy(option: boolean | readonly string[] | undefined): CorsPolicy | undefined {
  if (option === undefined || option === false) return undefined;
  const origins = option === true ? [] : option;
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin)
      throw new Error(`cors: "${origin}" is not an origin such as http://localhost:5173`);
  }
  return { origins: new Set(origins) };
}

/** Whether a request's `Origin` is one the policy lists (never `null`, never any when none are listed). */
export function originListed(headers: IncomingHttpHeaders, policy: CorsPolicy | undefined): boolean {
  const origin = headers.origin;
  return typeof origin === 'string' && policy?.origins.has(origin) === true;
}

/** The CORS headers of every answer to a request with these headers. */
export function corsHeaders(headers: IncomingHttpHeaders, policy: CorsPolicy): Record<string, string> {
  if (policy.origins.size === 0)
    return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
  if (!originListed(headers, policy)) return { vary: 'Origin' };
  return {
    'access-control-allow-origin': headers.origin as string,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': EXPOSED,
    vary: 'Origin',
  };
}

/** The headers of a preflight answer on a path with these methods. */
export function preflightHeaders(headers: IncomingHttpHeaders, methods: string[]): Record<string, string> {
  const asked = String(headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => TOKEN.test(h))
    .slice(0, 50);
  return {
    allow: methods.join(', '),
    'access-control-allow-methods': methods.join(', '),
    'access-control-allow-headers': asked.length
      ? asked.join(', ')
      : 'Authorization, Content-Type, PRIVATE-TOKEN, JOB-TOKEN, Sudo, Prefer',
    'access-control-max-age': '600',
  };
}
