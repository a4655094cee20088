/**
 * CORS for browser clients: every answer allows the calling origin (with credentials, so the session cookie works)
 * and exposes the API's headers; a preflight is answered with the path's methods and the headers asked for.
 */
import type { IncomingMessage } from 'node:http';

const EXPOSED = [
  'Link', 'X-Total', 'X-Total-Pages', 'X-Per-Page', 'X-Page', 'X-Next-Page', 'X-Prev-Page', 'Retry-After', 'Location', 'Deprecation',
  'sl-violations', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Content-Disposition',
  'X-Service-Blob-Id', 'X-Service-Commit-Id', 'X-Service-Content-Sha256', 'X-Service-Encoding', 'X-Service-File-Name',
  'X-Service-File-Path', 'X-Service-Last-Commit-Id', 'X-Service-Ref', 'X-Service-Size', 'X-Service-Execute-Filemode',
].join(', ');

const TOKEN = /^[\w!#$%&'*+.^`|~-]+$/;

export function corsHeaders(req: IncomingMessage): [string, string][] {
  const origin = req.headers.origin;
  if (!origin) return [['Access-Control-Allow-Origin', '*'], ['Access-Control-Expose-Headers', EXPOSED]];
  const allowed = /^[\x21-\x7e]{1,300}$/.test(origin) ? origin : 'null';
  return [
    ['Access-Control-Allow-Origin', allowed],
    ['Access-Control-Allow-Credentials', 'true'],
    ['Access-Control-Expose-Headers', EXPOSED],
    ['Vary', 'Origin'],
  ];
}

export function preflightHeaders(req: IncomingMessage, allow: string[]): [string, string][] {
  const asked = String(req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => TOKEN.test(h))
    .slice(0, 50);
  return [
    ['Access-Control-Allow-Methods', allow.join(', ')],
    ['Access-Control-Allow-Headers', asked.length ? asked.join(', ') : 'Authorization, Content-Type, PRIVATE-TOKEN, JOB-TOKEN, Sudo, Prefer'],
    ['Access-Control-Max-Age', '600'],
  ];
}
