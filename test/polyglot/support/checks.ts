/**
 * The tests every generator gets, one per check so that a failure names the generator and the check: it generates,
 * its output compiles (and, in Python, passes mypy --strict), and its driver (drivers/) finds the generated models
 * faithful and performs the call sequence against the fake. A check listed in expected-failures.json is expected to
 * fail, with its cause; once it passes, its test fails until the entry is removed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Built, build } from './build.ts';
import { runDriver } from './drivers.ts';
import { countOperations, driverInput } from './examples.ts';
import { startRecordedFake } from './fake.ts';
import { type Generator, generatorNamed } from './generators.ts';
import { CACHE, TIER } from './tools.ts';
import { CHECKS, type Check, type Result } from './check-names.ts';

export { CHECKS, type Check, type Result } from './check-names.ts';
/** ogen's target: at least this many of the document's operations generated. */
const OGEN_TARGET = 130;

export interface ExpectedFailure {
  generator: string;
  check: Check;
  /** `document` (a shape the generator reads wrongly), `generator bug <owner/repo#N>`, or `no driver yet` (the tier's own gap). */
  cause: string;
  reason: string;
}
export const EXPECTED_FAILURES = JSON.parse(
  readFileSync(join(TIER, 'expected-failures.json'), 'utf8'),
) as ExpectedFailure[];

const CALLS: Check[] = ['jobs-path-encoded', 'create-merge-request', 'page-merge-requests', 'merge', 'conflict-error'];
const MODEL_CHECKS: Check[] = ['required', 'int64', 'nullable', 'enums', 'examples'];

/** The checks that apply to a generator. */
export function checksOf(generator: Generator): Check[] {
  const checks: Check[] = ['generate', 'compile'];
  if (generator.language === 'python') checks.push('mypy');
  checks.push(...MODEL_CHECKS);
  // datamodel-code-generator writes models, no client: nothing to call with.
  if (generator.name !== 'datamodel-code-generator') checks.push(...CALLS);
  if (generator.name === 'ogen') checks.push('operations');
  if (generator.name === 'datamodel-code-generator') checks.push('project-name');
  return checks;
}

const stepResult = (step: { code: number; output: string } | undefined, what: string): Result =>
  step ? { ok: step.code === 0, detail: step.output } : { ok: false, detail: `not run: ${what}` };

export const JOBS_ENCODED = /^GET \/api\/v4\/projects\/my-group%2Fmy-project\/jobs(\?|$)/;

/** The branch the drivers open their merge request from (drivers/*: `feature/polyglot` into `main`), one commit ahead. */
async function addSourceBranch(baseUrl: string): Promise<void> {
  const response = await fetch(`${baseUrl}/projects/my-group%2Fmy-project/repository/files/polyglot.md`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'PRIVATE-TOKEN': 'maintainer-token' },
    body: JSON.stringify({
      branch: 'feature/polyglot',
      start_branch: 'main',
      content: 'polyglot',
      commit_message: 'Add polyglot.md',
    }),
  });
  if (response.status !== 201)
    throw new Error(`the fake refused the source branch: ${response.status} ${await response.text()}`);
}

/** The checks the tier itself decides, not a driver. */
const BUILD_CHECKS: Check[] = ['generate', 'compile', 'mypy', 'operations'];

/** ogen's client methods, one per operation it generated, against the document's operations. */
function ogenOperations(built: Built): Result {
  const client = join(built.out, 'serviceapi', 'oas_client_gen.go');
  const methods = existsSync(client)
    ? (readFileSync(client, 'utf8').match(/^func \(c \*Client\) [A-Z]\w*\(/gm) ?? [])
    : [];
  const operations = countOperations();
  return {
    ok: methods.length >= OGEN_TARGET,
    detail: `${methods.length} of ${operations} operations generated (target: ${OGEN_TARGET})`,
  };
}

/** Runs a generator's driver on what it built, against a fake of its own; the results of the driver's checks. */
export async function driveAgainstFake(generator: Generator, built: Built): Promise<Map<Check, Result>> {
  // One file per generator: the tier's files run in parallel, and a build taken whole from the cache made no folder.
  const input = join(CACHE, `examples-${generator.name}.json`);
  await mkdir(CACHE, { recursive: true });
  await writeFile(input, JSON.stringify(driverInput(generator.rendition)));
  const fake = await startRecordedFake();
  try {
    await addSourceBranch(fake.baseUrl);
    const driver = await runDriver(generator, built, fake.baseUrl, input);
    const results = driver.results;
    const jobs = results.get('jobs-path-encoded');
    if (jobs?.ok && !fake.requests.some((line) => JOBS_ENCODED.test(line)))
      results.set('jobs-path-encoded', {
        ok: false,
        detail: `the fake saw no GET /api/v4/projects/my-group%2Fmy-project/jobs; it saw:\n${fake.requests.join('\n')}`,
      });
    for (const check of checksOf(generator))
      if (!results.has(check) && !BUILD_CHECKS.includes(check))
        results.set(check, { ok: false, detail: `the driver reported nothing:\n${driver.output}` });
    return results;
  } finally {
    await fake.close();
  }
}

/** Runs the generator, its compile and its driver; the results by check. */
export async function runChecks(generator: Generator): Promise<Map<Check, Result>> {
  const results = new Map<Check, Result>();
  const built: Built = await build(generator);
  results.set('generate', stepResult(built.generate, ''));
  results.set('compile', stepResult(built.compile, 'it generated nothing'));
  if (generator.language === 'python') results.set('mypy', stepResult(built.mypy, 'it generated nothing'));
  if (built.generate.code !== 0) return results;
  if (generator.name === 'ogen') results.set('operations', ogenOperations(built));
  for (const [check, result] of await driveAgainstFake(generator, built)) results.set(check, result);
  return results;
}

export function polyglotTests(name: string): void {
  const generator = generatorNamed(name);
  let results: Map<Check, Result> | undefined;
  let crash: unknown;
  beforeAll(async () => {
    results = await runChecks(generator).catch((error: unknown) => {
      crash = error;
      return undefined;
    });
  }, 1_800_000);
  afterAll(() => undefined);

  const resultOf = (check: Check): Result => {
    if (!results) throw new Error(`${name}: the tier's run failed: ${String(crash)}`);
    return results.get(check) ?? { ok: false, detail: `no result for ${check}` };
  };
  for (const check of checksOf(generator)) {
    const expected = EXPECTED_FAILURES.find((entry) => entry.generator === name && entry.check === check);
    if (expected)
      it(`${name}: ${check}, ${CHECKS[check]}: expected to fail (${expected.cause}: ${expected.reason})`, () => {
        const result = resultOf(check);
        expect(
          result.ok,
          `${name} passes "${check}" now: remove its entry from test/polyglot/expected-failures.json (and the README's row)`,
        ).toBe(false);
      });
    else
      it(`${name}: ${check}, ${CHECKS[check]}`, () => {
        const result = resultOf(check);
        expect(result.ok, `${name} fails "${check}":\n${result.detail}`).toBe(true);
      });
  }
}
