/**
 * `npm run bench -- --write`: the goals table of the run goes into `docs/performance.md` between markers. The rows of
 * the goal sections this run measured replace theirs; the others stay as the last run that measured them wrote them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../lib/paths.ts';
import { type Goal, table } from './report.ts';

export const PERFORMANCE_DOC = join(ROOT, 'docs', 'performance.md');
export const START = '<!-- bench-goals:start -->';
export const END = '<!-- bench-goals:end -->';
const HEAD = ['section', 'goal', 'measured (median)', 'met'];

/** One row per goal, as the bench prints it; `note` is appended to the measured figure (e.g. the mode). */
export function goalRows(list: Goal[], note = ''): string[][] {
  return list.map((g) => [
    g.section,
    g.goal,
    g.measured + note,
    g.met === null ? 'not measured' : g.met ? 'yes' : 'NO',
  ]);
}

export function goalsTable(rows: string[][]): string {
  return table(HEAD, rows);
}

/** The body rows of the table between the markers of `text` (none when the table is empty). */
export function rowsOf(text: string): string[][] {
  const { start, end } = markers(text);
  const lines = text
    .slice(start + START.length, end)
    .split('\n')
    .filter((line) => line.startsWith('|'));
  return lines.slice(2).map((line) =>
    line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim()),
  );
}

/** `text` with the table between its markers holding `fresh`, which replaces the rows of the sections it has. */
export function withGoals(text: string, fresh: string[][]): string {
  const { start, end } = markers(text);
  const sections = new Set(fresh.map((row) => row[0]));
  const merged: string[][] = [];
  const placed = new Set<string>();
  for (const row of rowsOf(text)) {
    const section = row[0]!;
    if (!sections.has(section)) merged.push(row);
    else if (!placed.has(section)) {
      placed.add(section);
      merged.push(...fresh.filter((r) => r[0] === section));
    }
  }
  merged.push(...fresh.filter((r) => !placed.has(r[0]!)));
  return `${text.slice(0, start)}${START}\n${goalsTable(merged)}\n${text.slice(end)}`;
}

export function writeGoals(fresh: string[][], file = PERFORMANCE_DOC): void {
  writeFileSync(file, withGoals(readFileSync(file, 'utf8'), fresh));
}

function markers(text: string): { start: number; end: number } {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`no ${START} … ${END} block to write the goals into`);
  return { start, end };
}
