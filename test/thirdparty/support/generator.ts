/**
 * The tests every generator gets, one per check so that a failure names the tool and the check: it generates without
 * error (its output in the failure), its output compiles under strict tsc, and each fidelity probe of
 * probes/<tool>/ compiles (their `@ts-expect-error` lines meet the errors they expect). The tool's test file adds its
 * runtime checks on the loaded output. The run and tsc's verdict come from the tier's cache when an earlier run made
 * them from the same inputs (cache.ts); the checks run every time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, expect, it } from 'vitest';
import { generatedAndCompiled } from './cache.ts';
import { type Compiled, OUT, outputErrors, type Run, TIER } from './tools.ts';

export interface GeneratorRun {
  /** The tool's run; undefined before the tier's beforeAll. */
  generated(): Run;
  /** Imports a module the tool wrote (`load('zod.gen.ts')`); fails the test, with the tool's output, when it wrote none. */
  load<T = Record<string, unknown>>(file: string): Promise<T>;
}

/** The first line of a probe's doc comment (`Fidelity (types): enums stay unions …`). */
function probeTitle(tool: string, file: string): string {
  const text = readFileSync(join(TIER, 'probes', tool, file), 'utf8');
  return /\/\*\*\s*(.+?)\s*\*\//.exec(text)?.[1] ?? file;
}

/**
 * A tool's own bug that no portable shape of the document avoids (README.md, "Known bugs"): the tsc diagnostics it
 * causes in the tool's output. Its test expects them, so that a fix upstream is noticed; they are left out of the
 * compile test, which still fails on any other error.
 */
export interface KnownBug {
  title: string;
  /** The upstream issue (`orval-labs/orval#1234`). */
  issue: string;
  diagnostic: RegExp;
}

export function generatorTests(
  tool: string,
  what: string,
  generate: (out: string) => Promise<Run>,
  knownBugs: KnownBug[] = [],
): GeneratorRun {
  let generated: Run | undefined;
  let compiled: Compiled | undefined;
  const failedGeneration = () => `${tool} generated nothing usable (exit ${generated?.code}):\n${generated?.output}`;

  beforeAll(async () => {
    ({ generated, compiled } = await generatedAndCompiled(tool, generate));
  }, 900_000);

  it(`${tool}: ${what}`, () => {
    expect(generated?.code, generated?.output).toBe(0);
  });

  it(`${tool}: its output and the libraries it imports compile under strict tsc (exactOptionalPropertyTypes, skipLibCheck: false)`, () => {
    if (!compiled) throw new Error(failedGeneration());
    const unknown = outputErrors(compiled).filter((e) => !knownBugs.some((b) => b.diagnostic.test(e)));
    expect(unknown.join('\n')).toBe('');
  });

  for (const bug of knownBugs)
    it(`${tool}: known bug, ${bug.title} (${bug.issue}; this test fails once it is fixed)`, () => {
      if (!compiled) throw new Error(failedGeneration());
      expect(outputErrors(compiled).filter((e) => bug.diagnostic.test(e))).not.toEqual([]);
    });

  const probes = readdirSync(join(TIER, 'probes', tool)).filter((file) => file.endsWith('.ts'));
  for (const probe of probes)
    it(`${tool}: ${probeTitle(tool, probe)} (probes/${tool}/${probe})`, () => {
      if (!compiled) throw new Error(failedGeneration());
      // tsc that did not run to its end (killed, out of memory) reports no diagnostics: that is no pass.
      const tsc = compiled.errors.get('(tsc)');
      if (tsc) throw new Error(`tsc did not check the probes:\n${tsc.join('\n')}`);
      expect((compiled.errors.get(`probes/${tool}/${probe}`) ?? []).join('\n')).toBe('');
    });

  return {
    generated: () => {
      if (!generated) throw new Error(`${tool} has not run`);
      return generated;
    },
    load: async <T>(file: string) => {
      if (generated?.code !== 0) throw new Error(failedGeneration());
      return (await import(pathToFileURL(join(OUT, tool, file)).href)) as T;
    },
  };
}

/** A fetch that records the URLs it is asked for and answers 200 with a JSON body: the SDK's request, seen offline. */
export function fetchStub(body: unknown = []) {
  const urls: string[] = [];
  const fetch = async (input: RequestInfo | URL, _init?: RequestInit) => {
    urls.push(input instanceof Request ? input.url : String(input));
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, urls };
}

/** The project path every SDK must send encoded: `my-group%2Fmy-project`, one path segment. */
export const PROJECT_PATH = 'my-group/my-project';
export const ENCODED_PROJECT_PATH = '/projects/my-group%2Fmy-project/';
