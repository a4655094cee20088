/**
 * Who the caller is: the server package finds the credentials of the schemes an operation accepts, this maps them to
 * the data set's tokens (the seven ways of sending one), then applies sudo. A refused sudo is carried in the principal
 * and answered by every handler before it runs (the server's `authenticate` can only admit or answer 401).
 */
import type { AuthenticateContext } from '@service-api/server';
import { routes } from '@service-api/server';
import type { FakeToken, FakeUser } from './data.ts';
import type { Store } from './store.ts';

export interface Principal {
  /** The user the request runs as (the sudo target when sudo is used). */
  user: FakeUser;
  /** The user the token belongs to. */
  tokenUser: FakeUser;
  token: FakeToken;
  /** An answer every handler gives instead of running (a refused sudo). */
  refusal?: { status: 403 | 404; body: Record<string, string> };
}

/** Which kinds of token each security scheme carries. */
const kindsByScheme: Record<string, FakeToken['kind'][]> = {
  privateTokenHeader: ['personal', 'impersonation'],
  privateTokenQuery: ['personal', 'impersonation'],
  bearerToken: ['personal', 'impersonation', 'oauth', 'job'],
  oauthAccessTokenQuery: ['oauth'],
  jobTokenHeader: ['job'],
  jobTokenQuery: ['job'],
  sessionCookie: ['session'],
};

/** Operations that take a job token: those whose security lists a job-token scheme. */
const jobTokenOperations = new Set(
  routes
    .filter((r) => r.security.some((s) => s.includes('jobTokenHeader') || s.includes('jobTokenQuery')))
    .map((r) => r.id),
);

export const SUDO_NOT_ADMIN = { message: '403 Forbidden - Must be admin to use sudo' };
export const SUDO_INSUFFICIENT_SCOPE = {
  error: 'insufficient_scope',
  error_description: 'The request requires higher privileges than provided by the access token.',
  scope: 'sudo',
};

export function createAuthenticate(store: Store, options: { anyToken: boolean }) {
  return ({ operationId, credentials, request }: AuthenticateContext): Principal | undefined => {
    let found: FakeToken | undefined;
    for (const credential of credentials) {
      if (options.anyToken) {
        const admin = store.data.users.find((u) => u.is_admin && u.state !== 'blocked');
        if (admin)
          found = {
            token: credential.value,
            kind: 'personal',
            user_id: admin.id,
            scopes: ['api', 'sudo', 'create_runner'],
          };
        break;
      }
      const kinds = kindsByScheme[credential.scheme] ?? [];
      const token = store.data.tokens.find(
        (t) => t.token === credential.value && kinds.includes(t.kind) && usable(t, store),
      );
      if (!token) return undefined; // an invalid credential is a 401 even beside a valid one
      if (token.kind === 'job') {
        const job = store.data.jobs.find((j) => j.id === token.job_id);
        if (!jobTokenOperations.has(operationId) || job?.status !== 'running') return undefined;
      }
      found ??= token;
    }
    if (!found) return undefined;
    const tokenUser = store.user(found.user_id);
    if (!tokenUser || tokenUser.state === 'blocked') return undefined;
    const principal: Principal = { user: tokenUser, tokenUser, token: found };
    const sudo = sudoOf(request.headers.sudo, request.raw.url ?? '');
    if (sudo === undefined) return principal;
    if (!tokenUser.is_admin) return { ...principal, refusal: { status: 403, body: SUDO_NOT_ADMIN } };
    if (!(found.kind === 'personal' || found.kind === 'oauth') || !(found.scopes ?? []).includes('sudo'))
      return { ...principal, refusal: { status: 403, body: SUDO_INSUFFICIENT_SCOPE } };
    const target = store.findUser(sudo);
    if (!target)
      return {
        ...principal,
        refusal: { status: 404, body: { message: `404 User with ID or username '${sudo}' Not Found` } },
      };
    return { ...principal, user: target };
  };
}

/** The sudo target, from the `Sudo` header or the `sudo` query parameter. */
function sudoOf(header: string | string[] | undefined, url: string): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value) return value;
  const at = url.indexOf('?');
  if (at < 0) return undefined;
  try {
    return new URLSearchParams(url.slice(at + 1)).get('sudo') || undefined;
  } catch {
    return undefined;
  }
}

/** A token works until it is revoked and through its `expires_at` day (the fake's clock). */
function usable(token: FakeToken, store: Store): boolean {
  return token.revoked !== true && (token.expires_at == null || token.expires_at >= store.now().slice(0, 10));
}
