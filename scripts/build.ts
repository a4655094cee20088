/**
 * The main job: bundle `openapi/`, lint the source and the bundle, and run every generator.
 *   npm run build          write generated/; the linters are skipped when nothing they read changed since a clean run,
 *                          and the regeneration when generated/, dist/ and their inputs are as when they last matched
 *   npm run check          the same, always linting everything, but fail (and write nothing) if generated/ is not
 *                          what the generators produce
 *   build.ts --check --cache
 *                          check, skipping what a content-hashed stamp shows passed on the same inputs on this machine
 *                          (scripts/lib/stamps.ts): the lint as `npm run build` does, and the regeneration when neither
 *                          generated/ nor anything the generators read changed since it last matched (npm test's check
 *                          step; a fresh clone has no stamps, so CI lints and regenerates everything)
 *   build.ts --check --cache --no-lint   the regeneration and the packages' dist/ only (npm test's first step)
 *   build.ts --check --cache --lint-only the lint only (a step of npm test that runs beside the tests)
 * Linting runs in child processes while the generators run in this one (two cores): Redocly's lint of the source and
 * the layout check start with the bundle, Spectral's lint of the bundle with the generators. Nothing is written before
 * both succeed. Each step prints its time.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GeneratedFile } from '../generators/lib/files.ts';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { bundleSource } from './lib/bundle.ts';
import { checkLayout } from './lib/layout.ts';
import { buildNodePackage, NODE_PACKAGES } from './lib/node-packages.ts';
import { compareOutput, driftLines, writeOutput } from './lib/output.ts';
import { BIN, BUNDLE_JSON, LINT_BUNDLE_JSON, ROOT, SOURCE_ROOT } from './lib/paths.ts';
import { runTimed, type TimedRunResult } from './lib/run.ts';
import { GENERATED, inputsHash, LINT, recordStamp, stamped } from './lib/stamps.ts';

const check = process.argv.includes('--check');
/** Skip the linters when nothing they read changed since a clean lint: always in a build, on request in a check. */
const lintCache = !check || process.argv.includes('--cache');
/**
 * Skip the regeneration when generated/, the packages' dist/ and their inputs are as they were when they last matched
 * (nothing to write): always in a build, on request in a check.
 */
const generatedCache = !check || process.argv.includes('--cache');
const started = performance.now();
/** The lint-only run has a bundle of its own: npm test runs it beside the check, which writes BUNDLE_JSON. */
const bundlePath = process.argv.includes('--lint-only') ? LINT_BUNDLE_JSON : BUNDLE_JSON;

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

function fail(message: string, details = ''): never {
  console.error(`\n✖ ${message}${details ? `\n\n${details}` : ''}`);
  process.exit(1);
}

/** Wall and CPU time of work done in this process (CPU time does not grow when other processes share the cores). */
async function timedHere<T>(work: () => Promise<T>): Promise<[T, string]> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(cpu);
  return [result, `${seconds(start)} (CPU ${((used.user + used.system) / 1e6).toFixed(1)} s)`];
}

async function bundle(): Promise<OpenApiDocument> {
  const start = performance.now();
  const doc = await bundleSource(bundlePath).catch((error: Error) => fail('Bundling failed', error.message));
  console.log(
    `[1/4] Bundled openapi/openapi.yaml with Redocly: ${Object.keys(doc.paths).length} paths (${seconds(start)})`,
  );
  return doc;
}

interface SourceLint {
  /** The layout check's problems, and its time. */
  layout: string[];
  layoutTime: string;
  redocly: Promise<TimedRunResult>;
}

/** A linter's own wall and CPU time (not when this process, busy generating, heard that it ended). */
const linterTime = ({ wall, cpu }: TimedRunResult) =>
  `${wall.toFixed(1)} s${Number.isNaN(cpu) ? '' : `, CPU ${cpu.toFixed(1)} s`}`;

/**
 * The half of the lint that reads openapi/ only, started beside the bundle (a child process): Redocly in a child
 * process of its own, and the layout here meanwhile, so that neither delays the generators, which wait for the bundle.
 */
function lintSource(): SourceLint {
  const redocly = runTimed(BIN('redocly'), [
    'lint',
    SOURCE_ROOT,
    '--config',
    join(ROOT, 'redocly.yaml'),
    '--format',
    'stylish',
  ]);
  const start = performance.now();
  const layout = checkLayout(join(ROOT, 'openapi'));
  return { layout, layoutTime: seconds(start), redocly };
}

/** Layout, Redocly on the source and Spectral on the bundle; a problem fails the build with the linter's report. */
async function lint(hash: string, source: SourceLint): Promise<() => void> {
  const { layout, layoutTime } = source;
  if (layout.length > 0) fail(`Layout of openapi/: ${layout.length} problem(s)`, layout.join('\n'));
  const [redocly, spectral] = await Promise.all([
    source.redocly,
    runTimed(BIN('spectral'), [
      'lint',
      bundlePath,
      '--ruleset',
      join(ROOT, '.spectral.yaml'),
      '--fail-severity',
      'hint',
      '--display-only-failures',
    ]),
  ]);
  const redoclyClean = redocly.code === 0 && !/warning/i.test(redocly.output.replace(/0 warnings?/gi, ''));
  if (!redoclyClean) fail('Redocly lint found problems (errors and warnings both fail the build)', redocly.output);
  if (spectral.code !== 0)
    fail('Spectral lint found problems in the bundle (errors and warnings both fail the build)', spectral.output);
  await recordStamp(LINT, hash);
  return () =>
    console.log(
      `[2/4] Linted beside the generators: layout (${layoutTime}), Redocly (${linterTime(redocly)}) and Spectral (${linterTime(spectral)}) report 0 errors, 0 warnings`,
    );
}

interface Output {
  name: string;
  folder: string;
  files: GeneratedFile[];
  time: string;
  /** A package's compiled dist/, from its src/ and the generated files. */
  build?: { folder: string; files: GeneratedFile[]; time: string };
}

/**
 * Every generator's files and every package's dist/, in memory, with the time each took. A package's build starts as
 * soon as its generator is done and is not waited for before the next generator: its compilation runs at once (it is
 * synchronous), and what it waits for in a child process (the HTML reference) renders while the next ones generate.
 */
async function generate(doc: OpenApiDocument): Promise<Output[]> {
  // Loaded only when something is generated: the generators bring TypeScript, openapi-typescript and Ajv, a second of
  // CPU that a run with nothing to regenerate (npm test's contract lint, a package's prepack) does not need.
  const { generators } = await import('../generators/index.ts');
  const out: Output[] = [];
  const building: Promise<void>[] = [];
  for (const generator of generators) {
    const failed = (error: Error) => fail(`Generator ${generator.name} failed: ${error.message}`);
    const [files, time] = await timedHere(() => generator.generate(doc).catch(failed));
    const output: Output = { name: generator.name, folder: generator.folder, files, time };
    out.push(output);
    const { build } = generator;
    if (build) building.push(startBuild(output, build.folder, () => build.files(doc, files).catch(failed)));
  }
  await Promise.all(building);
  return out;
}

/** Starts a package's build; its time is that of its synchronous part, and when it finished if that was later. */
function startBuild(output: Output, folder: string, files: () => Promise<GeneratedFile[]>): Promise<void> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const built = files();
  const used = process.cpuUsage(cpu);
  const own = `${seconds(start)} (CPU ${((used.user + used.system) / 1e6).toFixed(1)} s)`;
  const ownEnd = performance.now();
  return built.then((result) => {
    const waited = performance.now() - ownEnd > 500 ? `, ready ${seconds(start)} after its start` : '';
    output.build = { folder, files: result, time: `${own}${waited}` };
  });
}

const noLint = process.argv.includes('--no-lint');
const lintOnly = process.argv.includes('--lint-only');
const LINT_SKIPPED = noLint
  ? '[2/4] Lint not run here (--no-lint: npm test lints in a step of its own)'
  : '[2/4] Lint skipped: openapi/, the lint rules and this script are unchanged since the last clean lint on this machine (npm run check always lints)';
const lintHash = await inputsHash(LINT);
const lintCurrent = noLint || (lintCache && (await stamped(LINT, lintHash)));
const generatedHash = generatedCache ? await inputsHash(GENERATED) : '';
const generatedCurrent = lintOnly || (generatedCache && (await stamped(GENERATED, generatedHash)));
const GENERATED_SKIPPED = lintOnly
  ? '[3/4] Regeneration not run here (--lint-only)'
  : '[3/4] Regeneration skipped: generated/, openapi/, generators/ and the locked tool versions are unchanged since generated/ last matched on this machine (npm run check always regenerates)';
if (lintCurrent && generatedCurrent) {
  console.log(`[1/4] Bundle skipped: nothing to lint or regenerate\n${LINT_SKIPPED}\n${GENERATED_SKIPPED}`);
  console.log(`[4/4] Done in ${seconds(started)}`);
  process.exit(0);
}

const bundling = bundle();
const sourceLint = lintCurrent ? undefined : lintSource();
const doc = await bundling;
const generateStart = performance.now();
// The linters run in child processes while this process generates; both must succeed before anything is written.
const [report, outputs] = await Promise.all([
  sourceLint ? lint(lintHash, sourceLint) : () => console.log(LINT_SKIPPED),
  generatedCurrent ? undefined : generate(doc),
]);
report();
if (!outputs) {
  console.log(GENERATED_SKIPPED);
  console.log(`[4/4] Done in ${seconds(started)} (spec version ${doc.info.version})`);
  process.exit(0);
}
console.log(
  `[3/4] Generated ${outputs.length} outputs (${seconds(generateStart)} with the lint alongside)${check ? ', comparing with generated/' : ''}`,
);
const drifted: string[] = [];
for (const { name, folder, files, time } of outputs) {
  const drift = check ? await compareOutput(folder, files) : await writeOutput(folder, files);
  const lines = driftLines(drift);
  drifted.push(...lines);
  console.log(
    `      ${name.padEnd(10)} ${String(files.length).padStart(3)} file(s) in ${folder.padEnd(20)} ${time}${lines.length ? ` (${lines.length} ${check ? 'differ' : 'updated'})` : ''}`,
  );
}
if (check && drifted.length > 0) {
  fail(
    'generated/ is out of date with openapi/ and generators/: run `npm run build` and commit the result',
    drifted.join('\n'),
  );
}
// The packages' dist/ is built output (not committed): written in a check too, once generated/ is known current.
for (const { name, build } of outputs) {
  if (!build) continue;
  await writeOutput(build.folder, build.files);
  console.log(
    `      ${name.padEnd(10)} ${String(build.files.length).padStart(3)} file(s) in ${build.folder.padEnd(20)} ${build.time} (compiled)`,
  );
}
// Then the packages written by hand, which import the ones above (their declarations, through node_modules).
for (const name of NODE_PACKAGES) {
  const folder = `packages/${name}/dist`;
  const [files, time] = await timedHere(async () => {
    try {
      return buildNodePackage(name);
    } catch (error) {
      return fail(`Compiling packages/${name} failed: ${(error as Error).message}`);
    }
  });
  const dist = files.filter((file) => file.path.startsWith(`${folder}/`));
  await writeOutput(folder, dist);
  for (const file of files.filter((f) => !dist.includes(f))) await writeFile(join(ROOT, file.path), file.contents);
  console.log(
    `      ${name.padEnd(10)} ${String(dist.length).padStart(3)} file(s) in ${folder.padEnd(20)} ${time} (compiled)`,
  );
}
// generated/ is now what the generators make of the inputs: a later `npm test` with the same files may skip regenerating.
// Hashed again now: the inputs include the dist/ folders this run has just written.
await recordStamp(GENERATED, await inputsHash(GENERATED));
console.log(`[4/4] Done in ${seconds(started)} (spec version ${doc.info.version})`);
