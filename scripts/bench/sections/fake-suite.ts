/**
 * What a long test suite leaves behind in the stateful fake: 5,000 merge requests created, updated and merged and
 * 20,000 file writes in one project, then every record read back and every list paged through (test/support/long-suite.ts);
 * then a zip of the branch those writes made (over 20,000 files) while a GET is sent every 20 ms.
 */
import { runLongSuite } from '../../../test/support/long-suite.ts';
import { TOKEN } from '../lib/fixtures.ts';
import { rssMiB, startServer, tsServer } from '../lib/processes.ts';
import { goal, heading } from '../lib/report.ts';

export const name = 'fake-suite';

const MERGE_REQUESTS = 5000;
const FILE_WRITES = 20_000;
const LIMIT_MB = 500;
const headers = { 'PRIVATE-TOKEN': TOKEN };
const mb = (mib: number) => (mib * 1024 * 1024) / 1e6;

export async function run(): Promise<void> {
  heading(
    'Stateful fake after a long suite: every write readable, every list whole, memory bounded',
    `${MERGE_REQUESTS} merge requests created, updated and merged (each from a branch a file write starts) and ${FILE_WRITES} file writes in all, 4 requests at a time, in project 42 of the fake (scripts/bench/servers/fake-load.ts); then each file read back, the project, merged and global merge request lists paged through (100 a page) against x-total; the fake's RSS read from /proc.\n` +
      "Then archive.zip of the default branch (over 20,000 files) while a GET of one file is sent every 20 ms: the fake's highest RSS (sampled every 20 ms) and the slowest GET.",
  );
  const server = await startServer('fake', tsServer('fake-load.ts'), 120_000);
  try {
    const pid = server.process.pid!;
    const start = rssMiB(pid);
    const began = performance.now();
    const result = await runLongSuite({
      api: server.api,
      token: TOKEN,
      project: 42,
      mergeRequests: MERGE_REQUESTS,
      fileWrites: FILE_WRITES,
      progress: (phase) =>
        console.log(
          `${phase}: RSS ${rssMiB(pid).toFixed(0)} MiB, ${((performance.now() - began) / 1000).toFixed(0)} s`,
        ),
    });
    const end = rssMiB(pid);
    for (const line of result.disagreements) console.log(`✖ ${line}`);
    console.log(
      `RSS ${start.toFixed(0)} MiB at start, ${end.toFixed(0)} MiB after the suite; ${result.recordsRead} records read, ${result.listsPaged} lists paged, ${result.disagreementCount} disagreement(s)`,
    );
    goal(
      name,
      `after ${MERGE_REQUESTS} merge requests and ${FILE_WRITES} file writes, every record reads back as written`,
      `${result.disagreementCount} disagreement(s) in ${result.recordsRead} reads`,
      result.disagreementCount === 0,
    );
    goal(
      name,
      'every merge request list pages through its x-total',
      `${result.listsPaged} lists`,
      result.disagreementCount === 0 && result.listsPaged === 3,
    );
    goal(name, `RSS after the suite < ${LIMIT_MB} MB`, `${mb(end).toFixed(0)} MB`, mb(end) < LIMIT_MB);

    await archiveWhileReading(server.api, pid);
  } finally {
    await server.stop();
  }
}

/** A zip of the branch the suite wrote, with a GET of one file every 20 ms meanwhile: the highest RSS and slowest GET. */
async function archiveWhileReading(api: string, pid: number): Promise<void> {
  let highest = rssMiB(pid);
  let done = false;
  const sampler = setInterval(() => {
    highest = Math.max(highest, rssMiB(pid));
  }, 20);
  const zipBegan = performance.now();
  const zip = fetch(`${api}/projects/42/repository/archive.zip`, { headers }).then(async (response) => {
    const size = (await response.arrayBuffer()).byteLength;
    done = true;
    return { status: response.status, size, ms: performance.now() - zipBegan };
  });
  const waits: number[] = [];
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const sent = performance.now();
    const response = await fetch(`${api}/projects/42/repository/files/README.md?ref=main`, { headers });
    await response.arrayBuffer();
    if (!done) waits.push(performance.now() - sent);
  }
  const archive = await zip;
  clearInterval(sampler);
  const worst = waits.length ? Math.max(...waits) : Number.NaN;
  console.log(
    `archive.zip: ${archive.status}, ${(archive.size / 1e6).toFixed(1)} MB in ${(archive.ms / 1000).toFixed(1)} s; RSS at most ${highest.toFixed(0)} MiB; ${waits.length} GETs meanwhile, slowest ${worst.toFixed(0)} ms`,
  );
  goal(
    name,
    `archive.zip of a branch of over ${FILE_WRITES} files: RSS < ${LIMIT_MB} MB while it streams`,
    `${mb(highest).toFixed(0)} MB`,
    archive.status === 200 && mb(highest) < LIMIT_MB,
  );
  goal(
    name,
    'a GET answers in < 100 ms while that archive.zip streams',
    `${worst.toFixed(0)} ms`,
    archive.status === 200 && waits.length > 0 && worst < 100,
  );
}
