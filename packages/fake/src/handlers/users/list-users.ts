/** The user list: the public view for everyone, the administrator view (and its filters) for administrators. */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeUser } from '../../data.ts';
import { avatarUrl, paginate, webBase } from '../../common.ts';
import type { Store } from '../../store.ts';
import { customAttributes, hasCustomAttributes } from '../custom-attributes.ts';
import { adminUserView } from './user-accounts.ts';

export function userListHandlers(store: Store): Handlers<Principal> {
  const publicUser = (user: FakeUser) => ({
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state ?? 'active',
    locked: false,
    avatar_url: avatarUrl(store, user),
    web_url: `${webBase(store)}/${user.username}`,
  });
  return {
    'users/list-users': ({ query }, { principal, request }) => {
      const admin = principal?.user.is_admin === true; // anonymous callers get the public view
      const users = sortUsers(
        store.data.users.filter((u) => userMatches(store, u, query, admin)),
        admin ? query : {},
      );
      const page = paginate(users, query, request);
      const withAttributes = admin && query.with_custom_attributes === true;
      return {
        status: 200,
        body: page.items.map((u) => ({
          ...(admin ? adminUserView(store, u) : publicUser(u)),
          ...(withAttributes ? { custom_attributes: customAttributes(u.custom_attributes) } : {}),
        })),
        headers: page.headers,
      };
    },
  };
}

type UserQuery = Parameters<NonNullable<Handlers<Principal>['users/list-users']>>[0]['query'];

/** The list filters of `GET /users`: those for everyone, and (for administrators) the administrator ones. */
function userMatches(store: Store, u: FakeUser, q: UserQuery, admin: boolean): boolean {
  const kind = u.user_type ?? 'human';
  const identities = u.identities ?? [];
  if (q.username !== undefined && u.username.toLowerCase() !== q.username.toLowerCase()) return false;
  if (q.search !== undefined && !`${u.username} ${u.name} ${u.email}`.toLowerCase().includes(q.search.toLowerCase()))
    return false;
  if (q.active === true && u.state === 'blocked') return false;
  if (q.blocked === true && u.state !== 'blocked') return false;
  if (q.external === true && u.external !== true) return false;
  if (q.exclude_external === true && u.external === true) return false;
  const created = u.created_at ?? store.data.now ?? '';
  if (q.created_after !== undefined && !(Date.parse(created) >= Date.parse(q.created_after))) return false;
  if (q.created_before !== undefined && !(Date.parse(created) <= Date.parse(q.created_before))) return false;
  if (q.exclude_internal === true && (kind === 'alert_bot' || kind === 'support_bot')) return false;
  if (q.without_project_bots === true && kind === 'project_bot') return false;
  if (!admin) return true;
  if (q.provider !== undefined || q.extern_uid !== undefined) {
    const match = identities.some(
      (i) =>
        (q.provider === undefined || i.provider === q.provider) &&
        (q.extern_uid === undefined || i.extern_uid === q.extern_uid),
    );
    if (!match) return false;
  }
  if (q.two_factor === 'enabled' && u.two_factor_enabled !== true) return false;
  if (q.two_factor === 'disabled' && u.two_factor_enabled === true) return false;
  if (q.without_projects === true && store.data.projects.some((p) => p.members.some((m) => m.user_id === u.id)))
    return false;
  if (q.admins === true && !u.is_admin) return false;
  if (q.auditors === true && u.is_auditor !== true) return false;
  if (q.saml_provider_id !== undefined && !identities.some((i) => i.saml_provider_id === q.saml_provider_id))
    return false;
  if (q.skip_ldap === true && identities.some((i) => i.provider.startsWith('ldap'))) return false;
  return hasCustomAttributes(u.custom_attributes, q.custom_attributes);
}

/** `order_by` (id, name, username, created_at, updated_at; default id) and `sort` (default desc). */
function sortUsers(users: FakeUser[], q: { order_by?: string; sort?: string }): FakeUser[] {
  const key = (u: FakeUser): string | number =>
    q.order_by === 'name'
      ? u.name.toLowerCase()
      : q.order_by === 'username'
        ? u.username.toLowerCase()
        : q.order_by === 'created_at' || q.order_by === 'updated_at'
          ? (u.created_at ?? '')
          : u.id;
  const direction = q.sort === 'asc' ? 1 : -1;
  return [...users].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -1 : x > y ? 1 : a.id - b.id) * direction;
  });
}
