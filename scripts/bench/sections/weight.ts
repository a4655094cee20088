/** What the repository tracks, by kind (scripts/lib/weight.ts): a count, not a timing, so one run. */
import { GOAL, type Kind, trackedWeight } from '../../lib/weight.ts';
import { format, goal, heading, table } from '../lib/report.ts';

export const name = 'weight';

const percent = (share: number) => `${format(share * 100, 1)} %`;

export async function run(): Promise<void> {
  heading(
    'Tracked lines',
    'Lines of the tracked files of the work tree by kind, as `git ls-files | xargs wc -l` counts them: generated/ (written\n' +
      'by `npm run build`), the release record and hashes in releases/, full release copies under releases/<version>/,\n' +
      'and everything written by hand.',
  );
  const weight = trackedWeight();
  const rows = (Object.entries(weight.lines) as [Kind, number][]).map(([kind, lines]) => [
    kind,
    format(lines),
    percent(lines / weight.total),
  ]);
  console.log(table(['kind', 'lines', 'share'], [...rows, ['all', format(weight.total), '100.0 %']]));
  const copies = weight.lines['release copy'];
  const measured = `${percent(weight.share)}${copies ? ` (${percent(weight.shareWithoutCopies)} without the release copies)` : ''}`;
  goal(name, `generated output and release copies < ${GOAL * 100} % of tracked lines`, measured, weight.share < GOAL);
}
