/**
 * Repository files and blobs over real commits: create, update and delete write commits; GET, HEAD and raw read the
 * same blob (same size, blob id, commit ids and SHA-256); a path git cannot store and an unchanged content are 400.
 */
import { createHash } from 'node:crypto';
import { INVALID_FILE_PATH, isValidFilePath, type Handler, type Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import { FORBIDDEN, MAX_LINK, message, PROJECT_NOT_FOUND } from '../../common.ts';
import type { Project, Store } from '../../store.ts';
import { entryOf, treePaths, type Commit } from '../../tree.ts';

const FILE_NOT_FOUND = { status: 404 as const, body: message('404 File Not Found') };
const bad = (text: string, field: string) => ({
  status: 400 as const,
  body: { message: `400 Bad request - ${text}`, errors: [{ in: 'body', field, problem: text }] },
});

/** The entries under `dir` (all levels when recursive): directories first, then files, each by name. */
function treeEntries(
  commit: Commit,
  dir: string,
  recursive: boolean,
): { id: string; name: string; type: 'tree' | 'blob'; path: string; mode: string }[] | undefined {
  const prefix = dir === '' ? '' : `${dir}/`;
  const all = treePaths(commit.tree);
  const paths = all.filter((p) => p.startsWith(prefix));
  if (dir !== '' && paths.length === 0) return undefined;
  const trees = new Set<string>();
  const blobs: string[] = [];
  for (const path of paths) {
    const rest = path.slice(prefix.length).split('/');
    for (let depth = 1; depth < rest.length && (recursive || depth === 1); depth++)
      trees.add(prefix + rest.slice(0, depth).join('/'));
    if (recursive || rest.length === 1) blobs.push(path);
  }
  const treeId = (path: string) =>
    createHash('sha1')
      .update(
        `tree ${path}\n${all
          .filter((p) => p.startsWith(`${path}/`))
          .map((p) => `${p} ${entryOf(commit.tree, p)!.blob_id}`)
          .join('\n')}`,
      )
      .digest('hex');
  const name = (path: string) => path.split('/').pop()!;
  const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [
    ...[...trees]
      .sort(byPath)
      .map((path) => ({ id: treeId(path), name: name(path), type: 'tree' as const, path, mode: '040000' })),
    ...blobs.sort(byPath).map((path) => {
      const entry = entryOf(commit.tree, path)!;
      return {
        id: entry.blob_id,
        name: name(path),
        type: 'blob' as const,
        path,
        mode: entry.execute_filemode ? '100755' : '100644',
      };
    }),
  ];
}

/**
 * The cursor of the tree's next link names the last entry by its path, as the Service's does (Gitaly's page token:
 * base64 of `{"file_name": path}`): an entry id alone is ambiguous, since files with the same content share their blob
 * id and a page ending on one of them would skip the others. A bare entry id is still read (the first entry with it).
 */
const pageToken = (path: string) => Buffer.from(JSON.stringify({ file_name: path })).toString('base64');

/** The path a cursor names, or undefined when it is not one (then it is an entry id). */
function cursorPath(token: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    const name =
      parsed !== null && typeof parsed === 'object' ? (parsed as { file_name?: unknown }).file_name : undefined;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

function pageStart(entries: readonly { id: string; path: string }[], token: string | undefined): number {
  if (token === undefined) return 0;
  const path = cursorPath(token);
  return (
    (path === undefined ? entries.findIndex((e) => e.id === token) : entries.findIndex((e) => e.path === path)) + 1
  );
}

/** The project whose repository the caller may read (anonymous callers: public projects only). */
const readable = (store: Store, id: string | number, principal: Principal | undefined): Project | undefined => {
  const project = store.findProject(id);
  return project && store.canReadRepository(project, principal?.user) ? project : undefined;
};

/** The file at a ref with its metadata, or the reason it cannot be read. */
const fileAt = (store: Store, project: Project, path: string, ref: string | undefined) => {
  const commit = store.resolveRef(project, ref);
  if (!commit) return undefined;
  const entry = entryOf(commit.tree, path);
  if (!entry) return undefined;
  const content = project.repository.blobs[entry.blob_id]!;
  const bytes = Buffer.from(content, 'base64');
  return {
    file_name: path.split('/').pop()!,
    file_path: path,
    size: bytes.length,
    encoding: 'base64' as const,
    content,
    content_sha256: createHash('sha256').update(bytes).digest('hex'),
    ref: ref ?? project.default_branch,
    blob_id: entry.blob_id,
    commit_id: commit.id,
    last_commit_id: entry.last_commit_id,
    execute_filemode: entry.execute_filemode,
    bytes,
  };
};

const metadataHeaders = (file: NonNullable<ReturnType<typeof fileAt>>) => ({
  'X-Service-Blob-Id': file.blob_id,
  'X-Service-Commit-Id': file.commit_id,
  'X-Service-Content-Sha256': file.content_sha256,
  'X-Service-Encoding': file.encoding,
  'X-Service-File-Name': file.file_name,
  'X-Service-File-Path': file.file_path,
  'X-Service-Last-Commit-Id': file.last_commit_id,
  'X-Service-Ref': file.ref,
  'X-Service-Size': file.size,
  'X-Service-Execute-Filemode': file.execute_filemode,
});

const fileBody = (file: NonNullable<ReturnType<typeof fileAt>>) => {
  const { bytes: _bytes, ...body } = file;
  return body;
};

/**
 * Checks shared by the three writes (a project the caller can see, Developer access, a safe path, a branch); returns
 * the project and the branch's head commit, or the answer.
 */
const prepareWrite = (
  store: Store,
  id: string | number,
  principal: Principal,
  path: string,
  body: { branch: string; start_branch?: string; commit_message: string },
):
  | { answer: typeof PROJECT_NOT_FOUND | typeof FORBIDDEN | ReturnType<typeof bad> }
  | { answer?: undefined; project: Project; head: Commit } => {
  const project = store.findProject(id);
  if (!project || !store.canRead(project, principal.user)) return { answer: PROJECT_NOT_FOUND };
  if (!store.hasAccess(project, principal.user, 30)) return { answer: FORBIDDEN };
  // The server package refuses a path git cannot store before any handler runs; a handler called directly too.
  if (!isValidFilePath(path)) return { answer: bad(INVALID_FILE_PATH, 'file_path') };
  const branches = project.repository.branches;
  const head = branches[body.branch] ?? (body.start_branch !== undefined ? branches[body.start_branch] : undefined);
  if (!head) return { answer: bad(`You can only create or edit files when you are on a branch`, 'branch') };
  return { project, head: store.findCommit(project, head)! };
};

/** The entry an update or a delete changes, or the answer when it is missing or changed since `last_commit_id`. */
const changedEntry = (head: Commit, path: string, lastCommitId: string | undefined, verb: 'update' | 'delete') => {
  const entry = entryOf(head.tree, path);
  if (!entry) return { answer: bad("A file with this name doesn't exist", 'file_path') };
  if (lastCommitId !== undefined && lastCommitId !== entry.last_commit_id)
    return {
      answer: bad(
        `You are attempting to ${verb} a file that has changed since you started editing it.`,
        'last_commit_id',
      ),
    };
  return { entry };
};

const write = (
  store: Store,
  project: Project,
  principal: Principal,
  head: Commit,
  branch: string,
  commitMessage: string,
  path: string,
  change: { content: string; execute_filemode: boolean } | null,
) => {
  const commit = store.commit(project, {
    parent: head.id,
    message: commitMessage,
    author: principal.user,
    changes: { [path]: change },
  });
  project.repository.branches[branch] = commit.id;
  return commit;
};

const contentOf = (content: string, encoding: string | undefined) =>
  (encoding === 'base64' ? Buffer.from(content, 'base64') : Buffer.from(content, 'utf8')).toString('base64');

const getFile =
  (store: Store): Handler<'repository/get-file', Principal> =>
  ({ params, query }, { principal }) => {
    const project = readable(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const file = fileAt(store, project, params.file_path, query.ref);
    return file ? { status: 200, body: fileBody(file) } : FILE_NOT_FOUND;
  };

const getFileMetadata =
  (store: Store): Handler<'repository/get-file-metadata', Principal> =>
  ({ params, query }, { principal }) => {
    const project = readable(store, params.id, principal);
    if (!project) return { status: 404 };
    const file = fileAt(store, project, params.file_path, query.ref);
    return file ? { status: 200, headers: metadataHeaders(file) } : { status: 404 };
  };

const getRawFile =
  (store: Store): Handler<'repository/get-raw-file', Principal> =>
  ({ params, query }, { principal, reply }) => {
    const project = readable(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const file = fileAt(store, project, params.file_path, query.ref);
    if (!file) return FILE_NOT_FOUND;
    void reply.type('text/plain; charset=utf-8');
    return { status: 200, body: new Uint8Array(file.bytes) };
  };

const getRawFileMetadata =
  (store: Store): Handler<'repository/get-raw-file-metadata', Principal> =>
  ({ params, query }, { principal }) => {
    const project = readable(store, params.id, principal);
    if (!project) return { status: 404 };
    const file = fileAt(store, project, params.file_path, query.ref);
    return file ? { status: 200, headers: metadataHeaders(file) as never } : { status: 404 };
  };

const createFile =
  (store: Store): Handler<'repository/create-file', Principal> =>
  ({ params, body }, { principal }) => {
    const prepared = prepareWrite(store, params.id, principal, params.file_path, body);
    if (prepared.answer) return prepared.answer;
    if (entryOf(prepared.head.tree, params.file_path)) return bad('A file with this name already exists', 'file_path');
    write(store, prepared.project, principal, prepared.head, body.branch, body.commit_message, params.file_path, {
      content: contentOf(body.content, body.encoding),
      execute_filemode: body.execute_filemode === true,
    });
    return { status: 201, body: { file_path: params.file_path, branch: body.branch } };
  };

const updateFile =
  (store: Store): Handler<'repository/update-file', Principal> =>
  ({ params, body }, { principal }) => {
    const prepared = prepareWrite(store, params.id, principal, params.file_path, body);
    if (prepared.answer) return prepared.answer;
    const { entry, answer } = changedEntry(prepared.head, params.file_path, body.last_commit_id, 'update');
    if (!entry) return answer;
    const content = contentOf(body.content, body.encoding);
    const mode = body.execute_filemode ?? entry.execute_filemode;
    if (content === prepared.project.repository.blobs[entry.blob_id] && mode === entry.execute_filemode)
      return bad('The content of the file is unchanged: an empty commit', 'content');
    write(store, prepared.project, principal, prepared.head, body.branch, body.commit_message, params.file_path, {
      content,
      execute_filemode: mode,
    });
    return { status: 200, body: { file_path: params.file_path, branch: body.branch } };
  };

const deleteFile =
  (store: Store): Handler<'repository/delete-file', Principal> =>
  ({ params, body }, { principal }) => {
    const prepared = prepareWrite(store, params.id, principal, params.file_path, body);
    if (prepared.answer) return prepared.answer;
    const { answer } = changedEntry(prepared.head, params.file_path, body.last_commit_id, 'delete');
    if (answer) return answer;
    write(store, prepared.project, principal, prepared.head, body.branch, body.commit_message, params.file_path, null);
    return { status: 204 };
  };

const listTree =
  (store: Store): Handler<'repository/list-tree', Principal> =>
  ({ params, query }, { principal, request }) => {
    const project = readable(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const commit = store.resolveRef(project, query.ref);
    if (!commit) return { status: 404, body: message('404 Tree Not Found') };
    const entries = treeEntries(commit, (query.path ?? '').replace(/^\/+|\/+$/g, ''), query.recursive === true);
    if (entries === undefined) return { status: 404, body: message('404 Tree Not Found') };
    // Keyset pagination only: the page starts after the entry `page_token` names (see `pageStart`).
    const perPage = Math.min(Math.max(query.per_page ?? 20, 1), 100);
    const start = pageStart(entries, query.page_token);
    const items = entries.slice(start, start + perPage);
    const headers: Record<string, string> = {};
    if (start + perPage < entries.length && items.length > 0) {
      const url = new URL(request.raw.url ?? '/', `${request.protocol}://${request.headers.host ?? 'localhost'}`);
      url.searchParams.set('pagination', 'keyset');
      url.searchParams.set('per_page', String(perPage));
      url.searchParams.set('page_token', pageToken(items[items.length - 1]!.path));
      if (url.href.length <= MAX_LINK) headers.link = `<${url}>; rel="next"`;
    }
    return { status: 200, body: items, headers };
  };

const getBlob =
  (store: Store): Handler<'repository/get-blob', Principal> =>
  ({ params }, { principal }) => {
    const project = readable(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const content = project.repository.blobs[params.sha];
    if (content === undefined) return { status: 404, body: message('404 Blob Not Found') };
    return {
      status: 200,
      body: { size: Buffer.from(content, 'base64').length, content, encoding: 'base64', sha: params.sha },
    };
  };

const getRawBlob =
  (store: Store): Handler<'repository/get-raw-blob', Principal> =>
  ({ params }, { principal }) => {
    const project = readable(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const content = project.repository.blobs[params.sha];
    if (content === undefined) return { status: 404, body: message('404 Blob Not Found') };
    return { status: 200, body: new Uint8Array(Buffer.from(content, 'base64')) };
  };

export function repositoryHandlers(store: Store): Handlers<Principal> {
  return {
    'repository/get-file': getFile(store),
    'repository/get-file-metadata': getFileMetadata(store),
    'repository/get-raw-file': getRawFile(store),
    'repository/get-raw-file-metadata': getRawFileMetadata(store),
    'repository/create-file': createFile(store),
    'repository/update-file': updateFile(store),
    'repository/delete-file': deleteFile(store),
    'repository/list-tree': listTree(store),
    'repository/get-blob': getBlob(store),
    'repository/get-raw-blob': getRawBlob(store),
  };
}
