/**
 * The worker thread of the archive pool (archive/pool.ts): gathers the entries it is sent, then streams the archive
 * back in pieces, one piece per credit (`{ more: true }`) the pool gives as its reader asks for more, so that a slow
 * reader holds the build instead of the memory.
 */
import { parentPort } from 'node:worker_threads';
import { streamArchive, type ArchiveEntry } from './build.ts';
import type { WorkerAnswer, WorkerMessage } from './pool.ts';

let entries: ArchiveEntry[] = [];
let credits = 0;
let waiting: (() => void) | undefined;

const answer = (message: WorkerAnswer, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);

parentPort!.on('message', (message: WorkerMessage) => {
  if ('more' in message) {
    credits++;
    waiting?.();
    waiting = undefined;
    return;
  }
  if ('entries' in message) {
    for (const entry of message.entries) entries.push(entry);
    return;
  }
  const job = { ...message.build, entries };
  entries = [];
  credits = 0;
  void build(job).catch((error: unknown) => answer({ error: String(error) }));
});

async function build(job: Parameters<typeof streamArchive>[0]): Promise<void> {
  for await (const piece of streamArchive(job)) {
    while (credits === 0) await new Promise<void>((resolve) => (waiting = resolve));
    credits--;
    // A copy of its own: a small Buffer may sit in Node's shared pool, which must not be transferred.
    const own = new Uint8Array(piece);
    answer({ piece: own }, [own.buffer]);
  }
  answer({ done: true });
}
