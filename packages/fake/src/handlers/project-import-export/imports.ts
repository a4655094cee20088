/**
 * Project import: `POST /projects/import` (an uploaded export archive), `/projects/remote-import` and
 * `/projects/remote-import-s3` create the project at once with `import_status` `scheduled`. The fake has no background
 * worker: each read of `GET /projects/{id}/import` answers the current status and moves a pending import one step,
 * `scheduled → started → finished` (or `failed` at the last step), like the export lifecycle. An uploaded archive is
 * read as a real project export (a gzip tarball with `project.json` and `repository/…`, what the export download
 * gives): its files are committed when the import finishes; an archive that is not a project export ends `failed`
 * with `import_error`. The fake cannot fetch remote or bucket files: those imports finish with an empty repository.
 *
 * Relation imports (`POST /projects/import-relation`): one at a time per project (409 while one is `created` or
 * `started`), `created → started → finished` (or `failed` for an archive that is not a project export), one step per
 * read of `GET /projects/{id}/relation-imports`. Importing into a namespace and relation imports need at least the
 * Maintainer role there; the import status is for whoever can read the project.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { errorBody, type Handler, type Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeData, FakeProjectImport, FakeRelationImport } from '../../data.ts';
import { FORBIDDEN, message, paginate, PROJECT_NOT_FOUND, readableProject } from '../../common.ts';
import { keyed, type Project, type Store } from '../../store.ts';
import { groupLevel, readableGroup } from '../group-access.ts';

const NAMESPACE_NOT_FOUND = { status: 404 as const, body: message('404 Namespace Not Found') };
const badRequest = (field: string, problem: string) => ({
  status: 400 as const,
  body: errorBody(400, `${field} ${problem}`, [{ in: 'body', field, problem }]),
});
const conflict = (text: string) => ({ status: 409 as const, body: message(`409 Conflict - ${text}`) });

/** The files of a ustar archive (regular files only), or undefined when the bytes are not one. */
export function untar(archive: Buffer): Map<string, Buffer> | undefined {
  const files = new Map<string, Buffer>();
  let at = 0;
  while (at + 512 <= archive.length) {
    const header = archive.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) return files;
    if (header.toString('latin1', 257, 262) !== 'ustar') return undefined;
    const text = (from: number, length: number) => header.toString('utf8', from, from + length).replace(/\0.*$/s, '');
    const size = Number.parseInt(text(124, 12).trim() || '0', 8);
    if (!Number.isSafeInteger(size) || size < 0 || at + 512 + size > archive.length) return undefined;
    const prefix = text(345, 155);
    const name = prefix ? `${prefix}/${text(0, 100)}` : text(0, 100);
    const type = text(156, 1);
    if (type === '' || type === '0') files.set(name, archive.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return at === archive.length ? files : undefined;
}

/** The contents of a project export archive: `project.json` and the repository files, or undefined. */
function readExport(bytes: Buffer): { project: Record<string, unknown>; files: Record<string, string> } | undefined {
  let files: Map<string, Buffer> | undefined;
  try {
    files = untar(gunzipSync(bytes, { maxOutputLength: MAX_EXPORT_BYTES }));
  } catch {
    return undefined;
  }
  const json = files?.get('project.json');
  if (!files || !json) return undefined;
  let project: unknown;
  try {
    project = JSON.parse(json.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof project !== 'object' || project === null || Array.isArray(project)) return undefined;
  const repository: Record<string, string> = {};
  for (const [path, content] of files) {
    const inRepository = path.slice('repository/'.length);
    // Only plain relative paths become repository files (no `.`/`..` or empty segments, as git itself refuses).
    if (
      path.startsWith('repository/') &&
      inRepository.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
    )
      repository[inRepository] = content.toString('base64');
  }
  return { project: project as Record<string, unknown>, files: repository };
}

const NOT_AN_EXPORT = 'The uploaded file is not a valid project export';
/** The most an archive may unpack to (a gzip bomb stops there and the import fails). */
const MAX_EXPORT_BYTES = 64 * 1024 * 1024;

interface NewProject {
  path: string;
  name?: string;
  namespace?: string | number;
  overwrite?: boolean;
  override_params?: Record<string, unknown>;
}

const imports = (store: Store) => (store.data.project_imports ??= keyed());
const relationImports = (store: Store) => (store.data.relation_imports ??= []);
const correlationId = (seed: string) => createHash('md5').update(seed).digest('hex');

/** The destination: a group (Maintainer at least) or a user's own namespace (its user, or an administrator). */
const destination = (store: Store, ref: string | number | undefined, principal: Principal) => {
  const user = principal.user;
  if (ref === undefined || ref === '') return { owner: user };
  const text = String(ref);
  const group = readableGroup(store, text, principal);
  if (group) return groupLevel(store, group, principal) >= 40 ? { group } : { answer: FORBIDDEN };
  const owner = /^\d+$/.test(text) ? undefined : store.findUser(text);
  if (!owner) return { answer: NAMESPACE_NOT_FOUND };
  return owner.id === user.id || user.is_admin ? { owner } : { answer: FORBIDDEN };
};

/** Removes a project and what belongs to it (an import with `overwrite` replaces it). */
const removeProject = (store: Store, project: Project) => {
  const data = store.data as unknown as FakeData;
  const id = project.id;
  store.data.projects = store.data.projects.filter((p) => p.id !== id);
  store.data.merge_requests = data.merge_requests.filter((m) => m.project_id !== id);
  const pipelines = new Set(data.pipelines.filter((p) => p.project_id === id).map((p) => p.id));
  store.data.pipelines = data.pipelines.filter((p) => !pipelines.has(p.id));
  store.data.jobs = data.jobs.filter((j) => j.project_id !== id);
  if (data.invitations)
    store.data.invitations = data.invitations.filter((i) => !(i.source_type === 'project' && i.source_id === id));
  if (data.error_tracking_client_keys)
    store.data.error_tracking_client_keys = data.error_tracking_client_keys.filter((k) => k.project_id !== id);
  if (data.approval_rules) store.data.approval_rules = data.approval_rules.filter((r) => r.project_id !== id);
  for (const table of [data.project_exports, data.project_imports, data.approval_settings]) if (table) delete table[id];
  if (data.relation_imports) store.data.relation_imports = data.relation_imports.filter((r) => r.project_id !== id);
  if (data.integrations) store.data.integrations = data.integrations.filter((i) => i.project_id !== id);
};

/** Creates the project of an import (scheduled), or answers why not. */
const create = (
  store: Store,
  input: NewProject,
  principal: Principal,
  source: FakeProjectImport['source'],
  fromFile?: ReturnType<typeof readExport> | null,
) => {
  if (!/^[\w.][\w.-]*$/.test(input.path)) return { answer: badRequest('path', 'is invalid') };
  const where = destination(store, input.namespace, principal);
  if (where.answer) return { answer: where.answer };
  const fullPath = where.group
    ? `${store.groupPath(where.group)}/${input.path}`
    : `${where.owner!.username}/${input.path}`;
  const existing = store.findProject(fullPath);
  if (existing) {
    if (input.overwrite !== true)
      return { answer: conflict(`a project with the path ${fullPath} exists (overwrite replaces it)`) };
    removeProject(store, existing);
  }
  const id = store.nextId('projects', store.data.projects);
  const override = input.override_params ?? {};
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const visibility = text(override.visibility);
  const now = store.now(true);
  const project: Project = {
    id,
    name: input.name ?? text(override.name) ?? input.path,
    path: input.path,
    namespace_id: where.group?.id ?? store.personalNamespaceId(where.owner!),
    visibility: visibility === 'public' || visibility === 'internal' ? visibility : 'private',
    default_branch: text(override.default_branch) ?? 'main',
    description: text(override.description) ?? text(fromFile?.project.description) ?? null,
    created_at: now,
    members: [],
    repository: { branches: keyed(), commits: [], blobs: keyed() },
  };
  store.data.projects.push(project);
  imports(store)[project.id] = {
    status: 'scheduled',
    correlation_id: correlationId(`import ${project.id} ${now}`),
    source,
    error: fromFile === null ? NOT_AN_EXPORT : null,
    ...(fromFile ? { files: fromFile.files } : {}),
  };
  return { project };
};

const record = (store: Store, project: Project, withError: boolean) => {
  const entry = imports(store)[project.id];
  const status: FakeProjectImport['status'] | 'none' = entry?.status ?? 'none';
  return {
    ...store.projectIdentity(project),
    import_status: status,
    correlation_id: entry?.correlation_id ?? correlationId(`project ${project.id}`),
    ...(status === 'failed' || status === 'started' || status === 'finished' ? { failed_relations: [] } : {}),
    ...(withError || status === 'failed'
      ? { import_error: status === 'failed' ? (entry?.error ?? NOT_AN_EXPORT) : null }
      : {}),
  };
};

/** One step of a pending import; the files of the archive are committed when it finishes. */
const advance = (store: Store, project: Project, entry: FakeProjectImport) => {
  store.revision += 1; // a read that writes: what was derived from the state is stale
  if (entry.status === 'scheduled') entry.status = 'started';
  else if (entry.status === 'started') {
    entry.status = entry.error === null ? 'finished' : 'failed';
    if (entry.status === 'finished' && entry.files && Object.keys(entry.files).length > 0) {
      const changes = Object.fromEntries(
        Object.entries(entry.files).map(([path, content]) => [path, { content, execute_filemode: false }]),
      );
      project.repository.branches[project.default_branch] = store.commit(project, {
        parent: undefined,
        message: 'Initial commit',
        author: undefined,
        changes,
      }).id;
    }
    delete entry.files;
  }
};

const maintainedByPath = (store: Store, path: string, principal: Principal) => {
  const project = readableProject(store, path, principal);
  if (!project) return { answer: PROJECT_NOT_FOUND };
  return store.hasAccess(project, principal.user, 40) ? { project } : { answer: FORBIDDEN };
};

const relationRecord = (store: Store, project: Project, r: FakeRelationImport) => ({
  id: r.id,
  project_path: store.projectPath(project),
  relation: r.relation,
  status: r.status,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const importProject =
  (store: Store): Handler<'project-import-export/import-project', Principal> =>
  async ({ body }, { principal }) => {
    const contents = readExport(Buffer.from(await body.file.arrayBuffer()));
    const { project, answer } = create(store, body, principal, 'file', contents ?? null);
    if (answer) return answer;
    return { status: 201, body: { ...record(store, project!, false), import_status: 'scheduled' as const } };
  };

const importProjectFromUrl =
  (store: Store): Handler<'project-import-export/import-project-from-url', Principal> =>
  ({ body }, { principal }) => {
    const { project, answer } = create(store, body, principal, 'url');
    if (answer) return answer;
    return { status: 201, body: { ...record(store, project!, true), import_error: null } };
  };

const importProjectFromS3 =
  (store: Store): Handler<'project-import-export/import-project-from-s3', Principal> =>
  ({ body }, { principal }) => {
    const { project, answer } = create(
      store,
      { path: body.path, name: body.name, namespace: body.namespace },
      principal,
      's3',
    );
    if (answer) return answer;
    return { status: 201, body: { ...record(store, project!, true), import_error: null } };
  };

const getImportStatus =
  (store: Store): Handler<'project-import-export/get-import-status', Principal> =>
  ({ params }, { principal }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const answer = record(store, project, false);
    const entry = imports(store)[project.id];
    if (entry) advance(store, project, entry);
    return { status: 200, body: answer };
  };

const importRelation =
  (store: Store): Handler<'project-import-export/import-relation', Principal> =>
  async ({ body }, { principal }) => {
    const { project, answer } = maintainedByPath(store, body.path, principal);
    if (answer) return answer;
    const pending = relationImports(store).find(
      (r) => r.project_id === project!.id && (r.status === 'created' || r.status === 'started'),
    );
    if (pending)
      return conflict(
        `a relation import (${pending.relation}, id ${pending.id}) is already scheduled for this project; only one can be scheduled at a time`,
      );
    const contents = readExport(Buffer.from(await body.file.arrayBuffer()));
    const now = store.now(true);
    const created: FakeRelationImport = {
      id: store.nextId('relation_imports', relationImports(store)),
      project_id: project!.id,
      relation: body.relation,
      status: 'created',
      ...(contents ? {} : { fails: true }),
      created_at: now,
      updated_at: now,
    };
    relationImports(store).push(created);
    const { id, project_path, relation, status } = relationRecord(store, project!, created);
    return { status: 201, body: { id, project_path, relation, status } };
  };

const listRelationImports =
  (store: Store): Handler<'project-import-export/list-relation-imports', Principal> =>
  ({ params, query }, { principal, request }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    if (!store.hasAccess(project, principal.user, 40)) return FORBIDDEN;
    const mine = relationImports(store)
      .filter((r) => r.project_id === project.id)
      .sort((a, b) => b.id - a.id);
    const page = paginate(mine, query, request);
    const body = page.items.map((r) => relationRecord(store, project, r));
    const now = store.now();
    for (const r of mine) {
      if (r.status === 'created') r.status = 'started';
      else if (r.status === 'started') r.status = r.fails ? 'failed' : 'finished';
      else continue;
      r.updated_at = now;
    }
    return { status: 200, body, headers: page.headers };
  };

export function importHandlers(store: Store): Handlers<Principal> {
  return {
    'project-import-export/import-project': importProject(store),
    'project-import-export/import-project-from-url': importProjectFromUrl(store),
    'project-import-export/import-project-from-s3': importProjectFromS3(store),
    'project-import-export/get-import-status': getImportStatus(store),
    'project-import-export/import-relation': importRelation(store),
    'project-import-export/list-relation-imports': listRelationImports(store),
  };
}
