/**
 * No test's verdict depends on wall-clock time or the machine's load: tests wait for events and states, never for a
 * span of time, and judge no duration (the bench keeps the timings). This searches the tests and their support code for
 * the ways a wait on the clock is written: a sleep (`await sleep(n)`, `await delay(n)`, a promise resolved by
 * `setTimeout`, Playwright's `waitForTimeout`, `setInterval`), a timer that acts (`setTimeout(() => abort(), n)`)
 * rather than guards a hang (one that rejects, throws or kills), and an expectation on an elapsed time
 * (`performance.now()` or `Date.now()`, or a name computed from their difference, inside `expect(…)`). A state is
 * waited for with `vi.waitFor` (its timeout only guards a hang) and a timeout with a signal the test controls.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.ts';

/**
 * Left out, with the reason: the test of the build's timer, whose subject is a wall clock. Its verdicts compare the
 * timer's figure with a gap the test makes itself (its thread blocked 3 s after the command ended), never with the load.
 */
const LEFT_OUT = new Map([['test/run-timed.test.ts', 'the subject is the wall-clock timer of the build']]);

const CLOCK = /\b(?:performance|Date)\.now\(\)/;
const RULES: [string, RegExp][] = [
  ['a sleep', /\bawait\s+(?:sleep|delay|setTimeoutPromise)\(/],
  ['a sleep', /setTimeout\(\s*(?:resolve|res|r|done)\s*,/],
  ['a sleep', /\bwaitForTimeout\(/],
  ['a timer that repeats', /\bsetInterval\(/],
];
/** What a hang guard's timer does: it fails or stops what hangs. */
const GUARD = /\breject\(|\bthrow\b|\bkill\(|SIGKILL|\.destroy\(|\bfail\(/;

/** The clock waits and thresholds of a source text, as `line: kind: code`. */
export function wallClockWaits(text: string): string[] {
  const lines = text.split('\n');
  const code = (line: string) => line.replace(/\/\/.*$/, '').trim();
  // Names that hold an elapsed time: `const x = performance.now() - started`, `x: Date.now() - t0`.
  const elapsed = new Set(
    lines.flatMap((line) => {
      const match = /\b(\w+)\s*[:=]\s*\(?\s*(?:performance|Date)\.now\(\)\s*-/.exec(code(line));
      return match ? [match[1]!] : [];
    }),
  );
  const found: string[] = [];
  for (const [index, raw] of lines.entries()) {
    const line = code(raw);
    if (line.startsWith('*') || line.startsWith('/*')) continue;
    const kind = RULES.find(([, rule]) => rule.test(line))?.[0];
    const named = [...elapsed].some((name) => new RegExp(`\\b${name}\\b`).test(line));
    if (kind) found.push(`${index + 1}: ${kind}: ${line}`);
    else if (/\bsetTimeout\(/.test(line) && !GUARD.test(line)) found.push(`${index + 1}: a timer that acts: ${line}`);
    else if (/\bexpect(?:\.soft)?\(/.test(line) && (CLOCK.test(line) || named))
      found.push(`${index + 1}: an expectation on elapsed time: ${line}`);
  }
  return found;
}

describe('wallClockWaits', () => {
  it.each<[string, string, number]>([
    ['a sleep from timers/promises', 'await sleep(150);', 1],
    ['a promise resolved by a timer', 'await new Promise((resolve) => setTimeout(resolve, 100));', 1],
    ['Playwright waiting a span', 'await page.waitForTimeout(500);', 1],
    ['a timer that aborts', 'setTimeout(() => controller.abort(), 50);', 1],
    ['a repeating timer', 'const poll = setInterval(check, 20);', 1],
    ['an expectation on the clock', 'expect(performance.now() - started).toBeLessThan(5000);', 1],
    ['an expectation on an elapsed name', 'const took = Date.now() - t0;\nexpect(took).toBeLessThan(200);', 1],
    ['a hang guard that rejects', "const timer = setTimeout(() => reject(new Error('hung')), 50_000);", 0],
    ['a hang guard that kills', "setTimeout(() => process.kill(-pid, 'SIGKILL'), 10_000);", 0],
    ['a state waited for', 'await vi.waitFor(() => expect(done).toBe(true), { timeout: 50_000 });', 0],
    ['a duration printed, not judged', "console.log('took', performance.now() - started, 'ms');", 0],
    ['a comment', '// await sleep(100) would depend on the load', 0],
  ])('%s', (_name, text, count) => {
    expect(wallClockWaits(text)).toHaveLength(count);
  });
});

/**
 * Every TypeScript file of the tests: test/ and each package's test/, as git lists them (tracked, or new and not
 * ignored), so the output of installed tools and generators (test/thirdparty/out, node_modules) is not read.
 */
function testFiles(): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', 'test', 'packages'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return [...new Set(listed.split('\0'))].filter(
    (name) => /^(test|packages\/[^/]+\/test)\/.*\.m?ts$/.test(name) && existsSync(join(ROOT, name)),
  );
}

describe('no test waits on the clock or judges a duration', () => {
  const files = testFiles().filter((file) => !LEFT_OUT.has(file) && file !== 'test/wall-clock.test.ts');

  it('finds the test files of every kind', () => {
    for (const file of ['test/fuzz.test.ts', 'packages/client/test/network.test.ts', 'test/support/proxy-upstream.ts'])
      expect(files).toContain(file);
    expect(files.length).toBeGreaterThan(150);
  });

  it.each(files)('%s', (file) => {
    expect(wallClockWaits(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });
});
