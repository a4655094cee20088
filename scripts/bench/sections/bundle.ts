/** Bundle sizes (esbuild, minified, gzip -9) of what an application imports, and the packages' sizes on disk. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type BundleSize, bundleSize as size, ONE_GUARD_LIMIT } from '../../lib/bundle-size.ts';
import { PACKAGES } from '../../lib/packages.ts';
import { ROOT } from '../../lib/paths.ts';
import { format, goal, heading, table } from '../lib/report.ts';

export const name = 'bundle';

const validators = join(ROOT, 'packages', 'validators', 'dist', 'index.js');
const standard = join(ROOT, 'packages', 'validators', 'dist', 'standard-schema.js');
const operations = join(ROOT, 'packages', 'validators', 'dist', 'operations');
const client = join(ROOT, 'packages', 'client', 'dist', 'index.js');

const entries: [string, string][] = [
  ['validators: isJob alone', `export { isJob } from ${JSON.stringify(validators)};`],
  ['validators: isMergeRequest alone', `export { isMergeRequest } from ${JSON.stringify(validators)};`],
  ['validators/standard: isJob (a Standard Schema)', `export { isJob } from ${JSON.stringify(standard)};`],
  [
    'validators/standard: isMergeRequest (a Standard Schema)',
    `export { isMergeRequest } from ${JSON.stringify(standard)};`,
  ],
  ['validators: validateResponse (every response)', `export { validateResponse } from ${JSON.stringify(validators)};`],
  ['validators: everything', `export * from ${JSON.stringify(validators)};`],
  ['client: createServiceApi', `export { createServiceApi } from ${JSON.stringify(client)};`],
  ['client: createServiceClient only', `export { createServiceClient } from ${JSON.stringify(client)};`],
  ['openapi-fetch', `export { default } from 'openapi-fetch';`],
  ['@gitbeaker/rest: Jobs only', `export { Jobs } from '@gitbeaker/rest';`],
];

/** The operationIds that have a module in the validators package (`dist/operations/<operationId>.js`). */
function operationIds(dir = operations, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? operationIds(join(dir, e.name), `${prefix}${e.name}/`)
      : e.name.endsWith('.js')
        ? [`${prefix}${e.name.slice(0, -3)}`]
        : [],
  );
}

/** A large operation the issue names: a merge request with its body and every response. */
const LARGE_OPERATION = 'merge-requests/update-merge-request';
const ONE_OPERATION_LIMIT = 30_000;

/**
 * The bundle of one operation's module (`validateResponse` and `validateRequest`) for every operation: the smallest,
 * the median, a large one and the largest, each against the whole package's `validateResponse`.
 */
async function perOperation(whole: BundleSize): Promise<void> {
  const sizes: { id: string; minified: number; gzip: number }[] = [];
  for (const id of operationIds()) {
    const entry = `export { validateRequest, validateResponse } from ${JSON.stringify(`@service-api/validators/operations/${id}`)};`;
    sizes.push({ id, ...(await size(entry)) });
  }
  sizes.sort((a, b) => a.minified - b.minified);
  const median = sizes[sizes.length >> 1]!;
  const largest = sizes.at(-1)!;
  const picks: [string, (typeof sizes)[number] | undefined][] = [
    ['smallest', sizes[0]],
    ['median', median],
    ['large', sizes.find((s) => s.id === LARGE_OPERATION)],
    ['largest', largest],
  ];
  console.log(
    `\nOne operation's module, \`export { validateRequest, validateResponse } from '@service-api/validators/operations/<operationId>'\`, for each of the ${sizes.length} operations; ratio = the whole package's validateResponse / this bundle:`,
  );
  console.log(
    table(
      ['operation', 'minified bytes', 'gzip bytes', 'ratio (minified)'],
      picks.flatMap(([label, s]) =>
        s
          ? [[`${label}: ${s.id}`, format(s.minified), format(s.gzip), `${format(whole.minified / s.minified, 1)}×`]]
          : [],
      ),
    ),
  );
  const over = sizes.filter((s) => s.minified > ONE_OPERATION_LIMIT);
  console.log(
    `${over.length} of ${sizes.length} operations are over ${ONE_OPERATION_LIMIT / 1000} kB: Ajv's code grows with the schema, and their response or body schemas are large (every operation also carries ajv-formats' formats, about 9 kB), e.g. ${over
      .slice(-3)
      .map((s) => s.id)
      .join(', ')}.`,
  );
  const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  goal(
    name,
    `a typical (median) operation's validateResponse + validateRequest ≤ ${ONE_OPERATION_LIMIT / 1000} kB minified`,
    `${kB(median.minified)} (${median.id})`,
    median.minified <= ONE_OPERATION_LIMIT,
  );
  goal(
    name,
    `every operation's validateResponse + validateRequest ≤ ${ONE_OPERATION_LIMIT / 1000} kB minified`,
    `${sizes.length - over.length} of ${sizes.length}; largest ${kB(largest.minified)} (${largest.id})`,
    over.length === 0,
  );
}

function folderBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (n, e) => n + (e.isDirectory() ? folderBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size),
    0,
  );
}

export async function run(): Promise<void> {
  heading(
    'Bundle sizes',
    'esbuild --bundle --minify --format=esm --platform=browser of a one-line entry; gzip -9 of the result.',
  );
  const rows: string[][] = [];
  let wholeValidateResponse: BundleSize = { minified: 0, gzip: 0 };
  for (const [label, contents] of entries) {
    const s = await size(contents);
    rows.push([label, format(s.minified), format(s.gzip)]);
    if (label === 'validators: validateResponse (every response)') wholeValidateResponse = s;
    const guard = /^validators: (is\w+) alone$/.exec(label)?.[1];
    // A guard that only narrows carries its fast validator; its Standard Schema also needs the exact one.
    if (guard)
      goal(
        name,
        `${guard} alone ≤ ${ONE_GUARD_LIMIT / 1000} kB minified`,
        `${(s.minified / 1000).toFixed(1)} kB`,
        s.minified <= ONE_GUARD_LIMIT,
      );
    if (label === 'validators/standard: isJob (a Standard Schema)')
      goal(
        name,
        'isJob of validators/standard (with its Standard Schema) ≤ 10 kB gzip',
        `${(s.gzip / 1000).toFixed(1)} kB`,
        s.gzip <= 10_000,
      );
  }
  console.log(table(['entry', 'minified bytes', 'gzip bytes'], rows));
  await perOperation(wholeValidateResponse);
  console.log('\nPackages on disk (every file of packages/<package>/dist, as packed):');
  console.log(
    table(
      ['package', 'bytes'],
      PACKAGES.map(({ name, folder }) => [name, format(folderBytes(join(ROOT, folder, 'dist')))]),
    ),
  );
}
