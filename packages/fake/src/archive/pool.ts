/**
 * Archives are built in worker threads, never on the event loop: a large bzip2 archive takes seconds of CPU, and every
 * other request goes on meanwhile. At most `MAX_BUILDING` archives are built at once (more wait their turn), each
 * streamed to its reader piece by piece as it asks for more, so memory stays bounded whatever the size of the
 * repository or the pace of the reader. Idle workers are kept for the next archive (a few at most) and do not keep the
 * process alive.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ArchiveEntry, ArchiveJob } from './build.ts';

/** What the pool posts to a worker: the entries in parts, then the order to build, then a credit per piece wanted. */
export type WorkerMessage = { entries: ArchiveEntry[] } | { build: Omit<ArchiveJob, 'entries'> } | { more: true };
/** What a worker answers: a piece of the archive (one per credit), the end, or why it failed. */
export type WorkerAnswer = { piece: Uint8Array } | { done: true } | { error: string };

/** Entries are posted in parts of about this many characters: copying each part to the worker holds the event loop briefly. */
const PART = 1 << 17;

/** Archives built at once; further requests wait for a worker. */
export const MAX_BUILDING = 2;
const MAX_IDLE = 2;
/** A worker that built a larger archive is stopped rather than kept: its WebAssembly memory never shrinks. */
const KEEP_BELOW = 8 * 1024 * 1024;
const idle: Worker[] = [];
let building = 0;
const queue: (() => void)[] = [];

/** How many archives are being built, and how many wait for a worker. */
export function archiveLoad(): { building: number; waiting: number } {
  return { building, waiting: queue.length };
}

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

/**
 * A worker as soon as fewer than `MAX_BUILDING` are building; meanwhile `onWait` is given a way to leave the queue (a
 * reader that goes away), after which the promise gives no worker.
 */
function acquire(onWait: (leave: () => void) => void): Promise<Worker | undefined> {
  if (building < MAX_BUILDING) return Promise.resolve(take());
  return new Promise((resolve) => {
    const turn = () => resolve(take());
    queue.push(turn);
    onWait(() => {
      const place = queue.indexOf(turn);
      if (place < 0) return;
      queue.splice(place, 1);
      resolve(undefined);
    });
  });
}

/** Counts the worker as building at once, also when a waiting request is given it: no later request passes those waiting. */
function take(): Worker {
  building++;
  const worker = idle.pop() ?? startWorker();
  worker.ref();
  return worker;
}

function release(worker: Worker, keep: boolean): void {
  building--;
  queue.shift()?.();
  worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit');
  worker.unref();
  if (keep && idle.length < MAX_IDLE) idle.push(worker);
  else void worker.terminate();
}

/** The archive, streamed from a worker thread as the reader reads it. */
export function streamInWorker(job: ArchiveJob): ReadableStream<Uint8Array> {
  let worker: Worker | undefined;
  let finished = false;
  let size = 0;
  let arrived: (() => void) | undefined;
  let leaveQueue: (() => void) | undefined;
  const finish = (keep: boolean) => {
    if (finished) return;
    finished = true;
    if (worker) release(worker, keep);
    arrived?.();
  };
  return new ReadableStream<Uint8Array>(
    {
      start: async (controller) => {
        const acquired = await acquire((leave) => (leaveQueue = leave));
        leaveQueue = undefined;
        // The reader went away while the archive waited for a worker: nothing to build.
        if (!acquired) return;
        if (finished) return release(acquired, true);
        worker = acquired;
        worker.on('message', (answer: WorkerAnswer) => {
          if ('piece' in answer) {
            size += answer.piece.length;
            controller.enqueue(answer.piece);
          } else if ('done' in answer) {
            controller.close();
            finish(size < KEEP_BELOW);
          } else {
            controller.error(new Error(answer.error));
            finish(false);
          }
          arrived?.();
          arrived = undefined;
        });
        worker.on('error', (error: Error) => {
          controller.error(error);
          finish(false);
        });
        worker.on('exit', (code: number) => {
          controller.error(new Error(`the archive worker stopped (exit code ${code})`));
          finish(false);
        });
        await post(worker, job, () => finished);
      },
      // One credit per piece the reader wants; the next pull waits for that piece.
      pull: () => {
        if (finished || !worker) return;
        worker.postMessage({ more: true } satisfies WorkerMessage);
        return new Promise<void>((resolve) => (arrived = resolve));
      },
      // The reader went away (the client closed the connection): the build stops.
      cancel: () => {
        leaveQueue?.();
        finish(false);
      },
    },
    { highWaterMark: 4 },
  );
}

/**
 * Posts the job in parts, letting other requests in between (copying a large repository at once would hold them up),
 * until the reader goes away.
 */
async function post(worker: Worker, { entries, ...build }: ArchiveJob, gone: () => boolean): Promise<void> {
  let part: ArchiveEntry[] = [];
  let size = 0;
  for (const entry of entries) {
    part.push(entry);
    size += entry.name.length + (entry.content?.length ?? 0);
    if (size < PART) continue;
    worker.postMessage({ entries: part } satisfies WorkerMessage);
    [part, size] = [[], 0];
    await new Promise((resolve) => setImmediate(resolve));
    if (gone()) return;
  }
  worker.postMessage({ entries: part } satisfies WorkerMessage);
  worker.postMessage({ build } satisfies WorkerMessage);
}
