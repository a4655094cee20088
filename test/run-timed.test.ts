import { describe, expect, it } from 'vitest';
import { runTimed } from '../scripts/lib/run.ts';

/** A command that burns about 0.2 s of CPU, prints, and exits with the given code. */
const busy = (code: number) => [
  '-e',
  `const end = Date.now() + 200; while (Date.now() < end); console.log('out'); console.error('err'); process.exit(${code});`,
];

describe('runTimed: a command timed by its own clock', () => {
  it('gives the output, the exit code and the wall and CPU time of the command', async () => {
    const result = await runTimed(process.execPath, busy(0));
    expect(result.code).toBe(0);
    expect(result.output.split('\n').sort()).toEqual(['err', 'out']);
    expect(result.wall).toBeGreaterThanOrEqual(0.2);
    expect(result.wall).toBeLessThan(30);
    if (process.platform === 'linux') expect(result.cpu).toBeGreaterThanOrEqual(0.1);
  });

  it('times a command even while this thread is blocked, not when it hears of the end', async () => {
    const started = performance.now();
    const running = runTimed(process.execPath, busy(0));
    const blockUntil = Date.now() + 1500;
    while (Date.now() < blockUntil);
    const result = await running;
    expect((performance.now() - started) / 1000).toBeGreaterThanOrEqual(1.5);
    expect(result.wall).toBeLessThan(1.4);
  });

  it('keeps a failing exit code', async () => {
    const result = await runTimed(process.execPath, busy(3));
    expect(result.code).toBe(3);
    expect(result.output).toContain('out');
  });
});
