/**
 * Whether a request carries credentials that one of the operation's security requirements accepts. The mock accepts
 * any value of a documented scheme; what it checks is the place (header, query, cookie, `Bearer`). Runs on headers and
 * query only, before the body is read.
 */
import type { IncomingHttpHeaders } from 'node:http';

export interface SecurityScheme {
  type: string;
  in?: string;
  name?: string;
  scheme?: string;
}

/** One security requirement: every scheme listed must be present. An empty list allows anonymous callers. */
export type Requirement = SecurityScheme[];

export type Credentials = { ok: true } | { ok: false; status: 400 | 401; message: string };

export function checkCredentials(requirements: Requirement[], headers: IncomingHttpHeaders, query: Map<string, string[]>): Credentials {
  if (requirements.length === 0) return { ok: true };
  let cookies: Map<string, string | undefined> | undefined;
  for (const requirement of requirements) {
    let satisfied = true;
    for (const scheme of requirement) {
      const present = (() => {
        if (scheme.type === 'http') return /^bearer\s+\S/i.test(String(headers.authorization ?? ''));
        if (scheme.type !== 'apiKey' || !scheme.name) return false;
        if (scheme.in === 'header') return String(headers[scheme.name.toLowerCase()] ?? '') !== '';
        if (scheme.in === 'query') return (query.get(scheme.name)?.[0] ?? '') !== '';
        if (scheme.in === 'cookie') {
          cookies ??= parseCookies(String(headers.cookie ?? ''));
          if (!cookies.has(scheme.name)) return false;
          return cookies.get(scheme.name) === undefined ? 'malformed' : cookies.get(scheme.name) !== '';
        }
        return false;
      })();
      if (present === 'malformed') return { ok: false, status: 400, message: `400 Bad request - cookie ${scheme.name} is not correctly escaped` };
      if (!present) satisfied = false;
    }
    if (satisfied) return { ok: true };
  }
  return { ok: false, status: 401, message: '401 Unauthorized' };
}

/**
 * Cookies by name; a value whose escapes cannot be decoded is `undefined` (ignored unless it is the credential).
 * A Map, so no cookie name reaches a prototype.
 */
export function parseCookies(header: string): Map<string, string | undefined> {
  const cookies = new Map<string, string | undefined>();
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    let value: string | undefined = part.slice(at + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      value = undefined;
    }
    if (name && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}
