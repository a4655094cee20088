/**
 * Proof that the generated packages work for another team: `npm pack` each, install the tarballs into a fresh
 * project outside the repository, type-check a consumer that uses all four without a cast, then run it against the
 * mock. The types are installed once, in @service-api/types.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
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

it('packs, installs, type-checks and runs a consumer of the types, client, server and validators packages', async () => {
  work = await mkdtemp(join(tmpdir(), 'service-api-consumer-'));
  const tarballs = join(work, 'tarballs');
  const project = join(work, 'project');
  await mkdir(tarballs);
  await mkdir(project);
  // One npm process packs the four folders (an npm start costs about half a second of CPU).
  await sh('npm', ['pack', ...['types', 'client', 'server', 'validators'].map((name) => join(ROOT, 'generated', name)), '--pack-destination', tarballs, '--silent'], ROOT);
  const files = (await readdir(tarballs)).sort();
  expect(files).toEqual(['client', 'server', 'types', 'validators'].map((name) => expect.stringMatching(new RegExp(`^service-api-${name}-.*\\.tgz$`))));

  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
  // Every declaration file is checked (the packages' and their dependencies'), except TypeScript's own lib.*.d.ts.
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, lib: ['ES2022', 'DOM'], types: ['node'], outDir: 'out', skipLibCheck: false, skipDefaultLibCheck: true }, files: ['consumer.ts'] }, null, 2),
  );
  await writeFile(join(project, 'consumer.ts'), consumerSource.replace('__MOCK__', api()));
  // @types/node for Fastify's declarations; the same exact version the repository uses, so the npm cache serves it.
  await sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...files.map((f) => join(tarballs, f)), '@types/node@20.19.43'], project);

  // One copy of the types: the three packages re-export @service-api/types instead of shipping their own.
  const modules = join(project, 'node_modules', '@service-api');
  expect((await stat(join(modules, 'types', 'dist', 'schema.d.ts'))).size).toBeGreaterThan(100_000);
  for (const name of ['client', 'server', 'validators']) expect((await stat(join(modules, name, 'dist', 'types.d.ts'))).size, name).toBeLessThan(1_000);
  expect(await readdir(modules)).toEqual(['client', 'server', 'types', 'validators']);

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
    conflict: expect.any(String),
    created: expect.stringMatching(/^!\d+ opened /),
    fullIid: expect.any(Number),
    page: [200, 1, '1', true],
    wrongScheme: 401,
  });
  expect(report.simpleCount).toBeGreaterThan(0);
  expect(report.extraCount).toBeGreaterThan(0);
  expect(report.projectsArchived.every((archived: unknown) => typeof archived === 'boolean')).toBe(true);
  // The realistic new merge request: served through validateResponses, so the server accepted it as the contract says.
  expect(report.fresh.slice(0, 3)).toEqual(['!1 opened Fix it', 0, null]);
  expect(report.fresh[3]).toBe(true);
  expect(report.served[0]).toBe('alice:a/b');
}, 300_000); // about 15 s of CPU (npm pack and install, tsc): generous for a machine shared with the other steps of npm test
