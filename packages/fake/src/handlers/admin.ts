/** Administrator-only plan limits (403 for everyone else) and the user list (administrators see the admin view). */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../auth.ts';
import type { FakeUser } from '../data.ts';
import { avatarUrl, FORBIDDEN, message, paginate, webBase } from '../common.ts';
import { keyed, type Store } from '../store.ts';
import { adminUserView } from './user-accounts.ts';

export function adminHandlers(store: Store): Handlers<Principal> {
  const limits = () => (store.data.plan_limits ??= keyed());
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
    'application/get-plan-limits': ({ query }, { principal }) => {
      if (!principal.user.is_admin) return FORBIDDEN;
      const plan = limits()[query.plan_name ?? 'default'];
      if (!plan) return { status: 404, body: message('404 Plan Not Found') };
      return { status: 200, body: { ...plan } as never };
    },
    'application/update-plan-limits': ({ body }, { principal }) => {
      if (!principal.user.is_admin) return FORBIDDEN;
      const plan = limits()[body.plan_name];
      if (!plan) return { status: 404, body: message('404 Plan Not Found') };
      for (const [key, value] of Object.entries(body))
        if (key !== 'plan_name' && typeof value === 'number') plan[key] = value;
      store.now(true);
      return { status: 200, body: { ...plan } as never };
    },
    'users/list-users': ({ query }, { principal, request }) => {
      const q = query as Record<string, unknown>;
      let users = store.data.users.filter((u) => {
        if (typeof q.username === 'string' && u.username.toLowerCase() !== q.username.toLowerCase()) return false;
        if (
          typeof q.search === 'string' &&
          !`${u.username} ${u.name} ${u.email}`.toLowerCase().includes(q.search.toLowerCase())
        )
          return false;
        if (q.active === true && u.state === 'blocked') return false;
        if (q.blocked === true && u.state !== 'blocked') return false;
        if (q.admins === true && !u.is_admin) return false;
        return true;
      });
      users = [...users].sort((a, b) => (q.sort === 'asc' ? a.id - b.id : b.id - a.id));
      const page = paginate(users, query, request);
      const admin = principal.user.is_admin === true;
      return {
        status: 200,
        body: page.items.map((u) => (admin ? adminUserView(store, u) : publicUser(u))),
        headers: page.headers,
      };
    },
  };
}
