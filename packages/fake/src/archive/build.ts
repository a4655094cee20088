/**
 * Builds a repository archive's bytes with archive libraries (tar-stream for tar, yazl for zip, node:zlib for gzip,
 * libbzip2 compiled to WebAssembly (libbzip2-wasm: no native addon, no compiler at install) for bzip2), streamed as
 * produced, one compression at a time. Runs in a worker thread (archive/worker.ts): the compression is CPU-bound.
 */
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
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
  /** In any order: the archive lists them by name (a directory before what it holds), as git does. */
  entries: ArchiveEntry[];
  /** Every entry's modification time (ms since the epoch). */
  mtime: number;
}

/** Output is handed on in pieces of at least this many bytes (the last one may be smaller). */
export const PIECE = 64 * 1024;

function tarOf(entries: ArchiveEntry[], mtime: Date): Readable {
  const pack = tarStream.pack();
  for (const entry of entries) {
    if (entry.content === undefined) pack.entry({ name: entry.name, type: 'directory', mode: 0o755, mtime });
    else {
      const content = Buffer.from(entry.content, 'base64');
      pack.entry({ name: entry.name, size: content.length, mode: entry.executable ? 0o755 : 0o644, mtime }, content);
    }
  }
  pack.finalize();
  return Readable.from(pack as AsyncIterable<Buffer>);
}

/**
 * A zip whose files are compressed one after another as the output is read: yazl compresses a read stream's data
 * when its entry's turn comes, where `addBuffer` would start a compression job per file at once (20,000 files: 20,000
 * zlib streams in memory together, and libuv's thread pool busy for everyone).
 */
function zipOf(entries: ArchiveEntry[], mtime: Date): Readable {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.content === undefined) zip.addEmptyDirectory(entry.name, { mtime });
    else {
      const content = entry.content;
      zip.addReadStream(Readable.from([Buffer.from(content, 'base64')]), entry.name, {
        mtime,
        mode: entry.executable ? 0o100755 : 0o100644,
      });
    }
  }
  zip.end();
  return zip.outputStream as Readable;
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

/** The archive's bytes as they are produced, in pieces of about `PIECE` bytes (bzip2, whole: libbzip2 takes the whole tar). */
export async function* streamArchive({ format, entries: given, mtime }: ArchiveJob): AsyncGenerator<Buffer> {
  const when = new Date(mtime);
  const entries = [...given].sort((a, b) => (a.name < b.name ? -1 : 1));
  if (format === 'tar.bz2' || format === 'bz2' || format === 'tb2' || format === 'tbz' || format === 'tbz2') {
    const tar = await buffered(tarOf(entries, when));
    yield (await loadBzip2())(tar);
    return;
  }
  const output = format === 'zip' ? zipOf(entries, when) : tarOf(entries, when);
  yield* pieces(format === 'tar.gz' ? output.pipe(createGzip()) : output);
}

/** The archive's bytes, whole. */
export async function buildArchive(job: ArchiveJob): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of streamArchive(job)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function buffered(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A stream's chunks gathered into pieces of at least `PIECE` bytes. */
async function* pieces(stream: Readable): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    held.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size < PIECE) continue;
    yield Buffer.concat(held);
    [held, size] = [[], 0];
  }
  if (size > 0) yield Buffer.concat(held);
}
