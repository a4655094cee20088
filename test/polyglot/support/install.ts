/**
 * The polyglot tier's global setup: installs its tools once per run, before any of its test files, from the pins of
 * this folder (pins.json, requirements.txt, maven/*\/pom.xml): openapi-generator-cli's jar and the Kotlin compiler from
 * Maven Central (into ~/.m2), oapi-codegen and ogen with `go install` (module and build caches: the user's), the
 * Python tools in a venv (pip's cache: the user's). A stamp of the pins' hash in .tmp/polyglot/ makes a later local run
 * with the same pins install nothing; a fresh clone (CI) installs, from those user caches when they are there.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CACHE,
  CLASSPATH,
  GENERATOR_JAR,
  hashFiles,
  INSTALL_INPUTS,
  PINS,
  PYTHON,
  run,
  tail,
  TIER,
  VENV,
} from './tools.ts';

const STAMP = join(CACHE, '.installed.sha256');

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

export default async function installTools(): Promise<void> {
  await mkdir(CACHE, { recursive: true });
  const hash = hashFiles(INSTALL_INPUTS);
  if ((await readFile(STAMP, 'utf8').catch(() => '')).trim() === hash && existsSync(PYTHON)) return;
  const started = performance.now();
  await rm(STAMP, { force: true });
  await Promise.all([installMaven(), installGo(), installPython()]);
  await writeFile(STAMP, `${hash}\n`);
  console.log(
    `test:polyglot: installed the tools of test/polyglot in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
