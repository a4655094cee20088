/**
 * Dependencies of a project: for callers who may read its repository (404 when the project cannot be seen, 403 when
 * only its repository cannot), filtered by `package_manager`, 20 a page by default. `vulnerabilities` appear only for
 * callers who may read the security dashboard (Developer and up).
 */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeDependency } from '../../data.ts';
import { FORBIDDEN, paginate, PROJECT_NOT_FOUND, readableProject } from '../../common.ts';
import type { Store } from '../../store.ts';

export function dependencyHandlers(store: Store): Handlers<Principal> {
  const record = (dependency: FakeDependency, withVulnerabilities: boolean) => {
    const { project_id: _project, vulnerabilities, licenses, ...fields } = dependency;
    return {
      ...fields,
      licenses: licenses ?? [],
      ...(withVulnerabilities ? { vulnerabilities: vulnerabilities ?? [] } : {}),
    };
  };

  return {
    'dependencies/list-project-dependencies': ({ params, query }, { principal, request }) => {
      const project = readableProject(store, params.id, principal);
      if (!project) return PROJECT_NOT_FOUND;
      if (!store.canReadRepository(project, principal.user)) return FORBIDDEN;
      const wanted = query['package_manager[]'];
      const managers = wanted === undefined ? undefined : new Set<string>(wanted);
      const list = (store.data.dependencies ?? []).filter(
        (d) => d.project_id === project.id && (!managers || managers.has(d.package_manager)),
      );
      const page = paginate(list, query, request);
      const security = store.hasAccess(project, principal.user, 30);
      return { status: 200, body: page.items.map((d) => record(d, security)), headers: page.headers };
    },
  };
}
