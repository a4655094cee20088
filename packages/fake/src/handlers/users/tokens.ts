/**
 * Personal access and impersonation tokens. A created token is one of the data set's `tokens`, so it authenticates
 * requests at once (until revoked or past its `expires_at` day); its secret `token` is in the creation response only.
 */
import { createHash } from 'node:crypto';
import type { Handler, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeToken, FakeUser } from '../../data.ts';
import { FORBIDDEN, message } from '../../common.ts';
import type { Store } from '../../store.ts';
import { USER_NOT_FOUND } from './user-accounts.ts';

/** The longest lifetime the fake gives a token (its "maximum allowed lifetime"), in days. */
export const MAX_TOKEN_LIFETIME_DAYS = 365;

const TOKEN_NOT_FOUND = { status: 404 as const, body: message('404 Impersonation Token Not Found') };
/** The day of an expiry sent as a date or an ISO 8601 date-time (extended `2026-12-31T…` or basic `20261231T…`). */
const expiryDay = (sent: string) =>
  /^\d{8}T/.test(sent) ? `${sent.slice(0, 4)}-${sent.slice(4, 6)}-${sent.slice(6, 8)}` : sent.slice(0, 10);

const today = (store: Store) => store.now().slice(0, 10);
const daysFromToday = (store: Store, days: number) =>
  new Date(Date.parse(`${today(store)}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);

const active = (store: Store, token: FakeToken) =>
  token.revoked !== true && (token.expires_at == null || token.expires_at >= today(store));

/** The token record as read back: never the secret. */
const record = (store: Store, token: FakeToken) => ({
  id: token.id!,
  name: token.name ?? '',
  revoked: token.revoked === true,
  created_at: token.created_at ?? store.data.now ?? '2025-01-01T00:00:00.000Z',
  scopes: [...(token.scopes ?? [])],
  user_id: token.user_id,
  active: active(store, token),
  expires_at: token.expires_at ?? daysFromToday(store, MAX_TOKEN_LIFETIME_DAYS),
});

/** Records a new token of the user; deterministic secret (the token id, user and clock), unique among the tokens. */
const create = (
  store: Store,
  user: FakeUser,
  kind: 'personal' | 'impersonation',
  input: { name: string; scopes: string[]; expires_at: string },
): FakeToken => {
  const id = store.nextId(
    'tokens',
    store.data.tokens.filter((t): t is FakeToken & { id: number } => typeof t.id === 'number'),
  );
  const created_at = store.now(true);
  const prefix = store.data.application_settings?.personal_access_token_prefix;
  const secret = createHash('sha256')
    .update(`${kind}\n${id}\n${user.id}\n${input.name}\n${created_at}`)
    .digest('hex')
    .slice(0, 20);
  const token: FakeToken = {
    token: `${typeof prefix === 'string' ? prefix : ''}${secret}`,
    kind,
    user_id: user.id,
    scopes: [...new Set(input.scopes)],
    id,
    name: input.name,
    created_at,
    expires_at: input.expires_at,
    revoked: false,
  };
  store.data.tokens.push(token);
  return token;
};

const impersonationToken = (store: Store, userId: number, tokenId: number) =>
  store.data.tokens.find((t) => t.kind === 'impersonation' && t.id === tokenId && t.user_id === userId);

const createImpersonationToken =
  (store: Store): Handler<'users/create-impersonation-token', Principal> =>
  ({ params, body }, { principal }) => {
    if (!principal.user.is_admin) return FORBIDDEN;
    const user = store.user(params.user_id);
    if (!user) return USER_NOT_FOUND;
    const token = create(store, user, 'impersonation', { ...body, expires_at: expiryDay(body.expires_at) });
    return {
      status: 201,
      body: {
        ...record(store, token),
        scopes: body.scopes.filter((s, i, all) => all.indexOf(s) === i),
        impersonation: true,
        token: token.token,
      },
    };
  };

const getImpersonationToken =
  (store: Store): Handler<'users/get-impersonation-token', Principal> =>
  ({ params }, { principal }) => {
    if (!principal.user.is_admin) return FORBIDDEN;
    if (!store.user(params.user_id)) return USER_NOT_FOUND;
    const token = impersonationToken(store, params.user_id, params.impersonation_token_id);
    if (!token) return TOKEN_NOT_FOUND;
    return {
      status: 200,
      body: {
        ...record(store, token),
        scopes: (token.scopes ?? []).filter((s): s is 'api' | 'read_user' => s === 'api' || s === 'read_user'),
        impersonation: true,
      },
    };
  };

const revokeImpersonationToken =
  (store: Store): Handler<'users/revoke-impersonation-token', Principal> =>
  ({ params }, { principal }) => {
    if (!principal.user.is_admin) return FORBIDDEN;
    if (!store.user(params.user_id)) return USER_NOT_FOUND;
    const token = impersonationToken(store, params.user_id, params.impersonation_token_id);
    if (!token) return TOKEN_NOT_FOUND;
    token.revoked = true;
    store.now(true);
    return { status: 204 };
  };

const createUserPersonalAccessToken =
  (store: Store): Handler<'users/create-user-personal-access-token', Principal> =>
  ({ params, body }, { principal }) => {
    if (!principal.user.is_admin) return FORBIDDEN;
    const user = store.user(params.user_id);
    if (!user) return USER_NOT_FOUND;
    const token = create(store, user, 'personal', {
      name: body.name,
      scopes: body.scopes,
      expires_at: body.expires_at ?? daysFromToday(store, MAX_TOKEN_LIFETIME_DAYS),
    });
    return { status: 201, body: { ...record(store, token), token: token.token } };
  };

const createPersonalAccessToken =
  (store: Store): Handler<'users/create-personal-access-token', Principal> =>
  ({ body }, { principal }) => {
    const cap = daysFromToday(store, MAX_TOKEN_LIFETIME_DAYS);
    const expires = body.expires_at === undefined ? today(store) : body.expires_at > cap ? cap : body.expires_at;
    const token = create(store, principal.user, 'personal', {
      name: body.name,
      scopes: body.scopes,
      expires_at: expires,
    });
    return { status: 201, body: { ...record(store, token), token: token.token } };
  };

export function tokenHandlers(store: Store): Handlers<Principal> {
  return {
    'users/create-impersonation-token': createImpersonationToken(store),
    'users/get-impersonation-token': getImpersonationToken(store),
    'users/revoke-impersonation-token': revokeImpersonationToken(store),
    'users/create-user-personal-access-token': createUserPersonalAccessToken(store),
    'users/create-personal-access-token': createPersonalAccessToken(store),
  };
}
