/**
 * The main job: bundle `openapi/`, lint the source and the bundle, and run every generator.
 *   npm run build          write generated/
 *   npm run check          the same, but fail (and write nothing) if generated/ is not what the generators produce
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generators } from '../generators/index.ts';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { checkLayout } from './lib/layout.ts';
import { compareOutput, driftLines, writeOutput } from './lib/output.ts';
import { BIN, BUNDLE_JSON, ROOT, SOURCE_ROOT, WORK_DIR } from './lib/paths.ts';
import { run } from './lib/run.ts';

const check = process.argv.includes('--check');
const steps = 4;
let step = 0;
const started = Date.now();

function progress(message: string): void {
  step += 1;
  console.log(`[${step}/${steps}] ${message}`);
}

function fail(message: string, details = ''): never {
  console.error(`\n✖ ${message}${details ? `\n\n${details}` : ''}`);
  process.exit(1);
}

async function bundle(): Promise<OpenApiDocument> {
  progress('Bundling openapi/openapi.yaml with Redocly');
  await mkdir(WORK_DIR, { recursive: true });
  const result = await run(BIN('redocly'), ['bundle', SOURCE_ROOT, '--config', join(ROOT, 'redocly.yaml'), '--output', BUNDLE_JSON]);
  if (result.code !== 0) fail('Bundling failed', result.output);
  return JSON.parse(await readFile(BUNDLE_JSON, 'utf8')) as OpenApiDocument;
}

async function lint(doc: OpenApiDocument): Promise<void> {
  progress('Linting: layout of openapi/, Redocly on the source, Spectral on the bundle');
  const layout = checkLayout(join(ROOT, 'openapi'));
  if (layout.length > 0) fail(`Layout of openapi/: ${layout.length} problem(s)`, layout.join('\n'));
  const [redocly, spectral] = await Promise.all([
    run(BIN('redocly'), ['lint', SOURCE_ROOT, '--config', join(ROOT, 'redocly.yaml'), '--format', 'stylish']),
    run(BIN('spectral'), ['lint', BUNDLE_JSON, '--ruleset', join(ROOT, '.spectral.yaml'), '--fail-severity', 'hint', '--display-only-failures']),
  ]);
  const redoclyClean = redocly.code === 0 && !/warning/i.test(redocly.output.replace(/0 warnings?/gi, ''));
  if (!redoclyClean) fail('Redocly lint found problems (errors and warnings both fail the build)', redocly.output);
  if (spectral.code !== 0) fail('Spectral lint found problems in the bundle (errors and warnings both fail the build)', spectral.output);
  console.log(`      ${Object.keys(doc.paths).length} paths: Redocly and Spectral report 0 errors, 0 warnings`);
}

async function generate(doc: OpenApiDocument): Promise<void> {
  progress(check ? 'Regenerating and comparing with generated/' : 'Generating into generated/');
  const drifted: string[] = [];
  for (const generator of generators) {
    const files = await generator.generate(doc).catch((error: Error) => fail(`Generator ${generator.name} failed: ${error.message}`));
    const drift = check ? await compareOutput(generator.folder, files) : await writeOutput(generator.folder, files);
    const lines = driftLines(drift);
    drifted.push(...lines);
    console.log(`      ${generator.name.padEnd(10)} ${files.length} file(s) in ${generator.folder}${lines.length ? ` (${lines.length} ${check ? 'differ' : 'updated'})` : ''}`);
  }
  if (check && drifted.length > 0) {
    fail('generated/ is out of date with openapi/ and generators/: run `npm run build` and commit the result', drifted.join('\n'));
  }
}

const doc = await bundle();
await lint(doc);
await generate(doc);
progress(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s (spec version ${doc.info.version})`);
