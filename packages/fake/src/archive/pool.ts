/**
 * Archives are built in worker threads, never on the event loop: a large bzip2 archive takes seconds of CPU, and every
 * other request goes on meanwhile. Idle workers are kept for the next archive (a few at most) and do not keep the
 * process alive.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ArchiveEntry, ArchiveJob } from './build.ts';

/** What the pool posts to a worker: the entries in parts, then the order to build. */
export type WorkerMessage = { entries: ArchiveEntry[] } | { build: Omit<ArchiveJob, 'entries'> };

/** Entries are posted in parts of about this many characters: copying each part to the worker holds the event loop briefly. */
const PART = 1 << 20;

const MAX_IDLE = 2;
/** A worker that answered a larger archive is stopped rather than kept: its WebAssembly memory never shrinks. */
const KEEP_BELOW = 8 * 1024 * 1024;
const idle: Worker[] = [];

/** The worker's module: compiled JavaScript in the package; from the repository's TypeScript sources through tsx. */
function startWorker(): Worker {
  const self = fileURLToPath(import.meta.url);
  if (self.endsWith('.js')) return new Worker(new URL('./worker.js', import.meta.url));
  // Node does not load TypeScript in a worker by itself: tsx (a development dependency of the repository) compiles it.
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const worker = fileURLToPath(new URL('./worker.ts', import.meta.url));
  return new Worker(`require(${JSON.stringify(tsx)}).require(${JSON.stringify(worker)}, ${JSON.stringify(worker)})`, {
    eval: true,
  });
}

/** The archive's bytes, built in a worker thread. */
export function buildInWorker(job: ArchiveJob): Promise<Uint8Array> {
  const worker = idle.pop() ?? startWorker();
  worker.ref();
  return new Promise((resolve, reject) => {
    const settle = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (answer: { bytes?: Uint8Array; error?: string }) => {
      settle();
      worker.unref();
      if (idle.length < MAX_IDLE && (answer.bytes?.length ?? 0) < KEEP_BELOW) idle.push(worker);
      else void worker.terminate();
      if (answer.bytes) resolve(answer.bytes);
      else reject(new Error(answer.error ?? 'the archive worker answered nothing'));
    };
    const onError = (error: Error) => {
      settle();
      void worker.terminate();
      reject(error);
    };
    const onExit = (code: number) => {
      settle();
      reject(new Error(`the archive worker stopped (exit code ${code})`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    void post(worker, job);
  });
}

/** Posts the job in parts, letting other requests in between (copying a large repository at once would hold them up). */
async function post(worker: Worker, { entries, ...build }: ArchiveJob): Promise<void> {
  let part: ArchiveEntry[] = [];
  let size = 0;
  for (const entry of entries) {
    part.push(entry);
    size += entry.name.length + (entry.content?.length ?? 0);
    if (size < PART) continue;
    worker.postMessage({ entries: part } satisfies WorkerMessage);
    [part, size] = [[], 0];
    await new Promise((resolve) => setImmediate(resolve));
  }
  worker.postMessage({ entries: part } satisfies WorkerMessage);
  worker.postMessage({ build } satisfies WorkerMessage);
}
