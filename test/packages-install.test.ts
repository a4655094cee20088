/**
 * Proof that the packages work for another team, installed from a real npm registry: a Verdaccio started for the test
 * (test/support/registry.ts) receives them from the release script's own publishing function under a scope of the
 * test (`@consumer-test/client`, its dependencies on the others npm aliases such as
 * `"@service-api/types": "npm:@consumer-test/types@0.5.0"`, since the code imports `@service-api/<name>`). Then three
 * projects outside the repository install them by name and version, with an .npmrc naming that registry alone and a
 * proxy that answers nothing for any other host:
 * - the first takes all nine, type-checks a consumer that uses them without a cast and runs it against the mock; it
 *   embeds the fake, the mock and the proxy with `startFake`, `startMock` and `startProxy`, and runs their commands
 *   with `npx service-api-fake`, `npx service-api-mock` (the consumer's client calls go to it),
 *   `npx service-api-proxy` (in front of that mock) and `npx service-api-mcp --fake` (with the MCP SDK's client);
 * - the second takes the client alone, type-checks a program with it and runs it against the fake of the repository;
 * - the third is a team's front-end stack: the client, the fake and the validators beside @tanstack/query-core, MSW and
 *   @tanstack/form-core, with the strictest tsconfig (`exactOptionalPropertyTypes`, `noUncheckedIndexedAccess`,
 *   `verbatimModuleSyntax`); its merge-request flow (test/fixtures/consumers/team-mr-flow.ts) compiles with no glue and
 *   runs against the fake in process, behind MSW.
 */
import { execFile, spawn } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { toolTable } from '@service-api/mcp';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { API_URL, PROXY_URL, printedUrl } from './support/command.ts';
import { PACKAGES, type PackageName, readManifest } from '../scripts/lib/packages.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import { publishPackages, type PublishedPackage } from '../scripts/lib/publish.ts';
import { clientOnlySource, consumerSource } from './support/consumer.ts';
import { useFake } from './support/fake.ts';
import { cachedInstall, installCacheEnabled, installKey } from './support/install-cache.ts';
import { type RunningRegistry, startRegistry } from './support/registry.ts';
import { glueIn, TEAM_FLOW } from './support/glue.ts';

const run = promisify(execFile);
const SCOPE = '@consumer-test';
/** name@version of one of our packages in the test's scope, the version its package.json gives. */
const spec = (name: PackageName) => `${SCOPE}/${name}@${readManifest(name).version}`;
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const ROOT_MANIFEST = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};

let work = '';
let registry: RunningRegistry | undefined;
let published: PublishedPackage[] = [];
const { fake } = useFake({ reset: false });
/** What `service-api-mcp` lists by default: the read-only tools. */
const readOnlyTools = toolTable.filter((tool) => tool.access === 'read').length;

const publish = () =>
  publishPackages({
    registry: registry!.url,
    scope: SCOPE,
    env: { npm_config_userconfig: registry!.userconfig },
    log: () => undefined,
    built: true,
  });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-api-registry-'));
  registry = await startRegistry(join(work, 'registry'), SCOPE);
  const started = performance.now();
  // As `npm run release -- --publish` does: the check (which builds every dist/; quick when npm test's has just run),
  // then the packages packed as they are.
  await sh(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'build.ts'), '--check', '--cache'], ROOT);
  published = await publish();
  console.log(`npm pack and publish of the ${published.length} packages: ${seconds(started)}`);
}, 300_000);

afterAll(async () => {
  await registry?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

async function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  try {
    const { stdout } = await run(command, args, {
      cwd,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...env, npm_config_loglevel: 'error' },
    });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}${e.stderr ?? e.message}`);
  }
}

const seconds = (from: number, to = performance.now()) => `${((to - from) / 1000).toFixed(1)} s`;

it('publishes the nine packages under the scope, each at the version of its package.json, and skips them once there', async () => {
  const expected = PACKAGES.map((p) => ({ name: `${SCOPE}/${p.name}`, version: readManifest(p.name).version }));
  expect(published).toEqual(expected.map((p) => ({ ...p, action: 'published' })));
  expect(await publish()).toEqual(expected.map((p) => ({ ...p, action: 'skipped' })));
}, 60_000);

it('installs the nine packages by name and version, type-checks and runs a consumer of them all', async () => {
  const started = performance.now();
  const project = await install(join(work, 'project'), [...PACKAGES.map((p) => spec(p.name)), ...EXTRA_DEPENDENCIES]);
  // Every declaration file is checked (the packages' and their dependencies'), except TypeScript's own lib.*.d.ts.
  await writeTsconfig(project, { lib: ['ES2022', 'DOM'], types: ['node'] });
  await writeFile(join(project, 'consumer.ts'), consumerSource(SCOPE));
  const installed = performance.now();
  await sh(process.execPath, [TSC, '-p', project], project);
  console.log(`consumer of the nine packages: npm install ${seconds(started, installed)}, tsc ${seconds(installed)}`);

  const modules = join(project, 'node_modules');
  expect(await readdir(join(modules, SCOPE))).toEqual([
    'client',
    'fake',
    'mcp',
    'mock',
    'openapi',
    'proxy',
    'server',
    'types',
    'validators',
  ]);
  // Our packages depend on each other under the names the code imports, npm aliases of the scope's packages.
  expect(await readdir(join(modules, '@service-api'))).toEqual(['client', 'fake', 'server', 'types', 'validators']);
  const client = JSON.parse(await readFile(join(modules, SCOPE, 'client', 'package.json'), 'utf8'));
  expect(client.dependencies['@service-api/types']).toBe(
    `npm:${SCOPE}/types@${readManifest('client').dependencies!['@service-api/types']}`,
  );
  const aliased = JSON.parse(await readFile(join(modules, '@service-api', 'types', 'package.json'), 'utf8'));
  expect(aliased.name).toBe(`${SCOPE}/types`);
  // The types are in the types package; the three others re-export them instead of shipping their own.
  expect((await stat(join(modules, '@service-api', 'types', 'dist', 'schema.d.ts'))).size).toBeGreaterThan(100_000);
  for (const name of ['client', 'server', 'validators'])
    expect((await stat(join(modules, SCOPE, name, 'dist', 'types.d.ts'))).size, name).toBeLessThan(1_000);

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
      `npx service-api-mock from the registry: first answer ${Math.round(mock.firstAnswerMs)} ms after the command started`,
    );
    expect(await proxyCommand(project, new URL(mock.api).origin)).toEqual({
      help: expect.stringContaining('Usage: service-api-proxy --upstream'),
      jobs: [200, 'failed'],
      calls: 1,
    });
    output = await sh(process.execPath, [join(project, 'out', 'consumer.js')], project, {
      ...process.env,
      SERVICE_API_MOCK: mock.api,
    });
  } finally {
    // SIGTERM to npx alone: it passes the signal on, and the mock frees its port (no orphan process holding it).
    expect(await mock.stop()).toBe(false);
  }
  expect(await command).toEqual({
    help: expect.stringContaining('Usage: service-api-fake [--port 4010]'),
    mergeRequests: [200, 'Add login page'],
  });
  expect(await mcpCommand(project)).toEqual({
    help: expect.stringContaining('Usage: service-api-mcp (--fake | --base-url URL)'),
    tools: readOnlyTools,
    jobs: 2,
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
  // @service-api/openapi, installed by name and version: both renditions, their files, the examples, the reference.
  expect(report.openapi).toEqual({
    version: readManifest('openapi').version,
    renditions: ['3.1.0', '3.0.3', '3.0.3'],
    yaml: ['openapi: 3.1.0', 'openapi: 3.0.3', 'openapi: 3.0.3'],
    yamlPath: true,
    fixture: 'failed',
    sameFixture: true,
    requestExamples: expect.any(Number),
    reference: true,
  });
  expect(report.openapi.requestExamples).toBeGreaterThan(0);
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
}, 300_000); // about 15 s of CPU (npm install, tsc): generous for a machine shared with the other steps of npm test

it('installs the client alone by name and version, type-checks and runs a program with it against the fake', async () => {
  const started = performance.now();
  const project = await install(join(work, 'client-only'), [spec('client')]);
  await writeTsconfig(project, { lib: ['ES2022', 'DOM'], types: [] });
  await writeFile(join(project, 'consumer.ts'), clientOnlySource(SCOPE, fake.url));
  const installed = performance.now();
  await sh(process.execPath, [TSC, '-p', project], project);
  console.log(`consumer of the client alone: npm install ${seconds(started, installed)}, tsc ${seconds(installed)}`);
  expect(await readdir(join(project, 'node_modules', SCOPE))).toEqual(['client']);
  expect(await readdir(join(project, 'node_modules', '@service-api'))).toEqual(['types']);

  const output = await sh(process.execPath, [join(project, 'out', 'consumer.js')], project);
  expect(JSON.parse(output.trim())).toEqual({ titles: expect.arrayContaining(['Add login page']), missing: 404 });

  // The project's npm reaches no other registry: a lookup elsewhere (its cache empty, so that nothing answers from it) fails.
  await expect(
    sh(
      'npm',
      [
        'view',
        'openapi-fetch',
        'version',
        '--registry=https://registry.npmjs.org/',
        `--cache=${join(work, 'empty-cache')}`,
      ],
      project,
      consumerEnv(project),
    ),
  ).rejects.toThrow(/ECONNREFUSED|proxy/i);
}, 120_000);

it('installs a team’s TanStack Query + MSW + Standard Schema form project, compiles it strictly and runs its MR flow', async () => {
  const started = performance.now();
  const project = await install(join(work, 'team-flow'), [
    spec('client'),
    spec('fake'),
    spec('validators'),
    ...TEAM_DEPENDENCIES,
    ...EXTRA_DEPENDENCIES,
  ]);
  await writeTsconfig(project, {
    lib: ['ES2022', 'DOM'],
    types: ['node'],
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
  });
  const source = (await readFile(TEAM_FLOW, 'utf8')).replaceAll("from '@service-api/", `from '${SCOPE}/`);
  await writeFile(join(project, 'consumer.ts'), source);
  const installed = performance.now();
  // 0 errors: tsc fails the step otherwise. The team's code has no glue (test/glue.test.ts counts it on the same file).
  await sh(process.execPath, [TSC, '-p', project], project);
  console.log(`the team's MR flow: npm install ${seconds(started, installed)}, tsc ${seconds(installed)}`);
  expect(glueIn(source)).toEqual({ casts: [], any: [], adapters: [] });

  const report = JSON.parse((await sh(process.execPath, [join(project, 'out', 'consumer.js')], project)).trim());
  const mrs = '/api/v4/projects/my-group%2Fmy-project/merge_requests';
  const [page1, page2] = [`GET ${mrs}?per_page=2&state=opened`, `GET ${mrs}?per_page=2&page=2&state=opened`];
  expect(report).toEqual({
    // The infinite list: the three open merge requests of the default data, on two pages.
    pagesBefore: 2,
    openBefore: ['Rewrite the parser', 'Draft: Reset password flow', 'Add login page'],
    // The form refuses its invalid input with Standard Schema issues on each field, without a request.
    refused: {
      requests: 0,
      description: [{ path: ['description'], message: 'must NOT have more than 1048576 characters' }],
      milestone: [
        { path: ['milestone_id'], message: 'must be integer' },
        { path: ['milestone_id'], message: 'must match format "int64"' },
      ],
      canSubmit: false,
    },
    created: [7, 'opened', 'Query helpers'],
    openAfterCreate: [7, 6, 5, 1],
    pagesAfterCreate: 2,
    conflict: [409, 'http', '409 Conflict - a conflicting resource exists'],
    mutationError: 409,
    merged: ['merged', 'dev'],
    openAfterMerge: [6, 5, 1],
    // Every request went through MSW to the fake in process: the pages, the creations, the refetches, the merge.
    listening: false,
    requests: [page1, page2, `POST ${mrs}`, page1, page2, `POST ${mrs}`, `PUT ${mrs}/7/merge`, page1, page2],
  });
}, 300_000);

/** The team's own stack beside our packages, at the versions the repository tests with (@tanstack/form-core: its own). */
const TEAM_DEPENDENCIES = [
  `@tanstack/query-core@${ROOT_MANIFEST.devDependencies['@tanstack/query-core']}`,
  `msw@${ROOT_MANIFEST.devDependencies.msw}`,
  '@tanstack/form-core@1.33.5',
];

/** The types the consumers need beside our packages: @types/node for Fastify's, the version the repository uses. */
const EXTRA_DEPENDENCIES = ['@types/node@20.19.43'];

/**
 * npm's environment in a consumer project: none of the npm_config_* variables of an `npm test` that started this test
 * (its userconfig, its registry settings), only the project's .npmrc.
 */
function consumerEnv(project: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));
  return { ...env, npm_config_userconfig: join(project, '.npmrc') };
}

/** A port nothing listens on: the consumers' proxy for every host but the registry's. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A project outside the repository (so nothing resolves from the repository's node_modules), installed with `specs`
 * from the test's registry: its .npmrc names that registry alone, and any other host goes to a proxy that answers
 * nothing, without retries. On CI, installed afresh on every run; locally, the install of the same tarballs may be
 * copied from an earlier run's (test/support/install-cache.ts).
 */
async function install(project: string, specs: string[]): Promise<string> {
  await mkdir(project, { recursive: true });
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
  );
  const proxy = `http://127.0.0.1:${await deadPort()}/`;
  await writeFile(
    join(project, '.npmrc'),
    [
      `registry=${registry!.url}`,
      `proxy=${proxy}`,
      `https-proxy=${proxy}`,
      'noproxy=127.0.0.1',
      'fetch-retries=0',
      '',
    ].join('\n'),
  );
  const npmInstall = async () => {
    await sh(
      'npm',
      ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--save-exact', ...specs],
      project,
      consumerEnv(project),
    );
  };
  if (!installCacheEnabled()) await npmInstall();
  else {
    const how = await cachedInstall(project, await installKey(registry!.url, specs, SCOPE), npmInstall);
    if (how === 'cached') console.log(`${specs.join(' ')}: copied from the install of the same tarballs (.tmp/)`);
  }
  return project;
}

/** A tsconfig that checks every declaration file (the packages' and their dependencies'), not TypeScript's own lib.*.d.ts. */
async function writeTsconfig(
  project: string,
  options: { lib: string[]; types: string[] } & Record<string, unknown>,
): Promise<void> {
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          ...options,
          outDir: 'out',
          skipLibCheck: false,
          skipDefaultLibCheck: true,
          resolveJsonModule: true,
        },
        files: ['consumer.ts'],
      },
      null,
      2,
    ),
  );
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
    const url = await printedUrl(child, API_URL, 'service-api-fake').url;
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

/** `npx service-api-mcp --help`, then `npx service-api-mcp --fake` over stdio with the MCP SDK's client: its tools and one call. */
async function mcpCommand(project: string): Promise<{ help: string; tools: number; jobs: number }> {
  const help = await sh('npx', ['--no-install', 'service-api-mcp', '--help'], project);
  const transport = new StdioClientTransport({
    command: 'npx',
    args: ['--no-install', 'service-api-mcp', '--fake'],
    cwd: project,
    env: { ...getDefaultEnvironment(), npm_config_userconfig: join(project, '.npmrc') },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'packages-install', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const jobs = await client.callTool({
      name: 'jobs_list_project_jobs',
      arguments: { id: 'my-group/my-project', per_page: 2 },
    });
    return { help, tools: tools.length, jobs: (jobs.structuredContent as { items: unknown[] }).items.length };
  } finally {
    await client.close();
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
    const url = await printedUrl(child, PROXY_URL, 'service-api-proxy').url;
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
    // The mock itself may take a moment to notice that npx is gone and close (on a loaded machine, seconds): the bound
    // is a guard against a mock that never closes, not a speed check.
    const held =
      port > 0 &&
      (await vi
        .waitFor(async () => expect(await listening(port)).toBe(false), { timeout: 50_000, interval: 100 })
        .then(
          () => false,
          () => true,
        ));
    if (held) process.kill(-child.pid, 'SIGKILL');
    return held;
  };
  try {
    const api = await printedUrl(child, API_URL, 'service-api-mock').url;
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
