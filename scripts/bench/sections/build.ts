/** `npm run build`, timed step by step from the moment each line of its progress appears. */
import { spawn } from 'node:child_process';
import { ROOT } from '../../lib/paths.ts';
import { goal, heading, table } from '../lib/report.ts';

export const name = 'build';

export async function run(): Promise<void> {
  heading(
    'Build steps',
    "`npm run build` once, in its own process; each step's time runs from its progress line to the next one (the build\n" +
      'regenerates generated/ in place; on a clean tree nothing changes). One run: a build takes tens of seconds here.',
  );
  const started = performance.now();
  const lines: { at: number; text: string }[] = [];
  const child = spawn('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let buffered = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const text of parts) if (text.trim()) lines.push({ at: performance.now() - started, text: text.trim() });
  });
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const total = (performance.now() - started) / 1000;
  if (code !== 0) {
    console.log(`npm run build failed (${code}):\n${errors.slice(-2000)}`);
    goal(name, 'npm run build ≤ 15 s wall', `failed after ${total.toFixed(1)} s`, false);
    return;
  }
  // The build prints `[n/m] …` as a step starts and a generator's line (`types 1 file(s) in …`) as it ends: the time
  // between two such lines belongs to the generator the second one names, else to the step the first one starts.
  const generatorLine = /^(\S+)\s+\d+ file\(s\) in /;
  const marks = lines.filter((l) => /^\[\d+\/\d+\]/.test(l.text) || generatorLine.test(l.text));
  const rows = marks.slice(0, -1).map((mark, i) => {
    const next = marks[i + 1]!;
    const generator = generatorLine.exec(next.text)?.[1];
    return [generator ? `generate ${generator}` : mark.text.slice(0, 90), ((next.at - mark.at) / 1000).toFixed(1)];
  });
  console.log(table(['step', 'seconds'], rows));
  const steps = marks;
  console.log(
    `\nnpm run build: ${total.toFixed(1)} s wall (the npm and tsx start-up before the first line: ${((steps[0]?.at ?? 0) / 1000).toFixed(1)} s)`,
  );
  goal(name, 'npm run build ≤ 15 s wall', `${total.toFixed(1)} s`, total <= 15);
}
