/** The bench's side of the load generator: one autocannon process, reused for every run. */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../lib/paths.ts';
import type { LoadJob, LoadResult } from './load-worker.ts';

let worker: ChildProcess | undefined;
let ready: Promise<void> | undefined;

function start(): Promise<void> {
  worker = fork(join(ROOT, 'scripts', 'bench', 'lib', 'load-worker.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve) => worker!.once('message', () => resolve()));
}

export async function load(job: LoadJob): Promise<LoadResult> {
  ready ??= start();
  await ready;
  return new Promise((resolve, reject) => {
    worker!.once('message', (message: LoadResult & { error?: string }) =>
      message.error ? reject(new Error(message.error)) : resolve(message),
    );
    worker!.send(job);
  });
}

export function stopLoad(): void {
  worker?.kill();
  worker = undefined;
  ready = undefined;
}
