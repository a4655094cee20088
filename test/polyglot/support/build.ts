/**
 * Generates a generator's code and compiles it as its language's build does: javac against the generated pom's
 * dependencies (resolved by Maven), kotlinc (Maven Central's compiler, run with java) against the libraries the
 * generated build names, `go build` + `go vet`, and for Python `pip install` + import, then `mypy --strict` where the
 * generator claims typing. The output and what the steps found are an entry of the tier's cache in the user's cache
 * folder (cache.ts), keyed by everything that decides them (the rendition's bytes, the command and its options, the
 * pins, this tier's build code, the toolchains' versions): a later run on the same inputs, from this clone or a fresh
 * one, generates and compiles nothing; the checks and the drivers still run on it every time.
 */
import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ROOT } from '../../../scripts/lib/paths.ts';
import { cachedEntry, cacheKey, type KeyInputs, toolVersions } from './cache.ts';
import { type Generator, PUBLISHED, tierCommand } from './generators.ts';
import { CACHE, CLASSPATH, PINS, PYTHON, type Run, run, tail, TIER, VENV } from './tools.ts';

export interface Step {
  code: number;
  output: string;
}

export interface Built {
  key: string;
  generate: Step;
  /** Build, install and import. */
  compile?: Step;
  /** Python: mypy --strict over the generated package. */
  mypy?: Step;
  /** Where the generated code is, and (Python) the folder to put on the path, (Java, Kotlin) its classes. */
  out: string;
  path?: string;
}

const SKIPPED: Step = { code: -1, output: 'not run: an earlier step failed' };
const step = (result: Run, lines = 60): Step => ({ code: result.code, output: tail(result.output, lines) });

/** The first step that failed, or the last one, as the compile result of several steps. */
async function steps(...commands: (() => Promise<Run>)[]): Promise<Step> {
  let last: Step = { code: 0, output: '' };
  for (const command of commands) {
    last = step(await command());
    if (last.code !== 0) return last;
  }
  return last;
}

const sourcesUnder = (folder: string, extension: string): string[] =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(extension))
    .map((file) => join(folder, file));

async function compileJava(out: string): Promise<Step> {
  const classpath = join(out, 'polyglot.classpath');
  const classes = join(out, 'polyglot-classes');
  await writeFile(join(out, 'sources.txt'), sourcesUnder(join(out, 'src', 'main', 'java'), '.java').join('\n'));
  return steps(
    () =>
      run(
        'mvn',
        ['-q', '-B', 'dependency:build-classpath', '-Dmdep.includeScope=runtime', `-Dmdep.outputFile=${classpath}`],
        {
          cwd: out,
        },
      ),
    async () =>
      run(
        'javac',
        [
          '-d',
          classes,
          '-cp',
          await readFile(classpath, 'utf8'),
          '-encoding',
          'UTF-8',
          '-proc:none',
          '-parameters',
          '-nowarn',
          '-Xmaxerrs',
          '100000',
          '@sources.txt',
        ],
        {
          cwd: out,
        },
      ),
  );
}

export const kotlinCompiler = async () => [
  '-cp',
  (await readFile(CLASSPATH.kotlinCompiler, 'utf8')).trim(),
  'org.jetbrains.kotlin.cli.jvm.K2JVMCompiler',
];

async function compileKotlin(out: string): Promise<Step> {
  const compiler = await kotlinCompiler();
  const libraries = (await readFile(CLASSPATH.kotlinClient, 'utf8')).trim();
  return steps(() =>
    run('java', [
      ...compiler,
      '-no-stdlib',
      '-no-reflect',
      '-jvm-target',
      '17',
      '-nowarn',
      '-cp',
      libraries,
      '-d',
      join(out, 'polyglot-classes'),
      join(out, 'src', 'main', 'kotlin'),
    ]),
  );
}

/** The Go module the tier writes around a package generated without one (oapi-codegen, ogen): the generator's runtime pinned. */
const GO_MODULES: Record<string, string> = {
  'oapi-codegen': `require github.com/oapi-codegen/runtime ${PINS['oapi-codegen-runtime']}`,
  ogen: `require github.com/ogen-go/ogen ${PINS.ogen}`,
};

async function compileGo(generator: Generator, out: string): Promise<Step> {
  const own = GO_MODULES[generator.name];
  if (own) await writeFile(join(out, 'go.mod'), `module serviceapi\n\ngo 1.23\n\n${own}\n`);
  const packages = own ? './serviceapi/...' : '.';
  return steps(
    () => (own ? run('go', ['mod', 'tidy'], { cwd: out }) : run('go', ['mod', 'download'], { cwd: out })),
    () => run('go', ['build', packages], { cwd: out }),
    () => run('go', ['vet', packages], { cwd: out }),
  );
}

/** The generated Python package: the folder of `out` with an `__init__.py` (one module for datamodel-code-generator). */
export function pythonPackage(out: string): string {
  const found = readdirSync(out).filter((name) => existsSync(join(out, name, '__init__.py')) && name !== 'test');
  if (found.length !== 1) throw new Error(`expected one Python package in ${out}, found ${found.join(', ') || 'none'}`);
  return found[0]!;
}

const MYPY = () => [
  join(VENV, 'bin', 'mypy'),
  '--strict',
  '--cache-dir',
  join(CACHE, 'mypy-cache'),
  '--no-error-summary',
];

async function compilePython(generator: Generator, out: string, built: Built): Promise<void> {
  if (generator.name === 'datamodel-code-generator') {
    built.path = out;
    built.compile = step(await run(PYTHON, ['-c', 'import service_api_models'], { cwd: out }));
    built.mypy =
      built.compile.code === 0
        ? step(await run(MYPY()[0]!, [...MYPY().slice(1), 'service_api_models.py'], { cwd: out }))
        : SKIPPED;
    return;
  }
  const name = pythonPackage(out);
  const site = join(out, 'polyglot-site');
  const installed = await run(PYTHON, [
    '-m',
    'pip',
    'install',
    '-q',
    '--no-deps',
    '--no-build-isolation',
    '--target',
    site,
    out,
  ]);
  // When the install fails (the package's metadata), the fidelity checks still read the package from its folder.
  built.path = installed.code === 0 ? site : out;
  built.compile =
    installed.code !== 0 ? step(installed) : step(await run(PYTHON, ['-c', `import ${name}`], { cwd: site }));
  built.mypy = step(
    await run(MYPY()[0]!, [...MYPY().slice(1), '-p', name], { cwd: built.path, env: { MYPYPATH: built.path } }),
  );
}

async function compile(generator: Generator, out: string, built: Built): Promise<void> {
  if (generator.language === 'python') return compilePython(generator, out, built);
  if (generator.language === 'java') built.compile = await compileJava(out);
  else if (generator.language === 'kotlin') built.compile = await compileKotlin(out);
  else built.compile = await compileGo(generator, out);
}

/** What else a language's output and compile depend on (the document, the tier's build code and the command aside). */
const KEY_INPUTS: Record<Generator['language'], string[]> = {
  java: ['pins.json'],
  kotlin: ['pins.json', 'maven/kotlin-compiler/pom.xml', 'maven/kotlin-client/pom.xml'],
  go: ['pins.json', 'ogen.yml'],
  python: ['requirements.txt'],
};
const BUILD_CODE = ['support/build.ts', 'support/generators.ts', 'support/tools.ts', 'support/cache.ts'];

/** The inputs of a generator's entry: its files by their name in test/polyglot, never by a path of this clone. */
export function buildInputs(generator: Generator): KeyInputs {
  const files = Object.fromEntries(
    [...BUILD_CODE, ...KEY_INPUTS[generator.language]].map((name) => [name, join(TIER, name)]),
  );
  return {
    kind: 'build',
    files: { ...files, rendition: join(ROOT, PUBLISHED[generator.rendition]) },
    values: {
      ...toolVersions(),
      generator: generator.name,
      command: JSON.stringify([generator.program.readme, ...generator.args]),
    },
  };
}

/** Generates and compiles, or returns what a run on the same inputs found. */
export async function build(generator: Generator): Promise<Built> {
  const key = cacheKey(buildInputs(generator));
  const folder = await cachedEntry('build', key, async (entry) => {
    const out = join(entry, 'out');
    await mkdir(out);
    const [program, ...args] = tierCommand(generator, out);
    const built: Built = { key, out, generate: step(await run(program!, args)) };
    if (built.generate.code === 0) await compile(generator, out, built);
    // The entry's own paths are kept relative to it: they are read back from wherever the cache is.
    const record: Built = { ...built, out: '.', ...(built.path && { path: relative(out, built.path) || '.' }) };
    await writeFile(join(entry, 'built.json'), `${JSON.stringify(record, null, 2)}\n`);
  });
  const out = join(folder, 'out');
  const record = JSON.parse(await readFile(join(folder, 'built.json'), 'utf8')) as Built;
  return { ...record, out, ...(record.path && { path: join(out, record.path) }) };
}

/** Copies a driver of test/polyglot/drivers/ next to the generated code. */
export const copyDriver = (from: string, to: string) => cp(join(TIER, 'drivers', from), to, { recursive: true });
