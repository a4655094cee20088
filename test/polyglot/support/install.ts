/**
 * The polyglot tier's global setup: installs its tools once per run, before any of its test files, from the pins of
 * this folder (pins.json, requirements.txt, maven/*\/pom.xml): openapi-generator-cli's jar and the Kotlin compiler from
 * Maven Central (into ~/.m2), oapi-codegen and ogen with `go install` (module and build caches: the user's), the
 * Python tools in a venv (pip's cache: the user's). The venv, the Go tools and the class paths are an entry of the
 * tier's cache in the user's cache folder (cache.ts), keyed by the pins and the toolchains' versions: a later run, from
 * this clone or a fresh one on the same machine, installs nothing while they are unchanged.
 */
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cachedEntry, discardEntry } from './cache.ts';
import { CLASSPATH, GENERATOR_JAR, PINS, PYTHON, run, tail, TIER, TOOLS_KEY, VENV } from './tools.ts';

async function must(what: string, command: string, args: string[]): Promise<void> {
  const result = await run(command, args);
  if (result.code !== 0)
    throw new Error(`test:polyglot: ${what} failed (exit ${result.code}):\n${tail(result.output)}`);
}

async function installMaven(): Promise<void> {
  await must('the openapi-generator-cli jar (mvn dependency:get)', 'mvn', [
    '-q',
    '-B',
    'dependency:get',
    `-Dartifact=org.openapitools:openapi-generator-cli:${PINS['openapi-generator-cli']}`,
    '-Dtransitive=false',
  ]);
  if (!existsSync(GENERATOR_JAR)) throw new Error(`test:polyglot: no ${GENERATOR_JAR} after mvn dependency:get`);
  for (const [name, file] of [
    ['kotlin-compiler', CLASSPATH.kotlinCompiler],
    ['kotlin-client', CLASSPATH.kotlinClient],
  ] as const)
    await must(`Maven's class path of maven/${name}/pom.xml`, 'mvn', [
      '-q',
      '-B',
      '-f',
      join(TIER, 'maven', name, 'pom.xml'),
      'dependency:build-classpath',
      `-Dmdep.outputFile=${file}`,
    ]);
}

async function installGo(): Promise<void> {
  await must('oapi-codegen (go install)', 'go', [
    'install',
    `github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@${PINS['oapi-codegen']}`,
  ]);
  await must('ogen (go install)', 'go', ['install', `github.com/ogen-go/ogen/cmd/ogen@${PINS.ogen}`]);
}

async function installPython(): Promise<void> {
  await rm(VENV, { recursive: true, force: true });
  await must('the venv (python3 -m venv)', 'python3', ['-m', 'venv', VENV]);
  await must('the Python tools (pip install -r requirements.txt)', PYTHON, [
    '-m',
    'pip',
    'install',
    '-q',
    '--no-deps',
    '-r',
    join(TIER, 'requirements.txt'),
  ]);
}

/** Whether what the installed entry names outside it (Maven's jars in ~/.m2) is still there. */
function installed(): boolean {
  const classpath = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split(':') : [file]);
  const jars = [GENERATOR_JAR, ...classpath(CLASSPATH.kotlinCompiler), ...classpath(CLASSPATH.kotlinClient)];
  return existsSync(PYTHON) && jars.every((jar) => existsSync(jar));
}

export default async function installTools(): Promise<void> {
  let made = false;
  const make = async () => {
    made = true;
    const started = performance.now();
    await Promise.all([installMaven(), installGo(), installPython()]);
    console.log(
      `test:polyglot: installed the tools of test/polyglot in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  };
  const folder = await cachedEntry('tools', TOOLS_KEY, make);
  if (made || installed()) return;
  await discardEntry(folder);
  await cachedEntry('tools', TOOLS_KEY, make);
}
