import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test tiers, each a vitest project (`vitest run --project <name>`, `npm run test:<name>`); `npm test` runs them
 * all. A test file belongs to at most one of the tiers below (test/tiers.test.ts checks it); every other is a unit test.
 * - integration: servers on 127.0.0.1 (the fake, the mock, the proxy, the generated server), the commands that start them, and the
 *   SDK clients (gitbeaker, python-gitlab, Prism's own CLI); whole-document checks (the OpenAPI 3.0 rendition with a
 *   third-party validator, the layout of openapi/, the breaking-change gate on this repository, the fast validators
 *   against the full ones on every example of the document), Spectral's CLI on the house ruleset and the timer the
 *   build runs its linters under (runTimed), and npm test's step runner (runStep);
 * - packages: the generated packages packed, published to a registry of the test (Verdaccio: its own install in
 *   test/registry, made once per run by the tier's global setup) and installed into a project outside the repository,
 *   their declarations read by the language service as an editor reads them (type-names), the packages of the fixture
 *   document generated, compiled and run, the packages' dist/ and the HTML reference built from the mini document, and
 *   the README's snippet compiled: whatever runs TypeScript's compiler, npm or Redocly's renderer;
 * - browser: the HTML reference in headless Chromium;
 * - thirdparty: the code generators and validators other teams use, run on the published document (their own install
 *   in test/thirdparty, made once per run by its global setup; test/thirdparty/README.md);
 * - polyglot: the Java, Kotlin, Go and Python generators other teams use, run on the published document, their output
 *   compiled, checked for fidelity and called against the fake (their own install from Maven Central, the Go module
 *   proxy and PyPI, made once per run by its global setup; test/polyglot/README.md);
 * - unit: no server, no browser, no install, no Python. The type tests (`*.test-d.ts`) are compile cases: tsc checks
 *   them in `npm run typecheck` (tsconfig.json includes them), not a tier.
 */
export const TIERS = {
  integration: [
    'test/clients/**/*.test.ts',
    'test/hostile/*.test.ts',
    'test/mcp*.test.ts',
    'packages/mcp/test/*.test.ts',
    'packages/fake/test/*.test.ts',
    'packages/mock/test/*.test.ts',
    'packages/proxy/test/*.test.ts',
    'packages/server/test/*.test.ts',
    'packages/client/test/client.test.ts',
    'packages/client/test/network.test.ts',
    'packages/client/test/query.test.ts',
    'test/conformance.test.ts',
    'test/document-rules.test.ts',
    'test/service-docs-corpus.test.ts',
    'test/fuzz.test.ts',
    'test/gate-repository.test.ts',
    'test/layout-tree.test.ts',
    'test/openapi30.test.ts',
    'packages/validators/test/fast.test.ts',
    'test/release-script.test.ts',
    'test/adding-an-operation.test.ts',
    'test/release-trace.test.ts',
    'test/spectral/ruleset.test.ts',
    'test/run-timed.test.ts',
    'test/run-step.test.ts',
    'test/locked-install.test.ts',
  ],
  packages: ['test/packages-*.test.ts', 'test/type-names.test.ts'],
  browser: ['test/reference.test.ts', 'test/browser-client.test.ts'],
  thirdparty: ['test/thirdparty/*.test.ts'],
  polyglot: ['test/polyglot/*.test.ts'],
};

/** The tiers whose tools the root npm ci does not install: each one's global setup installs a lock file of its own. */
const GLOBAL_SETUP: Record<string, string[]> = {
  packages: ['test/registry/install.ts'],
  thirdparty: ['test/thirdparty/support/install.ts'],
  polyglot: ['test/polyglot/support/install.ts'],
};

/**
 * Vitest runs the projects one after another in the order of their names, which would start the slowest files (the
 * packages' npm install and tsc, Chromium) last, when one core is left. They start first; within a tier, vitest's order.
 */
const TIER_ORDER = ['polyglot', 'thirdparty', 'packages', 'browser', 'integration', 'unit'];
class SlowTiersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => TIER_ORDER.indexOf(file.project.name);
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // A guard against hangs, not a speed check: npm test runs its steps and two test files at once, on a machine that
    // may be shared, and a test that generates a package needs several seconds of CPU.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One test file per core. Vitest's default is one fewer than the cores: on the 2-core machine, one file at a time,
    // while the slow files mostly wait on the processes they start (npm, tsc, Chromium, Spectral).
    maxWorkers: availableParallelism(),
    // Each worker runs its files one after another in one process and evaluates a shared module once (the generated
    // validators, Prism, Fastify, TypeScript), instead of a new process per file that loads them all again: half the
    // CPU time on the files that use them. Test files share no mutable state: each starts its own servers and fixtures.
    isolate: false,
    // The packages' dist/ is compiled JavaScript, some files over a megabyte (the validators): Node loads it as it is.
    // Vite's transform of it (for mocking and source maps, which no test uses) cost 8 s of CPU per worker.
    server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
    reporters: ['default', './test/support/summary-reporter.ts'],
    sequence: { sequencer: SlowTiersFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          // A project's exclude replaces vitest's default one: keep it, or the third-party tier's own install
          // (test/thirdparty/node_modules) runs as unit tests once it exists.
          exclude: [...configDefaults.exclude, ...Object.values(TIERS).flat()],
          // The type tests (*.test-d.ts) are not run here: tsconfig.json includes them, and npm test's typecheck step
          // checks them.
        },
      },
      ...Object.entries(TIERS).map(([name, include]) => ({
        extends: true as const,
        test: {
          name,
          include,
          ...(GLOBAL_SETUP[name] ? { globalSetup: GLOBAL_SETUP[name] } : {}),
        },
      })),
    ],
  },
});
