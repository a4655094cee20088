/**
 * Publishing the packages to an npm registry under a scope (`npm run release -- --publish`). Each package is packed
 * with `npm pack` (which runs its prepack build), its packed package.json is renamed into the scope on a copy, and
 * the copy is published; the repository's own package.json files are never changed.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import semver from 'semver';
import { ROOT } from './paths.ts';
import { HOME_SCOPE, PACKAGES, type PackageManifest, type PackageName, readManifest } from './packages.ts';

const execFileAsync = promisify(execFile);

/** Verdaccio's address when it runs on the maintainer's machine: never the public registry, where the home scope is not ours. */
export const DEFAULT_REGISTRY = 'http://localhost:4873/';
export const DEFAULT_SCOPE = HOME_SCOPE;
const PUBLIC_REGISTRY_HOST = 'registry.npmjs.org';

export interface PublishOptions {
  /** The registry's URL, http or https. */
  registry: string;
  /** The scope the packages are published under, `@service-api` or a team's own (`@acme`). */
  scope: string;
  /** Everything but the publishing itself: `npm publish --dry-run`. */
  dryRun?: boolean;
  /**
   * Every package's `dist/` is current (the caller has just run the check, which builds them): packed without running
   * each package's `prepack`, which would check the same again.
   */
  built?: boolean;
  /** Extra environment for npm, such as `npm_config_userconfig` naming an .npmrc with the registry's token. */
  env?: Record<string, string>;
  log?: (line: string) => void;
}

export interface PublishedPackage {
  /** The published name, in the scope: `@acme/client`. */
  name: string;
  version: string;
  action: 'published' | 'skipped';
}

/** Why the registry URL or the scope cannot be used, or undefined when both can. */
export function targetProblem(registry: string, scope: string): string | undefined {
  let url: URL;
  try {
    url = new URL(registry);
  } catch {
    return `--registry ${registry} is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `--registry ${registry} is not an http(s) URL`;
  if (!/^@[a-z0-9][a-z0-9._~-]*$/.test(scope))
    return `--scope ${scope} is not an npm scope (@ and lower-case letters, digits, - . _ ~)`;
  if (scope === HOME_SCOPE && url.hostname === PUBLIC_REGISTRY_HOST)
    return `${HOME_SCOPE} on the public registry is not ours: publish under your own scope (--scope @yours)`;
  return undefined;
}

/**
 * The packed package.json of one of our packages, published under `scope`: its name in the scope, and each dependency
 * on another of our packages an npm alias (`"@service-api/types": "npm:@acme/types@0.5.0"`), so that the code, which
 * imports `@service-api/<name>`, finds it where npm installs it. Under the home scope, the manifest unchanged.
 */
export function scopedManifest<M extends PackageManifest>(manifest: M, scope: string): M {
  if (scope === HOME_SCOPE) return manifest;
  const ours = new Set(PACKAGES.map((p) => `${HOME_SCOPE}/${p.name}`));
  const rename = (name: string) => `${scope}/${name.slice(HOME_SCOPE.length + 1)}`;
  const aliased = (dependencies: Record<string, string> | undefined) =>
    dependencies &&
    Object.fromEntries(
      Object.entries(dependencies).map(([name, range]) => [
        name,
        ours.has(name) ? `npm:${rename(name)}@${range}` : range,
      ]),
    );
  return {
    ...manifest,
    name: rename(manifest.name),
    ...(manifest.dependencies && { dependencies: aliased(manifest.dependencies) }),
    ...(manifest.peerDependencies && { peerDependencies: aliased(manifest.peerDependencies) }),
    ...(manifest.optionalDependencies && { optionalDependencies: aliased(manifest.optionalDependencies) }),
  };
}

/**
 * What the registry has of each package (`@acme/client` → its versions), asked before any long step: throws when the
 * registry does not answer. A package it has never seen has no versions.
 */
export async function registryVersions(
  options: Pick<PublishOptions, 'registry' | 'scope' | 'env'>,
): Promise<Map<string, string[]>> {
  const problem = targetProblem(options.registry, options.scope);
  if (problem) throw new Error(problem);
  const npm = (args: string[]) => runNpm([...args, ...registryFlags(options)], ROOT, options.env);
  await npm(['ping', '--fetch-retries=0']).catch((error: Error) => {
    const reason = error.message
      .split('\n')
      .filter((line) => /\b(E[A-Z0-9]+|error)\b/.test(line) && !/complete log/.test(line));
    throw new Error(`the registry ${options.registry} does not answer (npm ping): ${reason.at(0) ?? error.message}`);
  });
  const entries = await Promise.all(
    PACKAGES.map(async (pkg) => {
      const name = `${options.scope}/${pkg.name}`;
      try {
        const text = (await npm(['view', name, 'versions', '--json'])).trim();
        const versions = text === '' ? [] : (JSON.parse(text) as string | string[]);
        return [name, Array.isArray(versions) ? versions : [versions]] as const;
      } catch (error) {
        if (/\bE404\b/.test((error as Error).message)) return [name, []] as const;
        throw error;
      }
    }),
  );
  return new Map(entries.map(([name, versions]) => [name, [...versions]]));
}

/** Publishes every package the registry lacks, in dependency order; those whose name@version it has are skipped. */
export async function publishPackages(options: PublishOptions): Promise<PublishedPackage[]> {
  const problem = targetProblem(options.registry, options.scope);
  if (problem) throw new Error(problem);
  const log = options.log ?? console.log;
  const npm = (args: string[], cwd = ROOT) => runNpm([...args, ...registryFlags(options)], cwd, options.env);
  const planned = await Promise.all(
    PACKAGES.map(async (pkg) => {
      const { version } = readManifest(pkg.name);
      const name = `${options.scope}/${pkg.name}`;
      return { pkg, name, version, present: await registryHas(npm, `${name}@${version}`) };
    }),
  );
  const missing = planned.filter((p) => !p.present);
  const work = await mkdtemp(join(tmpdir(), 'service-api-publish-'));
  try {
    // One npm process packs them all; unless `built`, it runs each package's prepack (the build of its dist/).
    const packed =
      missing.length === 0
        ? []
        : (JSON.parse(
            await runNpm(
              [
                'pack',
                ...missing.map((p) => join(ROOT, p.pkg.folder)),
                '--pack-destination',
                work,
                '--json',
                ...(options.built ? ['--ignore-scripts'] : []),
              ],
              ROOT,
              options.env,
            ),
          ) as { name: string; filename: string }[]);
    const publishOne = async ({ pkg, name, version, present }: (typeof planned)[number]): Promise<PublishedPackage> => {
      if (present) {
        log(`skipped ${name}@${version}: the registry has it already`);
        return { name, version, action: 'skipped' };
      }
      const tarball = packed.find((p) => p.name === `${HOME_SCOPE}/${pkg.name}`)!.filename;
      const folder = join(work, pkg.name);
      await mkdir(folder);
      await execFileAsync('tar', ['-xzf', join(work, tarball), '-C', folder]);
      const manifestPath = join(folder, 'package', 'package.json');
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as PackageManifest;
      await writeFile(manifestPath, `${JSON.stringify(scopedManifest(manifest, options.scope), null, 2)}\n`);
      // The packed copy is built already: its prepack must not run again. npm publishes a pre-release (the document's
      // package between releases, 0.6.1-dev.1) only under a dist-tag of its own, never as `latest`.
      const preRelease = semver.prerelease(version);
      await npm([
        'publish',
        join(folder, 'package'),
        '--ignore-scripts',
        ...(preRelease ? ['--tag', String(preRelease[0])] : []),
        ...(options.dryRun ? ['--dry-run'] : []),
      ]);
      log(`${options.dryRun ? 'would publish' : 'published'} ${name}@${version}`);
      return { name, version, action: 'published' };
    };
    // Level by level (a package after the ones it depends on), the packages of one level together.
    const published = new Map<string, PublishedPackage>();
    for (const level of dependencyLevels(planned.map((p) => p.pkg.name)))
      for (const result of await Promise.all(planned.filter((p) => level.includes(p.pkg.name)).map(publishOne)))
        published.set(result.name, result);
    return planned.map((p) => published.get(p.name)!);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Our packages in levels: each after every one of ours it depends on (`dependencies` of its package.json), so that a
 * registry never holds a package whose dependency is missing; the packages of one level do not depend on each other.
 */
export function dependencyLevels(names: readonly PackageName[]): PackageName[][] {
  const depth = new Map<PackageName, number>();
  const depthOf = (name: PackageName): number => {
    const known = depth.get(name);
    if (known !== undefined) return known;
    const ours = Object.keys(readManifest(name).dependencies ?? {})
      .filter((d) => d.startsWith(`${HOME_SCOPE}/`))
      .map((d) => d.slice(HOME_SCOPE.length + 1) as PackageName);
    const value = ours.length === 0 ? 0 : 1 + Math.max(...ours.map(depthOf));
    depth.set(name, value);
    return value;
  };
  const levels: PackageName[][] = [];
  for (const name of names) (levels[depthOf(name)] ??= []).push(name);
  return levels.filter(Boolean);
}

/** The registry for every package, and for the scope too: a `@scope:registry` in the user's .npmrc would win otherwise. */
function registryFlags(options: PublishOptions): string[] {
  return [`--registry=${options.registry}`, `--${options.scope}:registry=${options.registry}`];
}

/** Whether the registry has `spec` (name@version): npm view prints its version, nothing or E404 when it has not. */
async function registryHas(npm: (args: string[]) => Promise<string>, spec: string): Promise<boolean> {
  try {
    return (await npm(['view', spec, 'version', '--json'])).trim() !== '';
  } catch (error) {
    if (/\bE404\b/.test((error as Error).message)) return false;
    throw error;
  }
}

async function runNpm(args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await execFileAsync('npm', args, {
      cwd,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, npm_config_loglevel: 'error', npm_config_update_notifier: 'false', ...env },
    });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`npm ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? e.message}`);
  }
}
