/**
 * Migration by direct transfer. A migration and its entities are visible to the user who started it (404 for anyone
 * else). The fake has no background worker and no source instance: every read that answers about a migration (the
 * migration, its entities, an entity, its failures; either list moves all the caller's) moves it one step after
 * answering, `created → started → finished`, its entities with it (`migrate_projects` is kept: with no source
 * there are no projects to find). A finished entity has its destination created: a group
 * (the importing user its Owner) or a project, named after the last segment of `source_full_path`, at
 * `destination_namespace/destination_slug`; `namespace_id`/`project_id` then point at it. A migration whose entities
 * all failed is `failed`; failed entities (from the data set) carry their failures.
 *
 * Creation checks what the API states: `destination_namespace` the full path of an existing group, where the caller
 * has at least the Maintainer role (as for file imports), and a `destination_slug` free there and not used twice in
 * the request (400 naming the entity's field otherwise).
 */
import { errorBody, type Handler, type Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeBulkImport, FakeBulkImportEntity, FakeGroup, FakeUser } from '../../data.ts';
import { message, paginate } from '../../common.ts';
import { keyed, type Store } from '../../store.ts';

const NOT_FOUND = { status: 404 as const, body: message('404 Not Found') };

interface ListQuery {
  page?: number;
  per_page?: number;
  sort?: 'asc' | 'desc';
  status?: FakeBulkImport['status'];
}

const migrations = (store: Store) => (store.data.bulk_imports ??= []);
const entities = (store: Store) => (store.data.bulk_import_entities ??= []);
const entitiesOf = (store: Store, migration: FakeBulkImport) =>
  entities(store).filter((e) => e.bulk_import_id === migration.id);
const own = (store: Store, id: number, user: FakeUser) =>
  migrations(store).find((m) => m.id === id && m.user_id === user.id);
/** One entity of a migration the user owns, with its migration; undefined when either is not found. */
const ownEntity = (store: Store, id: number, entityId: number, user: FakeUser) => {
  const migration = own(store, id, user);
  const entity = migration && entitiesOf(store, migration).find((e) => e.id === entityId);
  return migration && entity ? { migration, entity } : undefined;
};

const groupByPath = (store: Store, path: string): FakeGroup | undefined =>
  store.data.groups.find((g) => store.groupPath(g).toLowerCase() === path.toLowerCase());
const canSeeGroup = (store: Store, group: FakeGroup, user: FakeUser) =>
  user.is_admin === true || group.visibility !== 'private' || store.groupAccess(group, user.id) > 0;
const taken = (store: Store, parent: FakeGroup, slug: string) => {
  const full = `${store.groupPath(parent)}/${slug}`.toLowerCase();
  return (
    store.data.groups.some((g) => store.groupPath(g).toLowerCase() === full) ||
    store.data.projects.some((p) => store.projectPath(p).toLowerCase() === full)
  );
};

/** Creates the destination of a finishing entity; false when its namespace is gone or the slug was taken since. */
const materialize = (store: Store, migration: FakeBulkImport, entity: FakeBulkImportEntity): boolean => {
  const parent = groupByPath(store, entity.destination_namespace);
  if (!parent || taken(store, parent, entity.destination_slug)) return false;
  const name = entity.source_full_path.split('/').filter(Boolean).pop() ?? entity.destination_slug;
  if (entity.source_type === 'group_entity') {
    const id = store.nextNamespaceId();
    store.data.groups.push({
      id,
      name,
      path: entity.destination_slug,
      parent_id: parent.id,
      visibility: 'private',
      members: [{ user_id: migration.user_id, access_level: 50 }],
    });
    entity.namespace_id = id;
    return true;
  }
  const id = store.nextId('projects', store.data.projects);
  store.data.projects.push({
    id,
    name,
    path: entity.destination_slug,
    namespace_id: parent.id,
    visibility: 'private',
    default_branch: 'main',
    created_at: store.now(),
    members: [],
    repository: { branches: keyed(), commits: [], blobs: keyed() },
  });
  entity.namespace_id = parent.id;
  entity.project_id = id;
  return true;
};

/** One step of a migration and its entities, after a read answered about it. */
const advance = (store: Store, migration: FakeBulkImport) => {
  if (migration.status === 'finished' || migration.status === 'failed') return;
  store.revision += 1; // a read that writes: what was derived from the state is stale
  const now = store.now();
  const parts = entitiesOf(store, migration);
  if (migration.status === 'created') {
    migration.status = 'started';
    for (const e of parts) if (e.status === 'created') Object.assign(e, { status: 'started', updated_at: now });
  } else {
    for (const e of parts) {
      if (e.status !== 'started' && e.status !== 'created') continue;
      e.updated_at = now;
      e.status = materialize(store, migration, e) ? 'finished' : 'failed';
      if (e.status === 'failed') {
        const text = `Destination ${e.destination_namespace}/${e.destination_slug} is no longer available`;
        e.failures.push({
          relation: 'root',
          step: null,
          exception_message: text,
          exception_class: null,
          correlation_id_value: null,
          created_at: now,
          pipeline_class: null,
          pipeline_step: null,
          source_url: null,
          source_title: null,
        });
      }
    }
    migration.status = parts.length > 0 && parts.every((e) => e.status === 'failed') ? 'failed' : 'finished';
  }
  migration.updated_at = now;
};

const sorted = <T extends { id: number; created_at: string; status: string }>(items: T[], query: ListQuery) => {
  const direction = query.sort === 'asc' ? 1 : -1;
  return items
    .filter((i) => !query.status || i.status === query.status)
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id - b.id) * direction);
};

const migrationRecord = (m: FakeBulkImport) => ({
  id: m.id,
  status: m.status,
  source_type: m.source_type,
  created_at: m.created_at,
  updated_at: m.updated_at,
});
const entityRecord = (e: FakeBulkImportEntity) => ({
  id: e.id,
  bulk_import_id: e.bulk_import_id,
  status: e.status,
  source_type: e.source_type,
  source_full_path: e.source_full_path,
  destination_slug: e.destination_slug,
  destination_namespace: e.destination_namespace,
  parent_id: e.parent_id,
  namespace_id: e.namespace_id,
  project_id: e.project_id,
  created_at: e.created_at,
  updated_at: e.updated_at,
  failures: e.failures.map(
    ({
      relation,
      step,
      exception_message,
      exception_class,
      correlation_id_value,
      created_at,
      pipeline_class,
      pipeline_step,
    }) => ({
      relation,
      step,
      exception_message,
      exception_class,
      correlation_id_value,
      created_at,
      pipeline_class,
      pipeline_step,
    }),
  ),
  stats: e.stats,
});
const summary = (e: FakeBulkImportEntity) => ({
  id: e.id,
  status: e.status,
  source_type: e.source_type,
  created_at: e.created_at,
  updated_at: e.updated_at,
});

const createMigration =
  (store: Store): Handler<'bulk-imports/create-migration', Principal> =>
  ({ body }, { principal }) => {
    const problems: { in: string; field: string; problem: string }[] = [];
    const destinations = new Set<string>();
    body.entities.forEach((entity, index) => {
      const field = (name: string) => `entities[${index}][${name}]`;
      const parent = groupByPath(store, entity.destination_namespace);
      if (!parent || !canSeeGroup(store, parent, principal.user)) {
        problems.push({
          in: 'body',
          field: field('destination_namespace'),
          problem: `${entity.destination_namespace} is not the full path of an existing group`,
        });
        return;
      }
      if (!principal.user.is_admin && store.groupAccess(parent, principal.user.id) < 40) {
        problems.push({
          in: 'body',
          field: field('destination_namespace'),
          problem: `importing into ${entity.destination_namespace} needs at least the Maintainer role there`,
        });
        return;
      }
      const full = `${store.groupPath(parent)}/${entity.destination_slug}`.toLowerCase();
      if (!/^[\w.][\w.-]*$/.test(entity.destination_slug))
        problems.push({ in: 'body', field: field('destination_slug'), problem: 'is invalid' });
      else if (taken(store, parent, entity.destination_slug) || destinations.has(full))
        problems.push({ in: 'body', field: field('destination_slug'), problem: `${full} has already been taken` });
      destinations.add(full);
    });
    if (problems.length > 0) return { status: 400, body: errorBody(400, undefined, problems) };
    const now = store.now(true);
    const migration: FakeBulkImport = {
      id: store.nextId('bulk_imports', migrations(store)),
      user_id: principal.user.id,
      status: 'created',
      source_type: 'service',
      source_url: body.configuration.url,
      created_at: now,
      updated_at: now,
    };
    migrations(store).push(migration);
    for (const entity of body.entities) {
      entities(store).push({
        id: store.nextId('bulk_import_entities', entities(store)),
        bulk_import_id: migration.id,
        source_type: entity.source_type,
        source_full_path: entity.source_full_path,
        destination_slug: entity.destination_slug,
        destination_namespace: entity.destination_namespace,
        migrate_projects: entity.source_type === 'group_entity' ? entity.migrate_projects !== false : false,
        status: 'created',
        parent_id: null,
        namespace_id: null,
        project_id: null,
        created_at: now,
        updated_at: now,
        failures: [],
        stats: {},
      });
    }
    return { status: 201, body: migrationRecord(migration) };
  };

const listMigrations =
  (store: Store): Handler<'bulk-imports/list-migrations', Principal> =>
  ({ query }, { principal, request }) => {
    const mine = migrations(store).filter((m) => m.user_id === principal.user.id);
    const page = paginate(sorted(mine, query), query, request);
    const body = page.items.map(migrationRecord);
    for (const m of mine) advance(store, m);
    return { status: 200, body, headers: page.headers };
  };

const listAllEntities =
  (store: Store): Handler<'bulk-imports/list-all-entities', Principal> =>
  ({ query }, { principal, request }) => {
    const mine = migrations(store).filter((m) => m.user_id === principal.user.id);
    const ids = new Set(mine.map((m) => m.id));
    const page = paginate(
      sorted(
        entities(store).filter((e) => ids.has(e.bulk_import_id)),
        query,
      ),
      query,
      request,
    );
    const body = page.items.map(entityRecord);
    for (const m of mine) advance(store, m);
    return { status: 200, body, headers: page.headers };
  };

const getMigration =
  (store: Store): Handler<'bulk-imports/get-migration', Principal> =>
  ({ params }, { principal }) => {
    const migration = own(store, params.id, principal.user);
    if (!migration) return NOT_FOUND;
    const body = migrationRecord(migration);
    advance(store, migration);
    return { status: 200, body };
  };

const listMigrationEntities =
  (store: Store): Handler<'bulk-imports/list-migration-entities', Principal> =>
  ({ params, query }, { principal, request }) => {
    const migration = own(store, params.id, principal.user);
    if (!migration) return NOT_FOUND;
    const page = paginate(sorted(entitiesOf(store, migration), query), query, request);
    const body = page.items.map((e) => ({ ...summary(e), stats: e.stats }));
    advance(store, migration);
    return { status: 200, body, headers: page.headers };
  };

const getMigrationEntity =
  (store: Store): Handler<'bulk-imports/get-migration-entity', Principal> =>
  ({ params }, { principal }) => {
    const found = ownEntity(store, params.id, params.entity_id, principal.user);
    if (!found) return NOT_FOUND;
    const body = summary(found.entity);
    advance(store, found.migration);
    return { status: 200, body };
  };

// The Service pages the entity's failures (an empty list when there are none).
const getEntityFailures =
  (store: Store): Handler<'bulk-imports/get-entity-failures', Principal> =>
  ({ params, query }, { principal, request }) => {
    const found = ownEntity(store, params.id, params.entity_id, principal.user);
    if (!found) return NOT_FOUND;
    advance(store, found.migration);
    const page = paginate(found.entity.failures, query, request);
    const body = page.items.map(
      ({ relation, exception_message, exception_class, correlation_id_value, source_url, source_title }) => ({
        relation,
        exception_message,
        exception_class,
        correlation_id_value,
        source_url,
        source_title,
      }),
    );
    return { status: 200, body, headers: page.headers };
  };

export function bulkImportHandlers(store: Store): Handlers<Principal> {
  return {
    'bulk-imports/create-migration': createMigration(store),
    'bulk-imports/list-migrations': listMigrations(store),
    'bulk-imports/list-all-entities': listAllEntities(store),
    'bulk-imports/get-migration': getMigration(store),
    'bulk-imports/list-migration-entities': listMigrationEntities(store),
    'bulk-imports/get-migration-entity': getMigrationEntity(store),
    'bulk-imports/get-entity-failures': getEntityFailures(store),
  };
}
