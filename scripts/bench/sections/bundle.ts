/** Bundle sizes (esbuild, minified, gzip -9) of what an application imports, and the packages' sizes on disk. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { ROOT } from '../../lib/paths.ts';
import { format, goal, heading, table } from '../lib/report.ts';

export const name = 'bundle';

const validators = join(ROOT, 'packages', 'validators', 'dist', 'index.js');
const client = join(ROOT, 'packages', 'client', 'dist', 'index.js');

const entries: [string, string][] = [
  ['validators: isJob alone', `export { isJob } from ${JSON.stringify(validators)};`],
  ['validators: isMergeRequest alone', `export { isMergeRequest } from ${JSON.stringify(validators)};`],
  ['validators: validateResponse (every response)', `export { validateResponse } from ${JSON.stringify(validators)};`],
  ['validators: everything', `export * from ${JSON.stringify(validators)};`],
  ['client: createServiceApi', `export { createServiceApi } from ${JSON.stringify(client)};`],
  ['client: createServiceClient only', `export { createServiceClient } from ${JSON.stringify(client)};`],
  ['openapi-fetch', `export { default } from 'openapi-fetch';`],
  ['@gitbeaker/rest: Jobs only', `export { Jobs } from '@gitbeaker/rest';`],
];

async function size(contents: string): Promise<{ minified: number; gzip: number }> {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
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
  for (const [label, contents] of entries) {
    const s = await size(contents);
    rows.push([label, format(s.minified), format(s.gzip)]);
    if (label === 'validators: isJob alone')
      goal(name, 'isJob alone ≤ 30 kB minified', `${(s.minified / 1000).toFixed(1)} kB`, s.minified <= 30_000);
  }
  console.log(table(['entry', 'minified bytes', 'gzip bytes'], rows));
  const packages = readdirSync(join(ROOT, 'generated'), { withFileTypes: true }).filter(
    (e) => e.isDirectory() && e.name !== 'openapi',
  );
  console.log('\nPackages on disk (every file of generated/<package>, src and dist):');
  console.log(
    table(
      ['package', 'bytes'],
      packages.map((e) => [e.name, format(folderBytes(join(ROOT, 'generated', e.name)))]),
    ),
  );
}
