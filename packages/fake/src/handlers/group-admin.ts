/** The group operations beyond the group lists: project lists, hooks, push rules, LDAP/SAML links and shares. */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../auth.ts';
import type { Store } from '../store.ts';
import { groupHookHandlers } from './group-hooks.ts';
import { groupLinkHandlers } from './group-links.ts';
import { groupProjectHandlers } from './group-projects.ts';

export function groupAdminHandlers(store: Store): Handlers<Principal> {
  return { ...groupProjectHandlers(store), ...groupHookHandlers(store), ...groupLinkHandlers(store) };
}
