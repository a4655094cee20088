/**
 * The fake's repository archives, through the generated client with responses validated: every documented format is a
 * real archive that GNU tar (gzip, bzip2, plain) or Info-ZIP unzip unpacks into the tree at `sha` (limited to `path`),
 * under the top-level directory `<project>-<ref>-<sha>`, with the media type of the format.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { defaultData } from '../src/index.ts';
import { buildArchive } from '../src/archive/build.ts';
import { archiveLoad, MAX_BUILDING, streamInWorker } from '../src/archive/pool.ts';
import { archiveHandlers, LISTED_PER_TURN } from '../src/handlers/repository/archives.ts';
import { Store } from '../src/store.ts';
import { status, useFake } from '../../../test/support/fake.ts';

const { as } = useFake();
const PROJECT = 'my-group/my-project';

/** Unpacks an archive with the system's tools and returns every file and directory below the folder (dirs end in /). */
function unpack(bytes: Buffer, format: string): { entries: string[]; folder: string } {
  const folder = mkdtempSync(join(tmpdir(), 'fake-archive-'));
  const file = join(folder, `archive.${format}`);
  writeFileSync(file, bytes);
  const out = join(folder, 'out');
  mkdirSync(out);
  if (format === 'zip') execFileSync('unzip', ['-q', file, '-d', out]);
  else execFileSync('tar', ['-xf', file, '-C', out]); // GNU tar recognises gzip and bzip2 by their magic bytes
  const entries: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const isDir = statSync(path).isDirectory();
      entries.push(relative(out, path) + (isDir ? '/' : ''));
      if (isDir) walk(path);
    }
  };
  walk(out);
  return { entries, folder: out };
}

const magic: Record<string, number[]> = {
  gzip: [0x1f, 0x8b],
  bzip2: [0x42, 0x5a, 0x68],
  zip: [0x50, 0x4b, 0x03, 0x04],
};

describe('repository archives', () => {
  const formats = [
    { format: 'tar.gz', type: 'application/gzip', magic: magic.gzip },
    { format: 'tar', type: 'application/x-tar', magic: undefined },
    { format: 'tar.bz2', type: 'application/x-bzip2', magic: magic.bzip2 },
    { format: 'bz2', type: 'application/x-bzip2', magic: magic.bzip2 },
    { format: 'tb2', type: 'application/x-bzip2', magic: magic.bzip2 },
    { format: 'tbz', type: 'application/x-bzip2', magic: magic.bzip2 },
    { format: 'tbz2', type: 'application/x-bzip2', magic: magic.bzip2 },
    { format: 'zip', type: 'application/zip', magic: magic.zip },
  ] as const;

  it.each(formats)(
    'archive.$format is a real $type archive of the default branch, files as GET raw reads them',
    async ({ format, type, magic: head }) => {
      const api = as();
      const sha = (
        await api.repository.getFile({ path: { id: PROJECT, file_path: 'README.md' }, query: { ref: 'main' } })
      ).commit_id;
      const response = await api.repository.downloadArchiveInFormat.withResponse({ path: { id: PROJECT, format } });
      expect(response.rawHeaders.get('content-type')).toBe(type);
      expect(response.rawHeaders.get('content-disposition')).toBe(`attachment; filename="my-project-main.${format}"`);
      const bytes = Buffer.from(await response.data.arrayBuffer());
      if (head) expect([...bytes.subarray(0, head.length)]).toEqual(head);
      const root = `my-project-main-${sha}`;
      const { entries, folder } = unpack(bytes, format);
      expect(entries).toEqual([
        `${root}/`,
        `${root}/README.md`,
        `${root}/scripts/`,
        `${root}/scripts/run.sh`,
        `${root}/src/`,
        `${root}/src/index.js`,
      ]);
      for (const path of ['README.md', 'scripts/run.sh', 'src/index.js']) {
        const raw = Buffer.from(
          await (
            await api.repository.getRawFile({ path: { id: PROJECT, file_path: path }, query: { ref: 'main' } })
          ).arrayBuffer(),
        );
        expect(readFileSync(join(folder, root, path)).equals(raw), path).toBe(true);
      }
      expect(statSync(join(folder, root, 'scripts/run.sh')).mode & 0o111).not.toBe(0);
      expect(statSync(join(folder, root, 'src/index.js')).mode & 0o111).toBe(0);
    },
  );

  it('archive without a suffix is tar.gz; sha picks a tag, a branch or a commit; path keeps one folder', async () => {
    const dev = as('developer-token');
    const plain = await dev.repository.downloadArchive.withResponse({ path: { id: PROJECT } });
    expect(plain.rawHeaders.get('content-type')).toBe('application/gzip');
    const main = await dev.repository.getFile({
      path: { id: PROJECT, file_path: 'README.md' },
      query: { ref: 'main' },
    });

    // A later commit on main does not change an archive of the tag.
    await dev.repository.updateFile({
      path: { id: PROJECT, file_path: 'src/index.js' },
      body: { branch: 'main', commit_message: 'Answer 43', content: 'export const answer = 43;\n' },
    });
    const tagged = await dev.repository.getFile({
      path: { id: PROJECT, file_path: 'README.md' },
      query: { ref: 'v1.0.0' },
    });
    const byTag = unpack(
      Buffer.from(
        await (
          await dev.repository.downloadArchiveInFormat({
            path: { id: PROJECT, format: 'zip' },
            query: { sha: 'v1.0.0' },
          })
        ).arrayBuffer(),
      ),
      'zip',
    );
    const tagRoot = `my-project-v1.0.0-${tagged.commit_id}`;
    expect(readFileSync(join(byTag.folder, tagRoot, 'README.md'))).toEqual(Buffer.from(tagged.content, 'base64'));
    expect(readFileSync(join(byTag.folder, tagRoot, 'src/index.js'), 'utf8')).toBe('export const answer = 42;\n');

    const head = await dev.repository.getFile({
      path: { id: PROJECT, file_path: 'src/index.js' },
      query: { ref: 'main' },
    });
    const byBranch = unpack(
      Buffer.from(
        await (await dev.repository.downloadArchive({ path: { id: PROJECT }, query: { sha: 'main' } })).arrayBuffer(),
      ),
      'tar.gz',
    );
    expect(readFileSync(join(byBranch.folder, `my-project-main-${head.commit_id}`, 'src/index.js'), 'utf8')).toBe(
      'export const answer = 43;\n',
    );

    // A commit id is the ref: it is not repeated in the folder name.
    const byCommit = await dev.repository.downloadArchiveInFormat.withResponse({
      path: { id: PROJECT, format: 'tar' },
      query: { sha: main.commit_id, path: 'src' },
    });
    expect(byCommit.rawHeaders.get('content-disposition')).toBe(
      `attachment; filename="my-project-${main.commit_id}-src.tar"`,
    );
    const sub = unpack(Buffer.from(await byCommit.data.arrayBuffer()), 'tar');
    const subRoot = `my-project-${main.commit_id}-src`;
    expect(sub.entries).toEqual([`${subRoot}/`, `${subRoot}/src/`, `${subRoot}/src/index.js`]);
    expect(readFileSync(join(sub.folder, subRoot, 'src/index.js'), 'utf8')).toBe('export const answer = 42;\n');
  });

  it('answers 404 for an unknown ref or path and for a repository the caller cannot read', async () => {
    expect(
      await status(as().repository.downloadArchive({ path: { id: PROJECT }, query: { sha: 'no-such-branch' } })),
    ).toBe(404);
    expect(
      await status(
        as().repository.downloadArchiveInFormat({
          path: { id: PROJECT, format: 'zip' },
          query: { path: 'no/such/folder' },
        }),
      ),
    ).toBe(404);
    expect(await status(as().repository.downloadArchive({ path: { id: 'my-group/secret' } }))).toBe(404);
    expect(
      await status(
        as('outsider-token').repository.downloadArchiveInFormat({ path: { id: 'my-group/secret', format: 'tar.bz2' } }),
      ),
    ).toBe(404);
    expect(await status(as('not-a-token').repository.downloadArchive({ path: { id: PROJECT } }))).toBe(401);
    const secret = unpack(
      Buffer.from(
        await (
          await as('developer-token').repository.downloadArchiveInFormat({
            path: { id: 'my-group/secret', format: 'tbz2' },
          })
        ).arrayBuffer(),
      ),
      'tbz2',
    );
    expect(secret.entries.filter((e) => e.endsWith('README.md'))).toHaveLength(1);
  });
});

describe('a large archive', () => {
  // About 7 MB of text that compresses poorly: bzip2 takes a second or more on it.
  const big = Array.from(
    { length: 100_000 },
    (_, i) => `${i} ${createHash('sha256').update(String(i)).digest('hex')}\n`,
  ).join('');
  const data = defaultData();
  data.projects[0]!.files = { ...data.projects[0]!.files, 'big.txt': big };
  const { send } = useFake({ data, reset: false });

  it('is built in a worker: a GET sent while it holds one is answered, and the archive is whole', async () => {
    // The order to build is held back until the GET is answered: the archive holds its worker all that time (a state
    // the pool reports), whatever the machine's load; then it is built and read whole.
    const post = Worker.prototype.postMessage;
    const held: [Worker, unknown, Parameters<Worker['postMessage']>[1]][] = [];
    const posted = vi.spyOn(Worker.prototype, 'postMessage');
    const holding = new Promise<void>((resolve) => {
      posted.mockImplementation(function (
        this: Worker,
        message: unknown,
        transfer?: Parameters<Worker['postMessage']>[1],
      ) {
        // From the order to build on, every message to the worker waits (in order) for the release.
        if (held.length > 0 || (typeof message === 'object' && message !== null && 'build' in message)) {
          held.push([this, message, transfer]);
          resolve();
        } else post.call(this, message, transfer);
      });
    });
    const release = () => {
      posted.mockRestore();
      for (const [worker, message, transfer] of held) post.call(worker, message, transfer);
    };
    try {
      const archive = send(`/projects/${encodeURIComponent(PROJECT)}/repository/archive.tar.bz2`);
      await holding;
      expect(archiveLoad().building).toBe(1);
      const get = await send(`/projects/${encodeURIComponent(PROJECT)}/repository/files/README.md?ref=main`);
      expect(get.status).toBe(200);
      expect(archiveLoad().building).toBe(1);
      release();
      const { entries, folder } = unpack(Buffer.from(await (await archive).arrayBuffer()), 'tar.bz2');
      expect(readFileSync(join(folder, entries[0]!, 'big.txt'), 'utf8')).toBe(big);
    } finally {
      posted.mockRestore();
    }
  });
});

describe('a zip of many files', () => {
  const FILES = 3000;
  const data = defaultData();
  data.projects[0]!.files = {
    ...data.projects[0]!.files,
    ...Object.fromEntries(
      Array.from({ length: FILES }, (_, i) => [`many/dir-${i % 30}/file-${i}.txt`, `file ${i}\n`.repeat(4)]),
    ),
  };
  const { send } = useFake({ data, reset: false });
  const many = `/projects/${encodeURIComponent(PROJECT)}/repository/archive.zip`;

  it('compresses one file at a time, never a job per file at once', async () => {
    const Original = zlib.DeflateRaw;
    let alive = 0;
    let most = 0;
    let buffers = 0;
    const deflateRaw = zlib.deflateRaw;
    // Counts the zlib streams alive together while the zip is built in this thread.
    zlib.DeflateRaw = class extends Original {
      constructor(options?: zlib.ZlibOptions) {
        super(options);
        most = Math.max(most, ++alive);
        this.once('end', () => alive--);
      }
    } as typeof zlib.DeflateRaw;
    zlib.deflateRaw = ((...args: Parameters<typeof deflateRaw>) => {
      buffers++;
      return deflateRaw(...args);
    }) as typeof deflateRaw;
    try {
      const entries = Array.from({ length: 2000 }, (_, i) => ({
        name: `root/file-${i}.txt`,
        content: Buffer.from(`file ${i}\n`).toString('base64'),
      }));
      const bytes = await buildArchive({ format: 'zip', entries, mtime: 0 });
      expect(bytes.length).toBeGreaterThan(2000 * 30);
      expect(buffers).toBe(0);
      expect(most).toBe(1);
    } finally {
      zlib.DeflateRaw = Original;
      zlib.deflateRaw = deflateRaw;
    }
  });

  it('lists the tree in steps, other work running between them', async () => {
    const download = archiveHandlers(new Store(data))['repository/download-archive-in-format']!;
    let turns = 0;
    let counting = true;
    const count = () => {
      if (!counting) return;
      turns++;
      setImmediate(count);
    };
    setImmediate(count);
    const reply = { header: () => reply, type: () => reply };
    const result = (await download(
      { params: { id: PROJECT, format: 'zip' }, query: {} } as never,
      {
        reply,
      } as never,
    )) as { status: number; body: ReadableStream<Uint8Array> };
    counting = false;
    expect(result.status).toBe(200);
    await result.body.cancel();
    // A turn of the event loop went to other work after each step of the listing.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(FILES / LISTED_PER_TURN));
  });

  const HELD_FILES = 24;
  /**
   * An archive of random (incompressible) files, many pieces long: nobody reading it, its build holds a worker.
   * Archives asked for over HTTP cannot do that here, as loopback sockets and the client take in a small one whole.
   */
  const held = () =>
    streamInWorker({
      format: 'zip',
      mtime: 0,
      entries: Array.from({ length: HELD_FILES }, (_, i) => ({
        name: `held/file-${i}.bin`,
        content: randomBytes(48 * 1024).toString('base64'),
      })),
    });
  /** Waits for a state other threads and sockets bring about: generous, as the machine may be busy. */
  const eventually = (assertion: () => void) => vi.waitFor(assertion, { timeout: 20_000 });
  const drained = async (stream: ReadableStream<Uint8Array>) => Buffer.from(await new Response(stream).arrayBuffer());

  it('a reader that goes away while its files are copied to the worker: the rest is not copied', async () => {
    const posted = vi.spyOn(Worker.prototype, 'postMessage');
    const stream = held();
    // The reader goes away as the first part of the files is posted.
    posted.mockImplementationOnce(() => void stream.cancel());
    // Posting the held archive's files takes about a dozen turns of the event loop; more than that pass.
    for (let turn = 0; turn < 40; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(posted).toHaveBeenCalledTimes(1);
    posted.mockRestore();
    expect(archiveLoad()).toEqual({ building: 0, waiting: 0 });
  });

  it('a reader that goes away stops its build, also one still waiting for a worker', async () => {
    const posted = vi.spyOn(Worker.prototype, 'postMessage');
    const builds = () => posted.mock.calls.filter(([message]) => 'build' in (message as object)).length;
    const building = [held(), held()];
    await eventually(() => expect(builds()).toBe(MAX_BUILDING));
    expect(archiveLoad()).toEqual({ building: MAX_BUILDING, waiting: 0 });
    const aborts = [new AbortController(), new AbortController()];
    const answered = aborts.map((abort) => send(many, { signal: abort.signal }).catch(() => undefined));
    // Both list their trees in steps, then wait for a worker.
    await eventually(() => expect(archiveLoad()).toEqual({ building: MAX_BUILDING, waiting: 2 }));
    // Their clients go away: they leave the queue at once.
    for (const abort of aborts) abort.abort();
    await Promise.all(answered);
    await eventually(() => expect(archiveLoad()).toEqual({ building: MAX_BUILDING, waiting: 0 }));
    // The readers of the two being built go away: the builds stop, and the workers are free.
    for (const stream of building) await stream.cancel();
    expect(archiveLoad()).toEqual({ building: 0, waiting: 0 });
    // Neither of the two that waited was ever built.
    expect(builds()).toBe(MAX_BUILDING);
    posted.mockRestore();
    // The pool serves the next archive whole.
    const next = await send(many);
    const { entries } = unpack(Buffer.from(await next.arrayBuffer()), 'zip');
    expect(entries.filter((e) => e.endsWith('.txt'))).toHaveLength(FILES);
  });

  it('streams while other requests are answered, at most two built at once, each whole', async () => {
    // Two archives, unread: each is built only as far as its reader asks, and holds its worker meanwhile.
    const building = [held(), held()];
    const reader = building[0]!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    // Two more asked for over HTTP wait for a worker.
    const asked = [send(many), send(many)];
    await eventually(() => expect(archiveLoad()).toEqual({ building: MAX_BUILDING, waiting: 2 }));
    // Another request is answered while every archive is still unread.
    const get = await send(`/projects/${encodeURIComponent(PROJECT)}/repository/files/README.md?ref=main`);
    expect(get.status).toBe(200);
    expect(archiveLoad()).toEqual({ building: MAX_BUILDING, waiting: 2 });
    // Read to the end, each archive is whole; the waiting ones are built once a worker is free.
    const pieces = [first.value!];
    for (let next = await reader.read(); !next.done; next = await reader.read()) pieces.push(next.value);
    for (const bytes of [Buffer.concat(pieces), await drained(building[1]!)]) {
      const { entries } = unpack(bytes, 'zip');
      expect(entries.filter((e) => e.endsWith('.bin'))).toHaveLength(HELD_FILES);
    }
    const [one, two] = await Promise.all(
      asked.map(async (answer) => {
        const response = await answer;
        expect(response.status).toBe(200);
        return drained(response.body!);
      }),
    );
    expect(one!.equals(two!)).toBe(true);
    expect(unpack(one!, 'zip').entries.filter((e) => e.endsWith('.txt'))).toHaveLength(FILES);
    expect(archiveLoad()).toEqual({ building: 0, waiting: 0 });
  });
});
