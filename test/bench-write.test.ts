/** `npm run bench -- --write`: the goals of a run replace the rows of their sections in docs/performance.md. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  END,
  goalRows,
  goalsTable,
  PERFORMANCE_DOC,
  rowsOf,
  START,
  withGoals,
} from '../scripts/bench/lib/performance-doc.ts';

const doc = (rows: string[][]) => `# Performance\n\n${START}\n${goalsTable(rows)}\n${END}\n\nMethod.\n`;
const row = (section: string, goal: string, measured: string) => [section, goal, measured, 'yes'];

describe('bench --write', () => {
  it.each([
    {
      case: 'a measured section replaces its rows in place, the others stay',
      before: [row('mock', 'm1', '1×'), row('fake', 'f1', '2×'), row('fake', 'f2', '3×'), row('build', 'b', '13 s')],
      fresh: [row('fake', 'f1', '9×')],
      after: [row('mock', 'm1', '1×'), row('fake', 'f1', '9×'), row('build', 'b', '13 s')],
    },
    {
      case: 'a section not in the table yet is added at the end',
      before: [row('mock', 'm1', '1×')],
      fresh: [row('soak', 's1', '0 of 10'), row('server', 'v1', '0.9×')],
      after: [row('mock', 'm1', '1×'), row('soak', 's1', '0 of 10'), row('server', 'v1', '0.9×')],
    },
    {
      case: 'an empty table takes the run',
      before: [],
      fresh: [row('bundle', 'isJob', '21.6 kB')],
      after: [row('bundle', 'isJob', '21.6 kB')],
    },
  ])('$case', ({ before, fresh, after }) => {
    const written = withGoals(doc(before), fresh);
    expect(rowsOf(written)).toEqual(after);
    expect(written.startsWith('# Performance\n\n')).toBe(true);
    expect(written.endsWith(`${END}\n\nMethod.\n`)).toBe(true);
    expect(withGoals(written, fresh), 'writing the same run twice changes nothing').toBe(written);
  });

  it('shows met, not met and not measured, and the mode of the run', () => {
    const rows = goalRows(
      [
        { section: 'a', goal: 'g1', measured: '1', met: true },
        { section: 'a', goal: 'g2', measured: '2', met: false },
        { section: 'a', goal: 'g3', measured: 'no Prism', met: null },
      ],
      ' (--quick)',
    );
    expect(rows.map((r) => [r[2], r[3]])).toEqual([
      ['1 (--quick)', 'yes'],
      ['2 (--quick)', 'NO'],
      ['no Prism (--quick)', 'not measured'],
    ]);
  });

  it('refuses a document without the markers', () => {
    expect(() => withGoals('# Performance\n', [row('a', 'g', '1')])).toThrow(/bench-goals:start/);
  });

  it('docs/performance.md has a goals table with every goal of the bench sections', () => {
    const rows = rowsOf(readFileSync(PERFORMANCE_DOC, 'utf8'));
    expect(new Set(rows.map((r) => r[0]))).toEqual(
      new Set([
        'validators',
        'client',
        'bundle',
        'mock',
        'server',
        'soak',
        'fake',
        'fake-load',
        'fake-suite',
        'gateway',
        'proxy',
        'build',
        'tiers',
        'test',
        'weight',
        'mcp',
      ]),
    );
    for (const r of rows) expect(r).toHaveLength(4);
  });
});
