/**
 * The packages tier's npm install from the test's registry, cached between local runs: a project installed from
 * tarballs with the same hashes (as the registry serves them), with the same other dependencies, Node and npm, on the
 * same day, is copied from `.tmp/packages-install/` instead of installed again. The install's time is npm fetching the
 * third-party dependencies (Fastify, Ajv, Prism …) through the registry, from the public one. On CI (`CI` set) every
 * run installs from scratch, and so does the first run of each day: the third-party dependencies' ranges pick up new
 * releases.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, rename, rm, stat, symlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { INSTALL_CACHE as CACHE } from '../../scripts/lib/test-steps.ts';
/** What a project keeps from its install: the rest (.npmrc, tsconfig, sources) each run writes itself. */
const MANIFESTS = ['package.json', 'package-lock.json'];
const INSTALLED = ['node_modules', ...MANIFESTS];

export const installCacheEnabled = (env: NodeJS.ProcessEnv = process.env) => !env.CI || env.CI === 'false';

/** The tarball hash (`dist.integrity`) the registry serves for each of `specs` that is one of `ours` (name@version). */
async function servedIntegrity(registry: string, specs: string[], ours: string): Promise<string[]> {
  return Promise.all(
    specs
      .filter((spec) => spec.startsWith(`${ours}/`))
      .map(async (spec) => {
        const at = spec.lastIndexOf('@');
        const [name, version] = [spec.slice(0, at), spec.slice(at + 1)];
        const answer = await fetch(new URL(name.replace('/', '%2f'), registry));
        if (!answer.ok) throw new Error(`The registry has no ${name}: ${answer.status}`);
        const meta = (await answer.json()) as { versions?: Record<string, { dist?: { integrity?: string } }> };
        const integrity = meta.versions?.[version]?.dist?.integrity;
        if (!integrity) throw new Error(`The registry has no tarball of ${spec}`);
        return `${spec} ${integrity}`;
      }),
  );
}

/** The cache key of an install of `specs`: our tarballs' hashes, the other specs, Node's and npm's versions, the day. */
export async function installKey(registry: string, specs: string[], ours: string): Promise<string> {
  const npm = execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
  const parts = [
    ...(await servedIntegrity(registry, specs, ours)),
    ...specs.filter((spec) => !spec.startsWith(`${ours}/`)),
    process.version,
    npm,
    new Date().toISOString().slice(0, 10),
  ];
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);
}

/**
 * Fills `project` with the install of `key`: a copy of the cached one when there is one, otherwise `install()`'s, then
 * kept (the entries of other keys for the same project name are removed). Says which.
 */
export async function cachedInstall(
  project: string,
  key: string,
  install: () => Promise<void>,
  cache = CACHE,
): Promise<'cached' | 'installed'> {
  const prefix = `${basename(project)}-`;
  const folder = join(cache, `${prefix}${key}`);
  if (await stat(join(folder, 'node_modules')).catch(() => undefined)) {
    // node_modules (150 MB, 15,000 files for the eight packages) is linked, not copied: the tests only read it.
    await mkdir(project, { recursive: true });
    await symlink(join(folder, 'node_modules'), join(project, 'node_modules'), 'dir');
    for (const entry of MANIFESTS) await cp(join(folder, entry), join(project, entry));
    return 'cached';
  }
  await install();
  await mkdir(cache, { recursive: true });
  const ofProject = (name: string) =>
    name.startsWith(prefix) && /^[0-9a-f]{32}(\.partial)?$/.test(name.slice(prefix.length));
  for (const stale of (await readdir(cache)).filter(ofProject))
    await rm(join(cache, stale), { recursive: true, force: true });
  // Written aside, then renamed: a run stopped halfway leaves no partial entry behind under the key.
  const partial = `${folder}.partial`;
  await rm(partial, { recursive: true, force: true });
  for (const entry of INSTALLED)
    await cp(join(project, entry), join(partial, entry), { recursive: true, verbatimSymlinks: true });
  await rename(partial, folder);
  return 'installed';
}
