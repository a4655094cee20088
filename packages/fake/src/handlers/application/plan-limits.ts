/** Administrator-only plan limits: read and update one plan's limits (403 for everyone else, 404 for an unknown plan). */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import { FORBIDDEN, message } from '../../common.ts';
import { keyed, type Store } from '../../store.ts';

export function planLimitHandlers(store: Store): Handlers<Principal> {
  const limits = () => (store.data.plan_limits ??= keyed());
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
  };
}
