/** Figures, tables and goals of the bench: every figure is summarised as min / median / max over the rounds. */

export interface Spread {
  min: number;
  median: number;
  max: number;
}

export function spread(samples: number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { min: sorted[0]!, median, max: sorted.at(-1)! };
}

/** `12 / 15 / 19` with the given digits. */
export function showSpread(s: Spread, digits = 0): string {
  return [s.min, s.median, s.max].map((v) => format(v, digits)).join(' / ');
}

export function format(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

export interface Goal {
  section: string;
  goal: string;
  measured: string;
  /** `null`: could not be measured in this run (the reason is in `measured`). */
  met: boolean | null;
}

export const goals: Goal[] = [];

export function goal(section: string, text: string, measured: string, met: boolean | null): void {
  goals.push({ section, goal: text, measured, met });
}

export function heading(title: string, method: string): void {
  console.log(`\n## ${title}\n${method}\n`);
}

/**
 * Runs `rounds` rounds over the contenders, each round in a rotated order (A B C, B C A, C A B …) so that drift in
 * the machine's load falls on every contender alike; returns each contender's samples in round order.
 */
export async function interleaved<T extends string>(
  names: readonly T[],
  rounds: number,
  run: (name: T, round: number) => Promise<number> | number,
): Promise<Record<T, number[]>> {
  const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<T, number[]>;
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 0; i < names.length; i += 1) {
      const name = names[(i + round) % names.length]!;
      samples[name].push(await run(name, round));
    }
  }
  return samples;
}
