import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
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
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
