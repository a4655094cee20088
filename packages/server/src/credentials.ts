/**
 * Credentials: where each security scheme carries its token, and a reader of those an operation accepts.
 */
import type { FastifyRequest } from 'fastify';
import { parseCookies } from './input.js';
import type { RouteDescriptor } from './route.js';

/** Where a security scheme carries its credential. */
export interface SchemeLocation {
  in: 'header' | 'query' | 'cookie' | 'bearer';
  name: string;
}

/** A credential found in a request, with the security scheme (of `components.securitySchemes`) that carried it. */
export interface Credential {
  scheme: string;
  value: string;
}

/**
 * What `authenticate` is called with: only for a request that sent at least one credential of the schemes the
 * operation accepts. An anonymous request never reaches it (401 where the operation requires authentication).
 */
export interface AuthenticateContext {
  operationId: string;
  /** The credentials found in the request, of the schemes this operation accepts: never empty. */
  credentials: [Credential, ...Credential[]];
  request: FastifyRequest;
}

export type RequestHeaders = Record<string, string | string[] | undefined>;
export type CredentialReader = (headers: RequestHeaders, query: Record<string, unknown>) => Credential[];

/** A reader of the credentials of the schemes a route accepts (a session cookie only when one reads it), prepared once. */
export function credentialReader(route: RouteDescriptor, schemes: Record<string, SchemeLocation>): CredentialReader {
  const accepted = new Set(route.security.flat());
  const locations = Object.entries(schemes)
    .filter(([scheme]) => accepted.has(scheme))
    .map(([scheme, location]) => ({
      scheme,
      in: location.in,
      name: location.in === 'header' ? location.name.toLowerCase() : location.name,
    }));
  return (headers, query) => {
    const found: Credential[] = [];
    let cookies: Record<string, string> | undefined;
    for (const location of locations) {
      let value: unknown;
      if (location.in === 'header') value = first(headers[location.name]);
      else if (location.in === 'query') value = first(query[location.name]);
      else if (location.in === 'cookie') {
        const cookie = first(headers.cookie);
        if (typeof cookie === 'string' && cookie !== '') value = (cookies ??= parseCookies(cookie))[location.name];
      } else {
        const authorization = first(headers.authorization);
        if (typeof authorization === 'string') value = /^Bearer\s+(.+)$/i.exec(authorization)?.[1];
      }
      if (typeof value === 'string' && value !== '') found.push({ scheme: location.scheme, value });
    }
    return found;
  };
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}
