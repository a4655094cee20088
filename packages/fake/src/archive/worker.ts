/** The worker thread of the archive pool (archive/pool.ts): gathers the entries it is sent, builds, answers the bytes. */
import { parentPort } from 'node:worker_threads';
import { buildArchive, type ArchiveEntry } from './build.ts';
import type { WorkerMessage } from './pool.ts';

let entries: ArchiveEntry[] = [];
parentPort!.on('message', (message: WorkerMessage) => {
  if ('entries' in message) {
    for (const entry of message.entries) entries.push(entry);
    return;
  }
  const job = { ...message.build, entries };
  entries = [];
  buildArchive(job).then(
    (bytes) => {
      // A copy of its own: a small Buffer may sit in Node's shared pool, which must not be transferred.
      const own = new Uint8Array(bytes);
      parentPort!.postMessage({ bytes: own }, [own.buffer]);
    },
    (error: unknown) => parentPort!.postMessage({ error: String(error) }),
  );
});
