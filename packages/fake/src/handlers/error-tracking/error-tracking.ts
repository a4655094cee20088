/**
 * Error-tracking client keys: created, listed and deleted per project (Maintainer; a token with the `api` scope).
 * The record is not documented: the fake answers `{ id, dsn }`, the two things the documented key rotation uses.
 */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import { FORBIDDEN, message, paginate, PROJECT_NOT_FOUND, readableProject, webBase } from '../../common.ts';
import type { Store } from '../../store.ts';

export function errorTrackingHandlers(store: Store): Handlers<Principal> {
  const keys = () => (store.data.error_tracking_client_keys ??= []);
  const allowed = (id: string | number, principal: Principal) => {
    const project = readableProject(store, id, principal);
    if (!project) return { answer: PROJECT_NOT_FOUND };
    if (!store.hasAccess(project, principal.user, 40) || !(principal.token.scopes ?? ['api']).includes('api'))
      return { answer: FORBIDDEN };
    return { project };
  };
  const record = (key: { id: number; public_key: string; project_id: number }) => ({
    id: key.id,
    dsn: `${webBase(store).replace('://', `://${key.public_key}@`)}/api/v4/error_tracking/collector/${key.project_id}`,
  });
  return {
    'error-tracking/list-client-keys': ({ params, query }, { principal, request }) => {
      const { project, answer } = allowed(params.id, principal);
      if (answer) return answer;
      const page = paginate(
        keys().filter((k) => k.project_id === project!.id),
        query,
        request,
      );
      return { status: 200, body: page.items.map(record) as never, headers: page.headers };
    },
    'error-tracking/create-client-key': ({ params }, { principal }) => {
      const { project, answer } = allowed(params.id, principal);
      if (answer) return answer;
      const id = store.nextId('error_tracking_client_keys', keys());
      const key = {
        id,
        project_id: project!.id,
        public_key: `glet_${project!.id.toString(16).padStart(8, '0')}${id.toString(16).padStart(8, '0')}`,
      };
      keys().push(key);
      store.now(true);
      return { status: 201, body: record(key) as never };
    },
    'error-tracking/delete-client-key': ({ params }, { principal }) => {
      const { project, answer } = allowed(params.id, principal);
      if (answer) return answer;
      const index = keys().findIndex((k) => k.id === params.key_id && k.project_id === project!.id);
      if (index < 0) return { status: 404, body: message('404 Client Key Not Found') };
      keys().splice(index, 1);
      store.now(true);
      return { status: 204 };
    },
  };
}
