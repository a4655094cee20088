/**
 * Repository archives of the tree at `sha` (default: the default branch), limited to `path`: real archives (see
 * archive/build.ts), built in a worker thread and streamed as they are built, so that other requests never wait for one. Everything sits under one
 * top-level directory `<project path>-<ref>-<commit sha>` (`-<path>` appended when a path is given) and the file is
 * named `<project path>-<ref>.<format>`, as the Service names them.
 */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { ArchiveEntry, ArchiveFormat } from '../../archive/build.ts';
import { streamInWorker } from '../../archive/pool.ts';
import { message, PROJECT_NOT_FOUND } from '../../common.ts';
import { resolveRef } from '../../repository-history.ts';
import type { Project, Store } from '../../store.ts';
import { treeEntries, type Commit } from '../../tree.ts';

const mediaTypes: Record<ArchiveFormat, string> = {
  'tar.gz': 'application/gzip',
  tar: 'application/x-tar',
  'tar.bz2': 'application/x-bzip2',
  bz2: 'application/x-bzip2',
  tb2: 'application/x-bzip2',
  tbz: 'application/x-bzip2',
  tbz2: 'application/x-bzip2',
  zip: 'application/zip',
};

/** Entries listed between two turns of the event loop: listing a large tree at once would hold up every other request. */
export const LISTED_PER_TURN = 1000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The directories and files of the archive, all under `root/`, in no particular order. */
async function entriesOf(
  project: Project,
  commit: Commit,
  root: string,
  path: string,
): Promise<ArchiveEntry[] | undefined> {
  const prefix = path === '' ? '' : `${path}/`;
  const directories = new Set<string>([`${root}/`]);
  const files: ArchiveEntry[] = [];
  let visited = 0;
  for (const [file, entry] of treeEntries(commit.tree)) {
    if (++visited % LISTED_PER_TURN === 0) await nextTurn();
    if (file !== path && !file.startsWith(prefix)) continue;
    const parts = file.split('/');
    for (let depth = 1; depth < parts.length; depth++) directories.add(`${root}/${parts.slice(0, depth).join('/')}/`);
    files.push({
      name: `${root}/${file}`,
      content: project.repository.blobs[entry.blob_id] ?? '',
      executable: entry.execute_filemode,
    });
  }
  if (files.length === 0) return undefined;
  // Unsorted: the worker puts them in order (a sort of 20,000 names here would hold up every other request).
  return [...[...directories].map((name) => ({ name })), ...files];
}

export function archiveHandlers(store: Store): Handlers<Principal> {
  const download = async (
    id: string | number,
    format: ArchiveFormat,
    query: { sha?: string; path?: string },
    principal: Principal | undefined,
    reply: { header(name: string, value: string): unknown; type(value: string): unknown },
  ) => {
    const project = store.findProject(id);
    if (!project || !store.canReadRepository(project, principal?.user)) return PROJECT_NOT_FOUND;
    const ref = query.sha === undefined || query.sha === '' ? project.default_branch : query.sha;
    const commit = resolveRef(store, project, ref);
    if (!commit) return { status: 404 as const, body: message('404 Ref Not Found') };
    const path = (query.path ?? '').replace(/^\/+|\/+$/g, '');
    if (`/${path}/`.includes('/../'))
      return { status: 400 as const, body: message('400 Bad request - path is invalid') };
    const safe = (text: string) => text.replace(/[^\w.-]+/g, '-');
    const stem = [project.path, safe(ref)];
    const suffix = path === '' ? [] : [safe(path)];
    const root = [...stem, ...(commit.id === ref ? [] : [commit.id]), ...suffix].join('-');
    const entries = await entriesOf(project, commit, root, path);
    if (!entries) return { status: 404 as const, body: message('404 Tree Not Found') };
    const body = streamInWorker({ format, entries, mtime: Date.parse(commit.created_at) });
    reply.header('content-disposition', `attachment; filename="${[...stem, ...suffix].join('-')}.${format}"`);
    reply.type(mediaTypes[format]);
    return { status: 200 as const, body };
  };
  return {
    'repository/download-archive': ({ params, query }, { principal, reply }) =>
      download(params.id, 'tar.gz', query, principal, reply),
    'repository/download-archive-in-format': ({ params, query }, { principal, reply }) =>
      download(params.id, params.format, query, principal, reply),
  };
}
