import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runStep } from '../scripts/lib/test-steps.ts';

/**
 * Node arguments that burn `ms` of CPU: until the child's own CPU clock (user + system) reaches it, however long a
 * loaded machine takes to give it that much.
 */
const burn = (ms: number) => [
  '-e',
  `const cpu = () => { const { user, system } = process.cpuUsage(); return user + system; }; while (cpu() < ${ms * 1000});`,
];

describe.runIf(process.platform === 'linux')("runStep: a step's CPU is its own", () => {
  it('does not count a child that ended before the step started', async () => {
    spawnSync(process.execPath, burn(600));
    const result = await runStep({ name: 'idle', what: 'an idle step', args: ['-e', ''] }, false);
    expect(result.code).toBe(0);
    expect(result.cpu).toBeLessThan(0.4);
  });

  it("counts each of two steps that run together by its own child's CPU", async () => {
    const [long, short] = await Promise.all([
      runStep({ name: 'long', what: 'a long step', args: burn(700) }, false),
      runStep({ name: 'short', what: 'a short step', args: burn(100) }, false),
    ]);
    expect(long!.cpu).toBeGreaterThanOrEqual(0.5);
    expect(short!.cpu).toBeLessThan(0.5);
  });
});
