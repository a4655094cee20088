/**
 * The polyglot tier's plumbing: its folders, the pinned versions (pins.json), the environment every tool runs in
 * (Go's and Maven's caches, the tier's Python venv) and running a command with its output kept for the failure message.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, WORK_DIR } from '../../../scripts/lib/paths.ts';
import { cacheKey, entryFolder, toolVersions } from './cache.ts';

/** test/polyglot: pins, drivers, expected failures. */
export const TIER = join(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * What the tier writes in the clone (git-ignored): mypy's cache, the drivers' inputs and the Go drivers' modules. The
 * tools and each generator's output are in the user's cache (cache.ts).
 */
export const CACHE = join(WORK_DIR, 'polyglot');

export interface Pins {
  'openapi-generator-cli': string;
  'oapi-codegen': string;
  'oapi-codegen-runtime': string;
  ogen: string;
}
export const PINS = JSON.parse(readFileSync(join(TIER, 'pins.json'), 'utf8')) as Pins;

/** What the install depends on (with the toolchains' versions): a change to any of them installs again. */
export const INSTALL_INPUTS = {
  'pins.json': join(TIER, 'pins.json'),
  'requirements.txt': join(TIER, 'requirements.txt'),
  'maven/kotlin-compiler/pom.xml': join(TIER, 'maven', 'kotlin-compiler', 'pom.xml'),
  'maven/kotlin-client/pom.xml': join(TIER, 'maven', 'kotlin-client', 'pom.xml'),
  'support/install.ts': join(TIER, 'support', 'install.ts'),
};
export const TOOLS_KEY = cacheKey({ kind: 'tools', files: INSTALL_INPUTS, values: toolVersions() });
/** The installed tools' entry in the user's cache: the venv, the Go tools, the Kotlin class paths. */
export const TOOLS = entryFolder('tools', TOOLS_KEY);

export const VENV = join(TOOLS, 'venv');
export const PYTHON = join(VENV, 'bin', 'python');
/** Go tools installed by `go install`, and the generated Go modules' dependencies (the user's module cache). */
export const GO_BIN = join(TOOLS, 'go-bin');
const HOME = homedir();
export const M2_REPOSITORY = join(HOME, '.m2', 'repository');
export const GENERATOR_JAR = join(
  M2_REPOSITORY,
  'org/openapitools/openapi-generator-cli',
  PINS['openapi-generator-cli'],
  `openapi-generator-cli-${PINS['openapi-generator-cli']}.jar`,
);
/** Class paths the install resolves with Maven (one line each, `:`-separated). */
export const CLASSPATH = {
  kotlinCompiler: join(TOOLS, 'kotlin-compiler.classpath'),
  kotlinClient: join(TOOLS, 'kotlin-client.classpath'),
};

/** The environment of every tool: Go's module cache and build cache are the user's (keyed by content), Go fetches modules. */
export const TOOL_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GOFLAGS: '-mod=mod',
  GOBIN: GO_BIN,
  GOMODCACHE: process.env.GOMODCACHE ?? join(HOME, 'go', 'pkg', 'mod'),
  GOTOOLCHAIN: 'local',
  GOTELEMETRY: 'off',
  PATH: `${join(VENV, 'bin')}:${GO_BIN}:${process.env.PATH}`,
  PYTHONDONTWRITEBYTECODE: '1',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
  NO_COLOR: '1',
  // The generators print their progress in colour and ask no questions; Maven runs batch.
  MAVEN_OPTS: process.env.MAVEN_OPTS ?? '-Xmx1g',
};

export interface Run {
  code: number;
  /** stdout and stderr, for the failure message. */
  output: string;
  stdout: string;
}

/**
 * Runs a command to its end under `nice -n 5` (the machine is shared), never throwing; cwd defaults to the repository
 * root, where the README's commands run.
 */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'nice',
      ['-n', '5', command, ...args],
      {
        cwd: options.cwd ?? ROOT,
        timeout: options.timeout ?? 900_000,
        maxBuffer: 128 * 1024 * 1024,
        env: { ...TOOL_ENV, ...options.env },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        const why = error && typeof error.code !== 'number' ? `\n${error.message}` : '';
        resolve({ code, output: `${stdout}${stderr}${why}`, stdout });
      },
    );
  });
}

/** The last lines of a long output, for a failure message. */
export const tail = (text: string, lines = 40) => text.trim().split('\n').slice(-lines).join('\n');
