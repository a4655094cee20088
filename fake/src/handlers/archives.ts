/**
 * Repository archives of the tree at `sha` (default: the default branch), limited to `path`: real archives built by
 * archive libraries (tar-stream for tar, yazl for zip, node:zlib for gzip, node-bzip2 (libbzip2) for the bzip2
 * formats). Everything sits under one top-level directory `<project path>-<ref>-<commit sha>` (`-<path>` appended when
 * a path is given) and the file is named `<project path>-<ref>.<format>`, as the Service names them.
 */
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import tarStream from 'tar-stream';
import yazl from 'yazl';
import type { Handlers } from '@service-api/server';
import type { Principal } from '../auth.ts';
import type { FakeCommit } from '../data.ts';
import { message, PROJECT_NOT_FOUND } from '../common.ts';
import { resolveRef } from '../repository-history.ts';
import type { Project, Store } from '../store.ts';

export type ArchiveFormat = 'tar.gz' | 'tar' | 'tar.bz2' | 'bz2' | 'tb2' | 'tbz' | 'tbz2' | 'zip';

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

interface Entry {
  name: string;
  content?: Buffer;
  executable?: boolean;
}

/** The directories and files of the archive, directories before what they hold, all under `root/`. */
function entriesOf(project: Project, commit: FakeCommit, root: string, path: string): Entry[] | undefined {
  const prefix = path === '' ? '' : `${path}/`;
  const paths = Object.keys(commit.tree).filter((p) => p === path || p.startsWith(prefix)).sort();
  if (paths.length === 0) return undefined;
  const directories = new Set<string>([`${root}/`]);
  for (const file of paths) {
    const parts = file.split('/');
    for (let depth = 1; depth < parts.length; depth++) directories.add(`${root}/${parts.slice(0, depth).join('/')}/`);
  }
  const files = paths.map((file) => ({ name: `${root}/${file}`, content: Buffer.from(project.repository.blobs[commit.tree[file]!.blob_id] ?? '', 'base64'), executable: commit.tree[file]!.execute_filemode }));
  return [...[...directories].map((name) => ({ name })), ...files].sort((a, b) => (a.name < b.name ? -1 : 1));
}

async function tarOf(entries: Entry[], mtime: Date): Promise<Buffer> {
  const pack = tarStream.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(chunk as Buffer);
  })();
  for (const entry of entries) {
    if (entry.content === undefined) pack.entry({ name: entry.name, type: 'directory', mode: 0o755, mtime });
    else pack.entry({ name: entry.name, size: entry.content.length, mode: entry.executable ? 0o755 : 0o644, mtime }, entry.content);
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

async function zipOf(entries: Entry[], mtime: Date): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.content === undefined) zip.addEmptyDirectory(entry.name, { mtime });
    else zip.addBuffer(entry.content, entry.name, { mtime, mode: entry.executable ? 0o100755 : 0o100644 });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * libbzip2 through node-bzip2, a native addon and an optional dependency (its install compiles C): loaded on the
 * first bzip2 archive, so the fake starts without it; null when it is not installed.
 */
let bzip2: { compress(data: Uint8Array, options?: { level?: number }): Buffer } | null | undefined;
function loadBzip2(): typeof bzip2 {
  if (bzip2 === undefined) {
    try {
      bzip2 = createRequire(import.meta.url)('node-bzip2') as NonNullable<typeof bzip2>;
    } catch {
      bzip2 = null;
    }
  }
  return bzip2;
}

export const BZIP2_MISSING = '500 Internal Server Error - bzip2 archives need the optional dependency node-bzip2 (a native addon), which is not installed';

/** The archive's bytes, or undefined for a bzip2 format when node-bzip2 is not installed. */
export async function archiveOf(format: ArchiveFormat, entries: Entry[], mtime: Date): Promise<Buffer | undefined> {
  if (format === 'zip') return zipOf(entries, mtime);
  const tar = await tarOf(entries, mtime);
  if (format === 'tar') return tar;
  if (format === 'tar.gz') return gzipSync(tar);
  const compressor = loadBzip2();
  return compressor ? Buffer.from(compressor.compress(tar, { level: 9 })) : undefined;
}

export function archiveHandlers(store: Store): Handlers<Principal> {
  const download = async (id: string | number, format: ArchiveFormat, query: { sha?: string; path?: string }, principal: Principal | undefined, reply: { header(name: string, value: string): unknown; type(value: string): unknown }) => {
    const project = store.findProject(id);
    if (!project || !store.canReadRepository(project, principal?.user)) return PROJECT_NOT_FOUND;
    const ref = query.sha === undefined || query.sha === '' ? project.default_branch : query.sha;
    const commit = resolveRef(store, project, ref);
    if (!commit) return { status: 404 as const, body: message('404 Ref Not Found') };
    const path = (query.path ?? '').replace(/^\/+|\/+$/g, '');
    if (`/${path}/`.includes('/../')) return { status: 400 as const, body: message('400 Bad request - path is invalid') };
    const safe = (text: string) => text.replace(/[^\w.-]+/g, '-');
    const stem = [project.path, safe(ref)];
    const suffix = path === '' ? [] : [safe(path)];
    const root = [...stem, ...(commit.id === ref ? [] : [commit.id]), ...suffix].join('-');
    const entries = entriesOf(project, commit, root, path);
    if (!entries) return { status: 404 as const, body: message('404 Tree Not Found') };
    const bytes = await archiveOf(format, entries, new Date(commit.created_at));
    if (!bytes) return { status: 500 as const, body: message(BZIP2_MISSING) };
    reply.header('content-disposition', `attachment; filename="${[...stem, ...suffix].join('-')}.${format}"`);
    reply.type(mediaTypes[format]);
    return { status: 200 as const, body: new Uint8Array(bytes) };
  };
  return {
    'repository/download-archive': ({ params, query }, { principal, reply }) => download(params.id, 'tar.gz', query, principal, reply),
    'repository/download-archive-in-format': ({ params, query }, { principal, reply }) => download(params.id, params.format, query, principal, reply),
  };
}
