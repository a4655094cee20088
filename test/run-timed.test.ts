import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTimed } from '../scripts/lib/run.ts';

const folder = mkdtempSync(join(tmpdir(), 'run-timed-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * A command that burns 0.3 s of its own CPU (however long a loaded machine takes to give it that), writes `marker`
 * when given one, prints, and exits with the given code.
 */
const busy = (code: number, marker?: string) => [
  '-e',
  [
    `const cpu = () => { const { user, system } = process.cpuUsage(); return user + system; }; while (cpu() < 300_000);`,
    marker ? `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '');` : '',
    `console.log('out'); console.error('err'); process.exit(${code});`,
  ].join(' '),
];

describe('runTimed: a command timed by its own clock', () => {
  it('gives the output, the exit code and the wall and CPU time of the command', async () => {
    const result = await runTimed(process.execPath, busy(0));
    expect(result.code).toBe(0);
    expect(result.output.split('\n').sort()).toEqual(['err', 'out']);
    expect(result.wall).toBeGreaterThan(0);
    // At least 0.2 of the 0.3 s burnt: the timer reads the kernel's 10 ms ticks, the child its own microseconds.
    if (process.platform === 'linux') expect(result.cpu).toBeGreaterThanOrEqual(0.2);
  });

  it('times a command even while this thread is blocked, not when it hears of the end', async () => {
    const marker = join(folder, 'ended');
    const started = performance.now();
    const running = runTimed(process.execPath, busy(0, marker));
    // This thread hears nothing until it is free: it stays blocked until the command has ended, and 3 s more.
    while (!existsSync(marker))
      if (performance.now() - started > 60_000) throw new Error('a guard against hangs: the command never ended');
    const blockUntil = performance.now() + 3000;
    while (performance.now() < blockUntil);
    const result = await running;
    const heard = (performance.now() - started) / 1000;
    // Timed when heard of, the command would take all of `heard`; timed by its own clock, it ended 3 s before.
    expect(result.wall).toBeLessThan(heard - 1.5);
  });

  it('keeps a failing exit code', async () => {
    const result = await runTimed(process.execPath, busy(3));
    expect(result.code).toBe(3);
    expect(result.output).toContain('out');
  });
});
