/**
 * npm run bench [-- --only NAME[,NAME…]] [-- --quick]
 * A benchmark, not a test: every figure the current issues ask for, each with its goal and whether it is met.
 * Sections: validators, client, bundle, mock, server (with the soak), fake, build. Method in each section's heading.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { stopLoad } from './lib/load.ts';
import { goals, printGoals } from './lib/report.ts';
import * as build from './sections/build.ts';
import * as bundle from './sections/bundle.ts';
import * as client from './sections/client.ts';
import * as fake from './sections/fake.ts';
import * as mock from './sections/mock.ts';
import * as server from './sections/server.ts';
import * as validators from './sections/validators.ts';

const { values } = parseArgs({ options: { only: { type: 'string' }, quick: { type: 'boolean', default: false } } });
const rounds = values.quick ? 3 : 5;
const sections: Record<string, () => Promise<void>> = {
  [validators.name]: () => validators.run({ rounds, iterations: values.quick ? 50_000 : 100_000 }),
  [client.name]: () => client.run({ rounds, calls: values.quick ? 100 : 200 }),
  [bundle.name]: () => bundle.run(),
  [mock.name]: () => mock.run({ rounds, durationS: values.quick ? 1 : 1.5 }),
  [server.name]: () => server.run({ rounds, durationS: values.quick ? 1 : 1.5, soakS: values.quick ? 2 : 4 }),
  [fake.name]: () => fake.run({ rounds, durationS: values.quick ? 1 : 1.5 }),
  [build.name]: () => build.run(),
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
console.log(`Machine: ${cpu.length} × ${cpu[0]?.model.trim()}, Node ${process.version}; load average at start ${loadavg().map((l) => l.toFixed(1)).join(' ')}.`);
console.log('The machine may be shared: read the spreads (min / median / max), and compare ratios taken in the same run.');
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
console.log(`\n## Goals (${((performance.now() - started) / 1000).toFixed(0)} s in all; load average now ${loadavg().map((l) => l.toFixed(1)).join(' ')})\n`);
printGoals(goals);
