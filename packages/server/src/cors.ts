/**
 * CORS for browser clients (the `cors` option): every answer allows the calling origin (with credentials, so the
 * session cookie works) and exposes the API's headers; a preflight on a known path is answered with its methods and
 * the headers asked for.
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

/** The CORS headers of every answer to a request with these headers. */
export function corsHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const origin = headers.origin;
  if (!origin) return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
  return {
    'access-control-allow-origin': /^[\x21-\x7e]{1,300}$/.test(origin) ? origin : 'null',
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
