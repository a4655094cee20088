/**
 * npm run bench [-- --only NAME[,NAME…]] [-- --full | --quick] [-- --write]
 * A benchmark, not a test: every figure the current issues ask for, each with its goal and whether it is met.
 * The default run fits in 5 minutes on the 2-core development machine: the HTTP sections start each server once and
 * keep it through their 5 rounds, 1 s per route, a 4 s soak. `--full` starts every server afresh each round (a
 * first-answer sample per round), 1.5 s per route and the 20 s soak the issue asks for (about 10 minutes).
 * Sections: validators, client, bundle, mock, server (with the soak), fake, fake-load, fake-suite, proxy, build (the
 * README's set-up in a fresh clone, cold and warm builds), tiers (each test tier, cold and warm where a cache matters),
 * test (`npm test` step by step, about 2 minutes more; `--full` also runs its steps one after another), weight (tracked
 * lines by kind), mcp (the MCP server beside a generic OpenAPI-to-MCP server). Method in each section's heading.
 * `--write` puts the goals of the run into docs/performance.md (the rows of the sections that did not run stay).
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { stopLoad } from './lib/load.ts';
import { goalRows, goalsTable, PERFORMANCE_DOC, writeGoals } from './lib/performance-doc.ts';
import { goals } from './lib/report.ts';
import * as build from './sections/build.ts';
import * as bundle from './sections/bundle.ts';
import * as client from './sections/client.ts';
import * as fake from './sections/fake.ts';
import * as fakeLoad from './sections/fake-load.ts';
import * as fakeSuite from './sections/fake-suite.ts';
import * as gateway from './sections/gateway.ts';
import * as mcp from './sections/mcp.ts';
import * as mock from './sections/mock.ts';
import * as proxy from './sections/proxy.ts';
import * as server from './sections/server.ts';
import * as test from './sections/test.ts';
import * as tiers from './sections/tiers.ts';
import * as validators from './sections/validators.ts';
import * as weight from './sections/weight.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    full: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
  },
});
const rounds = values.quick ? 3 : 5;
const full = values.full && !values.quick;
const durationS = values.quick ? 0.5 : full ? 1.5 : 1;
const sections: Record<string, () => Promise<void>> = {
  [validators.name]: () => validators.run({ rounds, iterations: values.quick ? 50_000 : 100_000 }),
  [client.name]: () => client.run({ rounds, calls: values.quick ? 100 : 500 }),
  [bundle.name]: () => bundle.run(),
  [mock.name]: () => mock.run({ rounds, durationS, restartEachRound: full }),
  [server.name]: () =>
    server.run({ rounds, durationS, soakS: values.quick ? 2 : full ? 20 : 4, restartEachRound: full }),
  [fake.name]: () => fake.run({ rounds, durationS }),
  [fakeLoad.name]: () => fakeLoad.run(),
  [fakeSuite.name]: () => fakeSuite.run(),
  [proxy.name]: () => proxy.run({ rounds, durationS }),
  [gateway.name]: () => gateway.run({ rounds, durationS, calls: values.quick ? 500 : 2000 }),
  [build.name]: () => build.run(),
  [tiers.name]: () => tiers.run(),
  [test.name]: () => test.run({ sequential: full }),
  [weight.name]: () => weight.run(),
  [mcp.name]: () => mcp.run({ rounds, calls: values.quick ? 50 : 200 }),
};
const only = values.only?.split(',').map((s) => s.trim());
const unknown = only?.filter((s) => !sections[s]);
if (unknown?.length) {
  console.error(`✖ Unknown section(s) ${unknown.join(', ')}: choose from ${Object.keys(sections).join(', ')}`);
  process.exit(1);
}

const started = performance.now();
const cpu = cpus();
console.log(`# npm run bench — ${new Date().toISOString()}`);
console.log(
  `Machine: ${cpu.length} × ${cpu[0]?.model.trim()}, Node ${process.version}; load average at start ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}.`,
);
console.log(
  'The machine may be shared: read the spreads (min / median / max), and compare ratios taken in the same run.',
);
console.log(
  full
    ? 'Mode --full: every server started afresh each round, 1.5 s per route, 20 s soak runs.'
    : `Mode ${values.quick ? '--quick (3 rounds: not the method of the issues)' : 'default'}: each server started once per section and kept through the rounds, ${durationS} s per route, short soak runs; \`-- --full\` for the long run.`,
);
try {
  for (const [name, run] of Object.entries(sections)) {
    if (only && !only.includes(name)) continue;
    const t = performance.now();
    await run();
    console.log(`\n(${name}: ${((performance.now() - t) / 1000).toFixed(0)} s)`);
  }
} finally {
  stopLoad();
}
console.log(
  `\n## Goals (${((performance.now() - started) / 1000).toFixed(0)} s in all; load average now ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')})\n`,
);
console.log(goalsTable(goalRows(goals)));
if (values.write) {
  writeGoals(goalRows(goals, values.quick ? ' (--quick)' : full ? ' (--full)' : ''));
  console.log(`\nWrote the goals of this run into ${PERFORMANCE_DOC}.`);
}
