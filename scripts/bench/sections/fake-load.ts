/**
 * The stateful fake under a test suite's load: memory after many file writes in one project (each write a commit whose
 * tree shares what it did not change), and how long other requests wait while a large archive is built.
 */
import { TOKEN } from '../lib/fixtures.ts';
import { rssMiB, startServer, tsServer } from '../lib/processes.ts';
import { goal, heading } from '../lib/report.ts';

export const name = 'fake-load';

const WRITES = 20_000;
const ARCHIVE_MB = 48;
const headers = { 'PRIVATE-TOKEN': TOKEN, 'content-type': 'application/json' };

async function writes(): Promise<void> {
  const server = await startServer('fake', tsServer('fake-load.ts'));
  try {
    const start = rssMiB(server.process.pid!);
    let next = 0;
    let failed = 0;
    const began = performance.now();
    const worker = async () => {
      for (let i = next++; i < WRITES; i = next++) {
        const path = encodeURIComponent(`src/module-${i % 100}/file-${i}.txt`);
        const body = JSON.stringify({
          branch: 'main',
          commit_message: `Add file ${i}`,
          content: `file ${i}\n`.repeat(8),
        });
        const response = await fetch(`${server.api}/projects/42/repository/files/${path}`, {
          method: 'POST',
          headers,
          body,
        });
        await response.arrayBuffer();
        if (response.status !== 201) failed++;
        if ((i + 1) % 5000 === 0)
          console.log(
            `${i + 1} writes: RSS ${rssMiB(server.process.pid!).toFixed(0)} MiB, ${((performance.now() - began) / 1000).toFixed(1)} s`,
          );
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    const end = rssMiB(server.process.pid!);
    console.log(
      `RSS ${start.toFixed(0)} MiB at start, ${end.toFixed(0)} MiB after ${WRITES} file writes in one project (${failed} not 201)`,
    );
    goal(
      name,
      `${WRITES} file writes in one project, RSS < 500 MB`,
      `${((end * 1024 * 1024) / 1e6).toFixed(0)} MB`,
      end * 1024 * 1024 < 500e6 && failed === 0,
    );
  } finally {
    await server.stop();
  }
}

async function archive(): Promise<void> {
  const server = await startServer('fake', { ...tsServer('fake-load.ts') }, 120_000);
  try {
    const began = performance.now();
    let built = false;
    const archiveDone = fetch(`${server.api}/projects/42/repository/archive.tar.bz2`, { headers }).then(
      async (response) => {
        const size = (await response.arrayBuffer()).byteLength;
        built = true;
        return { status: response.status, size, ms: performance.now() - began };
      },
    );
    const waits: number[] = [];
    while (!built) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const sent = performance.now();
      const response = await fetch(`${server.api}/projects/42/repository/files/README.md?ref=main`, { headers });
      await response.arrayBuffer();
      if (!built) waits.push(performance.now() - sent);
    }
    const result = await archiveDone;
    const worst = Math.max(...waits);
    console.log(
      `archive.tar.bz2 of ${ARCHIVE_MB} MB: ${result.status}, ${(result.size / 1e6).toFixed(1)} MB in ${(result.ms / 1000).toFixed(1)} s; ${waits.length} GETs meanwhile, slowest ${worst.toFixed(0)} ms`,
    );
    goal(
      name,
      `a GET answers in < 100 ms while a ${ARCHIVE_MB} MB archive.tar.bz2 is built`,
      `${worst.toFixed(0)} ms`,
      result.status === 200 && waits.length > 0 && worst < 100,
    );
  } finally {
    await server.stop();
  }
}

export async function run(): Promise<void> {
  heading(
    'Stateful fake under load: memory after many writes, other requests during a large archive',
    `${WRITES} file creations (4 at a time) in one project of the fake (scripts/bench/servers/fake-load.ts), the fake's RSS read from /proc;\n` +
      `then a fake whose project holds ${ARCHIVE_MB} files of 1 MB of hex text builds archive.tar.bz2 while a GET of one file is sent every 20 ms.`,
  );
  await writes();
  process.env.FAKE_LOAD_ARCHIVE_MB = String(ARCHIVE_MB);
  try {
    await archive();
  } finally {
    delete process.env.FAKE_LOAD_ARCHIVE_MB;
  }
}
