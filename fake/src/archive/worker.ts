/** The worker thread of the archive pool (archive/pool.ts): builds each archive it is sent and answers its bytes. */
import { parentPort } from 'node:worker_threads';
import { buildArchive, type ArchiveJob } from './build.ts';

parentPort!.on('message', (job: ArchiveJob) => {
  buildArchive(job).then(
    (bytes) => {
      // A copy of its own: a small Buffer may sit in Node's shared pool, which must not be transferred.
      const own = new Uint8Array(bytes);
      parentPort!.postMessage({ bytes: own }, [own.buffer]);
    },
    (error: unknown) => parentPort!.postMessage({ error: String(error) }),
  );
});
