/**
 * Proof that the generated packages work for another team: `npm pack` each, install the tarballs into a fresh
 * project outside the repository, type-check a consumer that uses all four without a cast, then run it against the
 * mock. The types are installed once, in @service-api/types. The fake, the mock and the proxy (`npm pack ./fake`,
 * `./mock` and `./proxy` compile their dist/) are installed beside them: the consumer embeds them with `startFake`,
 * `startMock` and `startProxy`, their commands run with `npx service-api-fake`, `npx service-api-mock` (the
 * consumer's client calls go to it) and `npx service-api-proxy` (in front of that mock).
 */
import { execFile, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.ts';
import { consumerSource } from './support/consumer.ts';

const run = promisify(execFile);
let work = '';

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function sh(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await run(command, args, {
      cwd,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, npm_config_loglevel: 'error', ...env },
    });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}${e.stderr ?? e.message}`);
  }
}

it('packs, installs, type-checks and runs a consumer of the types, client, server, validators, fake, mock and proxy packages', async () => {
  work = await mkdtemp(join(tmpdir(), 'service-api-tarballs-'));
  const tarballs = join(work, 'tarballs');
  await mkdir(tarballs);
  // One npm process packs the seven packages.
  await sh(
    'npm',
    [
      'pack',
      ...['types', 'client', 'server', 'validators', 'fake', 'mock', 'proxy'].map((name) =>
        join(ROOT, 'packages', name),
      ),
      '--pack-destination',
      tarballs,
      '--silent',
    ],
    ROOT,
  );
  const files = (await readdir(tarballs)).sort();
  expect(files).toEqual(
    ['client', 'fake', 'mock', 'proxy', 'server', 'types', 'validators'].map((name) =>
      expect.stringMatching(new RegExp(`^service-api-${name}-.*\\.tgz$`)),
    ),
  );

  // Installed afresh on every run, as on CI: a project kept from an earlier run would keep the dependency versions the
  // registry served then.
  const project = await install(join(work, 'project'), tarballs, files);
  // Every declaration file is checked (the packages' and their dependencies'), except TypeScript's own lib.*.d.ts.
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          lib: ['ES2022', 'DOM'],
          types: ['node'],
          outDir: 'out',
          skipLibCheck: false,
          skipDefaultLibCheck: true,
        },
        files: ['consumer.ts'],
      },
      null,
      2,
    ),
  );
  await writeFile(join(project, 'consumer.ts'), consumerSource);

  // One copy of the types: the three packages re-export @service-api/types instead of shipping their own.
  const modules = join(project, 'node_modules', '@service-api');
  expect((await stat(join(modules, 'types', 'dist', 'schema.d.ts'))).size).toBeGreaterThan(100_000);
  for (const name of ['client', 'server', 'validators'])
    expect((await stat(join(modules, name, 'dist', 'types.d.ts'))).size, name).toBeLessThan(1_000);
  expect(await readdir(modules)).toEqual(['client', 'fake', 'mock', 'proxy', 'server', 'types', 'validators']);

  // The mock's command first, alone, so that its start is timed on its own.
  const mock = await mockCommand(project);
  const command = fakeCommand(project);
  // Awaited at the end; when an assertion fails before then, the test's folder is removed under it: not an unhandled error.
  command.catch(() => undefined);
  let output: string;
  try {
    expect(mock.help).toContain('Usage: service-api-mock [--port 4010]');
    expect(mock.jobs).toEqual([200, 'failed']);
    // A figure, not a check: speed targets are measured by `npm run bench`, never asserted in a test.
    console.log(
      `npx service-api-mock from the packed tarball: first answer ${Math.round(mock.firstAnswerMs)} ms after the command started`,
    );
    expect(await proxyCommand(project, new URL(mock.api).origin)).toEqual({
      help: expect.stringContaining('Usage: service-api-proxy --upstream'),
      jobs: [200, 'failed'],
      calls: 1,
    });
    await sh(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], project);
    output = await sh(process.execPath, [join(project, 'out', 'consumer.js')], project, { SERVICE_API_MOCK: mock.api });
  } finally {
    // SIGTERM to npx alone: it passes the signal on, and the mock frees its port (no orphan process holding it).
    expect(await mock.stop()).toBe(false);
  }
  expect(await command).toEqual({
    help: expect.stringContaining('Usage: service-api-fake [--port 4010]'),
    mergeRequests: [200, 'Add login page'],
  });
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
  // The embedded fake: state kept between calls, a refusal as the Service answers it.
  expect(report.fake).toEqual({ before: 3, created: [7, 'opened', 'Fix it'], after: 4, outsider: 404, records: 8 });
  // The embedded mock: a documented answer, and another one chosen with Prefer.
  expect(report.mock).toEqual({ jobs: true, missing: 404 });
  // The embedded proxy in front of it: the answer forwarded, the call in its report.
  expect(report.proxy).toEqual({ status: 200, calls: 1 });
}, 300_000); // about 15 s of CPU (npm pack and install, tsc): generous for a machine shared with the other steps of npm test

/** @types/node for Fastify's declarations; the same exact version the repository uses, so the npm cache serves it. */
const EXTRA_DEPENDENCIES = ['@types/node@20.19.43'];

/** A project outside the repository (so nothing resolves from the repository's node_modules) with the tarballs installed. */
async function install(project: string, tarballs: string, files: string[]): Promise<string> {
  await mkdir(project, { recursive: true });
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
  );
  await sh(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      ...files.map((f) => join(tarballs, f)),
      ...EXTRA_DEPENDENCIES,
    ],
    project,
  );
  return project;
}

/** `npx service-api-fake --help`, then the command on a free port answering one real call; the process is stopped. */
async function fakeCommand(project: string): Promise<{ help: string; mergeRequests: [number, string | undefined] }> {
  const help = await sh('npx', ['--no-install', 'service-api-fake', '--help'], project);
  const child = spawn('npx', ['--no-install', 'service-api-fake', '--port', '0'], {
    cwd: project,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+\/api\/v4)/.exec(output);
        if (match) resolve(match[1]!);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('exit', (code) => reject(new Error(`service-api-fake exited with ${code}: ${output}`)));
    });
    const response = await fetch(`${url}/projects/my-group%2Fmy-project/merge_requests?iids[]=1`, {
      headers: { 'PRIVATE-TOKEN': 'developer-token' },
    });
    const body = (await response.json()) as { title?: string }[];
    return { help, mergeRequests: [response.status, body[0]?.title] };
  } finally {
    // npx runs the command in a child of its own: stop the whole process group.
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
  }
}

/** `npx service-api-proxy --help`, then the command in front of `upstream` forwarding one real call; the process is stopped. */
async function proxyCommand(
  project: string,
  upstream: string,
): Promise<{ help: string; jobs: [number, string | undefined]; calls: number | undefined }> {
  const help = await sh('npx', ['--no-install', 'service-api-proxy', '--help'], project);
  const child = spawn('npx', ['--no-install', 'service-api-proxy', '--upstream', upstream, '--port', '0', '--quiet'], {
    cwd: project,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+?);/.exec(output);
        if (match) resolve(match[1]!);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('exit', (code) => reject(new Error(`service-api-proxy exited with ${code}: ${output}`)));
    });
    const response = await fetch(`${url}/api/v4/projects/my-group%2Fmy-project/jobs?scope[]=failed`, {
      headers: { 'PRIVATE-TOKEN': 'any' },
    });
    const body = (await response.json()) as { status?: string }[];
    const report = (await (await fetch(`${url}/__proxy/report`)).json()) as {
      operations: Record<string, { calls: number }>;
    };
    return {
      help,
      jobs: [response.status, body[0]?.status],
      calls: report.operations['jobs/list-project-jobs']?.calls,
    };
  } finally {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
  }
}

/** Whether anything accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * `npx service-api-mock --help`, then the command on a free port, timed from its start to its first answer to a real
 * call. `stop()` sends SIGTERM to npx alone and tells whether the port is still held once npx has exited.
 */
async function mockCommand(project: string): Promise<{
  help: string;
  api: string;
  jobs: [number, string | undefined];
  firstAnswerMs: number;
  stop(): Promise<boolean>;
}> {
  const help = await sh('npx', ['--no-install', 'service-api-mock', '--help'], project);
  const started = performance.now();
  const child = spawn('npx', ['--no-install', 'service-api-mock', '--port', '0', '--quiet'], {
    cwd: project,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let port = 0;
  const stop = async () => {
    if (!child.pid) return false;
    if (child.exitCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    // The mock itself may take a moment to notice that npx is gone and close.
    let held = port > 0;
    for (let waited = 0; held && waited < 5000; waited += 100) {
      held = await listening(port);
      if (held) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (held) process.kill(-child.pid, 'SIGKILL');
    return held;
  };
  try {
    const api = await new Promise<string>((resolve, reject) => {
      let output = '';
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+\/api\/v4)/.exec(output);
        if (match) resolve(match[1]!);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      void exited.then(() => reject(new Error(`service-api-mock exited with ${child.exitCode}: ${output}`)));
    });
    port = Number(new URL(api).port);
    const response = await fetch(`${api}/projects/my-group%2Fmy-project/jobs?scope[]=failed`, {
      headers: { 'PRIVATE-TOKEN': 'any' },
    });
    const body = (await response.json()) as { status?: string }[];
    return { help, api, jobs: [response.status, body[0]?.status], firstAnswerMs: performance.now() - started, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
