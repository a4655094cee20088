/**
 * Builds a repository archive's bytes with archive libraries (tar-stream for tar, yazl for zip, node:zlib for gzip,
 * libbzip2 compiled to WebAssembly (libbzip2-wasm: no native addon, no compiler at install) for bzip2). Runs in a worker
 * thread (archive/worker.ts): the compression is CPU-bound.
 */
import { gzipSync } from 'node:zlib';
import bzip2Module from 'libbzip2-wasm';
import tarStream from 'tar-stream';
import yazl from 'yazl';

export type ArchiveFormat = 'tar.gz' | 'tar' | 'tar.bz2' | 'bz2' | 'tb2' | 'tbz' | 'tbz2' | 'zip';

/** A directory (no content) or a file with its base64 content, named by its path inside the archive. */
export interface ArchiveEntry {
  name: string;
  content?: string;
  executable?: boolean;
}

export interface ArchiveJob {
  format: ArchiveFormat;
  entries: ArchiveEntry[];
  /** Every entry's modification time (ms since the epoch). */
  mtime: number;
}

async function tarOf(entries: ArchiveEntry[], mtime: Date): Promise<Buffer> {
  const pack = tarStream.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const chunk of pack) chunks.push(chunk as Buffer);
  })();
  for (const entry of entries) {
    if (entry.content === undefined) pack.entry({ name: entry.name, type: 'directory', mode: 0o755, mtime });
    else {
      const content = Buffer.from(entry.content, 'base64');
      pack.entry({ name: entry.name, size: content.length, mode: entry.executable ? 0o755 : 0o644, mtime }, content);
    }
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

async function zipOf(entries: ArchiveEntry[], mtime: Date): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.content === undefined) zip.addEmptyDirectory(entry.name, { mtime });
    else
      zip.addBuffer(Buffer.from(entry.content, 'base64'), entry.name, {
        mtime,
        mode: entry.executable ? 0o100755 : 0o100644,
      });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** libbzip2, loaded on the first bzip2 archive. */
let bzip2: Promise<(input: Uint8Array) => Buffer> | undefined;
function loadBzip2(): Promise<(input: Uint8Array) => Buffer> {
  bzip2 ??= new Promise((resolve) => {
    bzip2Module().then((module) => {
      resolve((input) => {
        const { error, errorMsg, output } = module.compressBZ2(input, 9, 30);
        if (error !== 0) throw new Error(`bzip2 failed: ${errorMsg} (${error})`);
        return Buffer.from(output); // a copy: the output lives in the module's memory, reused by the next call
      });
    });
  });
  return bzip2;
}

/** The archive's bytes. */
export async function buildArchive({ format, entries, mtime }: ArchiveJob): Promise<Uint8Array> {
  const when = new Date(mtime);
  if (format === 'zip') return zipOf(entries, when);
  const tar = await tarOf(entries, when);
  if (format === 'tar') return tar;
  if (format === 'tar.gz') return gzipSync(tar);
  return (await loadBzip2())(tar);
}
