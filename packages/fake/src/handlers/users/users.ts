/** A user's direct memberships (administrators only: 403 otherwise, 404 for an unknown user, 400 for another type). */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import { FORBIDDEN, message, paginate } from '../../common.ts';
import type { Store } from '../../store.ts';

export function userHandlers(store: Store): Handlers<Principal> {
  return {
    'users/list-memberships': ({ params, query }, { principal, request }) => {
      if (!principal.user.is_admin) return FORBIDDEN;
      const user = store.findUser(params.id);
      if (!user) return { status: 404, body: message('404 User Not Found') };
      const type = (query as { type?: string }).type;
      if (type !== undefined && type !== 'Project' && type !== 'Namespace')
        return {
          status: 400,
          body: {
            message: '400 Bad request - type does not have a valid value',
            errors: [{ in: 'query', field: 'type', problem: 'must be Project or Namespace' }],
          },
        };
      const namespaces = store.data.groups.flatMap((g) =>
        g.members
          .filter((m) => m.user_id === user.id)
          .map((m) => ({
            source_id: g.id,
            source_name: store.groupName(g),
            source_type: 'Namespace',
            access_level: m.access_level,
          })),
      );
      const projects = store.data.projects.flatMap((p) =>
        p.members
          .filter((m) => m.user_id === user.id)
          .map((m) => ({ source_id: p.id, source_name: p.name, source_type: 'Project', access_level: m.access_level })),
      );
      const all = [...(type === 'Project' ? [] : namespaces), ...(type === 'Namespace' ? [] : projects)];
      const page = paginate(all, query, request);
      return { status: 200, body: page.items, headers: page.headers };
    },
  };
}
