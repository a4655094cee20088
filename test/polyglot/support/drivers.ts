/**
 * Runs a generator's driver (drivers/<language>/…: short hand-written programs on the generated code) against the
 * fake, and reads the line each check prints: `POLYGLOT {"check": …, "ok": …, "detail": …}`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Built, kotlinCompiler, pythonPackage } from './build.ts';
import { cachedEntry, cacheKey, toolVersions } from './cache.ts';
import type { Check, Result } from './check-names.ts';
import { type Generator, PUBLISHED } from './generators.ts';
import { ROOT } from '../../../scripts/lib/paths.ts';
import { componentName } from '../../../packages/server/src/openapi-model.ts';
import { CACHE, CLASSPATH, PYTHON, type Run, run, tail, TIER } from './tools.ts';

export interface DriverRun {
  results: Map<Check, Result>;
  output: string;
}

export function readReport(output: string): Map<Check, Result> {
  const results = new Map<Check, Result>();
  for (const line of output.split('\n'))
    if (line.startsWith('POLYGLOT ')) {
      const { check, ok, detail } = JSON.parse(line.slice('POLYGLOT '.length)) as { check: Check } & Result;
      results.set(check, { ok, detail });
    }
  return results;
}

const PYTHON_DRIVERS: Record<string, (built: Built) => string[]> = {
  'openapi-python-client': (built) => ['openapi_python_client_driver.py', pythonPackage(built.out)],
  'datamodel-code-generator': () => ['datamodel_code_generator_driver.py'],
  'openapi-generator-python': () => ['openapi_generator_python_driver.py'],
};

function runPython(generator: Generator, built: Built, baseUrl: string, input: string): Promise<Run> {
  const driver = PYTHON_DRIVERS[generator.name];
  if (!driver) return Promise.resolve({ code: 1, output: `no driver for ${generator.name} yet`, stdout: '' });
  const [script, ...rest] = driver(built);
  const folder = join(TIER, 'drivers', 'python');
  return run(PYTHON, [join(folder, script!), baseUrl, input, ...rest], {
    env: { PYTHONPATH: `${built.path}:${folder}` },
    timeout: 300_000,
  });
}

/** Where each Go generator's package is, as the driver imports it: the module path and the folder of its go.mod. */
const GO_PACKAGES: Record<string, { module: string; importPath: string; folder: string }> = {
  'openapi-generator-go': {
    module: 'github.com/GIT_USER_ID/GIT_REPO_ID',
    importPath: 'github.com/GIT_USER_ID/GIT_REPO_ID',
    folder: '',
  },
  'oapi-codegen': { module: 'serviceapi', importPath: 'serviceapi/serviceapi', folder: 'serviceapi' },
  ogen: { module: 'serviceapi', importPath: 'serviceapi/serviceapi', folder: 'serviceapi' },
};

/** `InvitationCreateResult_Invitations` → `InvitationCreateResultInvitations`, as the Go generators name types. */
const goTypeName = (component: string) =>
  component
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

const goSources = (folder: string): string[] =>
  readdirSync(folder)
    .filter((file) => file.endsWith('.go'))
    .map((file) => readFileSync(join(folder, file), 'utf8'));

/**
 * The component a component only renames: one whose schema is `allOf` of a single reference and nothing else that
 * shapes a value (`ImpersonationToken`: `allOf [ImpersonationTokenBase]`). ogen writes no type of its own for it.
 */
function renamed(schemas: Record<string, Record<string, unknown>>, component: string): string | undefined {
  const { allOf, properties, required, ...rest } = schemas[component] ?? {};
  const members = Array.isArray(allOf) ? (allOf as { $ref?: string }[]) : [];
  const shaping = Object.keys(rest).filter((key) => !['description', 'title'].includes(key) && !key.startsWith('x-'));
  if (members.length !== 1 || properties || required || shaping.length > 0) return undefined;
  const ref = members[0]!.$ref;
  return ref === undefined ? undefined : componentName(ref);
}

/**
 * The driver's table of the generated types the examples name (those the generator wrote): a component's own type,
 * or for one that only renames another (`renamed`) and has no type of its own, the other's.
 */
function goModels(sources: string[], components: string[], rendition: Generator['rendition']): string {
  const declared = new Set(sources.flatMap((source) => [...source.matchAll(/^type (\w+) /gm)].map((m) => m[1]!)));
  const document = JSON.parse(readFileSync(join(ROOT, PUBLISHED[rendition]), 'utf8')) as {
    components: { schemas: Record<string, Record<string, unknown>> };
  };
  const typeOf = (component: string): string | undefined => {
    if (declared.has(goTypeName(component))) return goTypeName(component);
    const other = renamed(document.components.schemas, component);
    return other === undefined ? undefined : typeOf(other);
  };
  const entries = [...new Set(components)]
    .filter((component) => typeOf(component) !== undefined)
    .map((component) => `\t${JSON.stringify(component)}: func() any { return new(api.${typeOf(component)}) },`);
  return `var models = map[string]func() any{\n${entries.join('\n')}\n}\n`;
}

/**
 * The driver's table of the constants the generated code declares for each enum (`JobStatusCreated JobStatus =
 * "created"`), by component: Go cannot list a type's constants at run time, so the values come from the compiled
 * constants, whatever the generator wrote.
 */
function goEnumConstants(sources: string[], enums: string[]): string {
  const entries = enums.map((component) => {
    const type = goTypeName(component);
    const constants = sources.flatMap((source) =>
      [...source.matchAll(new RegExp(`^\\s+(\\w+)\\s+${type}\\s*=\\s*"`, 'gm'))].map((m) => `string(api.${m[1]})`),
    );
    return `\t${JSON.stringify(component)}: {${constants.join(', ')}},`;
  });
  return `var enumConstants = map[string][]string{\n${entries.join('\n')}\n}\n`;
}

/** Builds drivers/go/<generator>/main.go (with drivers/go/polyglot) in a module beside the generated one; returns the binary. */
async function buildGoDriver(generator: Generator, built: Built, input: string): Promise<Run & { binary: string }> {
  const target = GO_PACKAGES[generator.name]!;
  const folder = join(CACHE, 'go-drivers', generator.name);
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  await cp(join(TIER, 'drivers', 'go', 'polyglot'), join(folder, 'polyglot'), { recursive: true });
  await cp(join(TIER, 'drivers', 'go', generator.name, 'main.go'), join(folder, 'main.go'));
  const spec = JSON.parse(readFileSync(input, 'utf8')) as { examples: { model: string }[]; enums: object };
  const sources = goSources(join(built.out, target.folder));
  const models = goModels(sources, [...spec.examples.map((e) => e.model), 'Job', 'MergeRequest'], generator.rendition);
  await writeFile(
    join(folder, 'models_gen.go'),
    `package main\n\nimport api "${target.importPath}"\n\n${models}\n${goEnumConstants(sources, Object.keys(spec.enums))}`,
  );
  await writeFile(
    join(folder, 'go.mod'),
    `module polyglotdriver\n\ngo 1.23\n\nrequire ${target.module} v0.0.0\n\nreplace ${target.module} => ${built.out}\n`,
  );
  const binary = join(folder, 'driver');
  const tidy = await run('go', ['mod', 'tidy'], { cwd: folder });
  if (tidy.code !== 0) return { ...tidy, binary };
  return { ...(await run('go', ['build', '-o', binary, '.'], { cwd: folder })), binary };
}

async function runGo(generator: Generator, built: Built, baseUrl: string, input: string): Promise<Run> {
  if (!GO_PACKAGES[generator.name] || !existsSync(join(TIER, 'drivers', 'go', generator.name, 'main.go')))
    return { code: 1, output: `no driver for ${generator.name} yet`, stdout: '' };
  const driver = await buildGoDriver(generator, built, input);
  if (driver.code !== 0) return { ...driver, output: `the driver does not build:\n${tail(driver.output)}` };
  return run(driver.binary, [baseUrl, input], { timeout: 300_000 });
}

/**
 * Compiles a JVM driver (javac or kotlinc) once per driver source and client: its classes are an entry of the tier's
 * cache keyed by both (the client's is its build key) and the toolchains, so a warm run only runs it. Returns the
 * compile's failure, or the classes.
 */
async function compiledDriver(
  built: Built,
  source: string,
  compile: (classes: string) => Promise<Run>,
): Promise<Run & { classes: string }> {
  const key = cacheKey({ kind: 'driver', files: { driver: source }, values: { ...toolVersions(), client: built.key } });
  let failed: Run | undefined;
  try {
    const folder = await cachedEntry('driver', key, async (entry) => {
      const compiled = await compile(join(entry, 'classes'));
      if (compiled.code !== 0) failed = compiled;
      if (failed) throw new Error('the driver does not compile');
    });
    return { code: 0, output: '', stdout: '', classes: join(folder, 'classes') };
  } catch (error) {
    if (!failed) throw error;
    return { ...failed, classes: '' };
  }
}

/** Compiles drivers/java/Driver.java against the compiled client and runs it. */
async function runJava(built: Built, baseUrl: string, input: string): Promise<Run> {
  const classpath = `${join(built.out, 'polyglot-classes')}:${readFileSync(join(built.out, 'polyglot.classpath'), 'utf8').trim()}`;
  const source = join(TIER, 'drivers', 'java', 'Driver.java');
  const compiled = await compiledDriver(built, source, (classes) =>
    run('javac', ['-d', classes, '-cp', classpath, '-encoding', 'UTF-8', source]),
  );
  if (compiled.code !== 0) return { ...compiled, output: `the driver does not compile:\n${tail(compiled.output)}` };
  return run('java', ['-cp', `${compiled.classes}:${classpath}`, 'Driver', baseUrl, input], { timeout: 300_000 });
}

/** Compiles drivers/kotlin/Driver.kt with kotlinc against the compiled client and runs it. */
async function runKotlin(built: Built, baseUrl: string, input: string): Promise<Run> {
  const classpath = `${join(built.out, 'polyglot-classes')}:${readFileSync(CLASSPATH.kotlinClient, 'utf8').trim()}`;
  const source = join(TIER, 'drivers', 'kotlin', 'Driver.kt');
  const compiler = await kotlinCompiler();
  const compiled = await compiledDriver(built, source, (classes) =>
    run('java', [
      ...compiler,
      ...['-no-stdlib', '-no-reflect', '-jvm-target', '17', '-nowarn', '-cp', classpath, '-d', classes],
      source,
    ]),
  );
  if (compiled.code !== 0) return { ...compiled, output: `the driver does not compile:\n${tail(compiled.output)}` };
  return run('java', ['-cp', `${compiled.classes}:${classpath}`, 'DriverKt', baseUrl, input], { timeout: 300_000 });
}

export async function runDriver(
  generator: Generator,
  built: Built,
  baseUrl: string,
  input: string,
): Promise<DriverRun> {
  if (generator.language !== 'python' && built.compile?.code !== 0)
    return { results: new Map(), output: 'not run: the generated code does not compile (see the compile check)' };
  const ran =
    generator.language === 'python'
      ? await runPython(generator, built, baseUrl, input)
      : generator.language === 'go'
        ? await runGo(generator, built, baseUrl, input)
        : generator.language === 'java'
          ? await runJava(built, baseUrl, input)
          : await runKotlin(built, baseUrl, input);
  return { results: readReport(ran.stdout), output: ran.output };
}
