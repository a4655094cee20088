/**
 * Proof that the generated packages work for another team: `npm pack` each, install the tarballs into a fresh
 * project outside the repository, type-check a consumer that uses all three, then run it against the mock.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.ts';
import { consumerSource } from './support/consumer.ts';
import { useMock } from './support/mock.ts';

const run = promisify(execFile);
const api = useMock();
let work = '';

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function sh(command: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, npm_config_loglevel: 'error' } });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}${e.stderr ?? e.message}`);
  }
}

it('packs, installs, type-checks and runs a consumer of the client, server and validators packages', async () => {
  work = await mkdtemp(join(tmpdir(), 'service-api-consumer-'));
  const tarballs = join(work, 'tarballs');
  const project = join(work, 'project');
  await mkdir(tarballs);
  await mkdir(project);
  for (const name of ['client', 'server', 'validators']) await sh('npm', ['pack', join(ROOT, 'generated', name), '--pack-destination', tarballs, '--silent'], ROOT);
  const files = (await readdir(tarballs)).sort();
  expect(files).toEqual([expect.stringMatching(/^service-api-client-.*\.tgz$/), expect.stringMatching(/^service-api-server-.*\.tgz$/), expect.stringMatching(/^service-api-validators-.*\.tgz$/)]);

  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, lib: ['ES2022', 'DOM'], types: ['node'], outDir: 'out', skipLibCheck: false }, files: ['consumer.ts'] }, null, 2),
  );
  await writeFile(join(project, 'consumer.ts'), consumerSource.replace('__MOCK__', api()));
  // @types/node for Fastify's declarations; the same exact version the repository uses, so the npm cache serves it.
  await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...files.map((f) => join(tarballs, f)), '@types/node@20.19.43'], project);

  await sh(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], project);
  const output = await sh(process.execPath, [join(project, 'out', 'consumer.js')], project);
  const report = JSON.parse(output.trim().split('\n').pop()!);
  expect(report).toMatchObject({
    firstJobStatus: 'failed',
    jobsValid: true,
    isJob: true,
    anonymous: [401, '401 Unauthorized'],
    tokenJobId: 12,
    badRequest: ['query parameter per_page must be <= 100'],
    notImplemented: 501,
    wrongScheme: 401,
  });
  expect(report.served[0]).toBe('alice:a/b');
}, 180_000);
