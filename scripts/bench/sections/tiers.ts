/**
 * Each test tier of vitest.config.ts on its own (`npm run test:<tier>`, run as `vitest run --project <tier>`): wall and
 * CPU time. The tiers with a cache a fresh clone lacks run twice, cold (that cache removed) and warm (right after).
 */
import { rm } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT, WORK_DIR } from '../../lib/paths.ts';
import { INSTALL_CACHE, runStep, type StepResult } from '../../lib/test-steps.ts';
import { goal, heading, table } from '../lib/report.ts';

export const name = 'tiers';

/** The tiers, fastest first, and what a fresh clone lacks that a second run of each reuses. */
const TIERS: { tier: string; caches: string[] }[] = [
  // No cache of its own since the type tests moved to `npm run typecheck`: it runs once.
  { tier: 'unit', caches: [] },
  { tier: 'integration', caches: [] },
  // The consumer projects' install (test/support/install-cache.ts) and the fixture packages with their stamp.
  { tier: 'packages', caches: [INSTALL_CACHE, join(WORK_DIR, 'fixture-packages.sha256')] },
  { tier: 'browser', caches: [] },
  // Its install and its tools' output and tsc verdicts are kept in the user's caches outside the clone, which a fresh
  // clone on the same machine reuses (test/thirdparty/README.md): not removed here.
  { tier: 'thirdparty', caches: [] },
  // Part of npm test too: Java, Kotlin, Go and Python generators. Its tools and builds (~/.m2, the Go and pip caches,
  // ~/.cache/service-api/polyglot, as a developer's machine and CI's cache keep them) are kept here too.
  { tier: 'polyglot', caches: [] },
];

const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

async function tierRun(tier: string): Promise<StepResult & { tests: string }> {
  const result = await runStep(
    { name: tier, what: `vitest --project ${tier}`, args: [VITEST, 'run', '--project', tier] },
    false,
  );
  if (result.code !== 0) {
    const failures = result.output.split('\n').filter((line) => /\bFAIL\b|✖|×/.test(line));
    console.log(`test:${tier} failed (${result.code}):\n${failures.slice(0, 30).join('\n')}`);
  }
  return { ...result, tests: /^tests: (.*)$/m.exec(result.output)?.[1] ?? '' };
}

const times = (r: StepResult) => `${r.wall.toFixed(1)} s (CPU ${r.cpu.toFixed(1)} s)`;

export async function run(): Promise<void> {
  heading(
    'Test tiers',
    '`npm run test:<tier>` for each tier, one after another. A tier with a cache that a fresh clone lacks runs cold (the\n' +
      'cache removed) and then warm; the others run once. Wall and CPU time (user + system of vitest and every process it\n' +
      `waited for). CPU ÷ ${cpus().length} cores is what a tier would take at best on this machine left to itself.`,
  );
  const rows: string[][] = [];
  for (const { tier, caches } of TIERS) {
    const load = loadavg()[0]!;
    for (const path of caches) await rm(path, { recursive: true, force: true });
    const cold = await tierRun(tier);
    const warm = caches.length > 0 ? await tierRun(tier) : undefined;
    rows.push([
      tier,
      cold.wall.toFixed(1),
      cold.cpu.toFixed(1),
      warm ? warm.wall.toFixed(1) : '–',
      warm ? warm.cpu.toFixed(1) : '–',
      `${cold.tests}${cold.code === 0 && (!warm || warm.code === 0) ? '' : ' (FAILED)'}`,
    ]);
    const passed = (r: StepResult | undefined) => r?.code === 0;
    if (tier === 'unit') {
      goal(
        name,
        'test:unit ≤ 15 s wall, cold',
        `${times(cold)}; load ${load.toFixed(1)}`,
        passed(cold) && cold.wall <= 15,
      );
      if (warm) goal(name, 'test:unit ≤ 15 s wall, warm', times(warm), passed(warm) && warm.wall <= 15);
    } else {
      const label = warm ? `cold ${times(cold)}, warm ${times(warm)}` : times(cold);
      goal(name, `test:${tier} passes (a figure, no goal of its own)`, label, passed(cold) && (!warm || passed(warm)));
    }
  }
  console.log(table(['tier', 'cold wall s', 'cold CPU s', 'warm wall s', 'warm CPU s', 'tests'], rows));
}
