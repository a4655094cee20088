/**
 * A real npm registry for a test: Verdaccio in this process, its storage in a folder of the test, on 127.0.0.1 and a
 * free port. `scope` is the only scope it accepts publications in, from a user it creates; other packages (openapi-fetch,
 * ajv, fastify …) it fetches from the public registry. Neither scope nor the home scope @service-api has an uplink: a
 * lookup of @service-api/<name> (the aliases our packages depend through) answers 404 instead of reaching the public
 * registry, where that scope is not ours.
 *
 * Verdaccio is not a dependency of the repository: it is test/registry's own (package.json and lock file), installed by
 * the packages tier's global setup (test/registry/install.ts), and loaded from there.
 */
import type { Server } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { HOME_SCOPE } from '../../scripts/lib/packages.ts';
import { ROOT } from '../../scripts/lib/paths.ts';
import { REGISTRY_FOLDER } from '../registry/install.ts';

/** The part of Verdaccio's configuration (its config.yaml as an object) that the test sets. */
interface RegistryConfig {
  self_path: string;
  storage: string;
  auth: { htpasswd: { file: string; max_users: number } };
  uplinks: Record<string, { url: string }>;
  packages: Record<string, { access: string; publish?: string; unpublish?: string; proxy?: string }>;
  log: { type: 'stdout'; format: 'pretty'; level: 'error' };
  web: { enable: boolean };
}

/** Verdaccio's programmatic entry point: an HTTP server, not yet listening, serving the registry `config` describes. */
type RunServer = (config: RegistryConfig) => Promise<Server>;

/**
 * `runServer` of test/registry's own Verdaccio (never one a root install may still hold), or an error naming the
 * command that installs it.
 */
export function loadRunServer(folder = REGISTRY_FOLDER): RunServer {
  const installed = join(folder, 'node_modules', 'verdaccio');
  if (!existsSync(join(installed, 'package.json')))
    throw new Error(
      `Verdaccio is not installed in ${relative(ROOT, folder)}: run \`npm ci --prefix ${relative(ROOT, folder)} --ignore-scripts\` (npm run test:packages does it first)`,
    );
  const { runServer } = createRequire(join(folder, 'package.json'))(installed) as { runServer?: RunServer };
  if (typeof runServer !== 'function') throw new Error(`${installed} has no runServer function`);
  return runServer;
}

export interface RunningRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** An .npmrc holding the publishing user's token for the registry, for `npm_config_userconfig`. */
  userconfig: string;
  close(): Promise<void>;
}

export async function startRegistry(folder: string, scope: string): Promise<RunningRegistry> {
  await mkdir(folder, { recursive: true });
  const ownScope = { access: '$all', publish: '$authenticated', unpublish: '$authenticated' };
  const server = await loadRunServer()({
    self_path: folder,
    storage: join(folder, 'storage'),
    auth: { htpasswd: { file: join(folder, 'htpasswd'), max_users: 1 } },
    uplinks: { npmjs: { url: 'https://registry.npmjs.org/' } },
    packages: {
      [`${scope}/*`]: ownScope,
      [`${HOME_SCOPE}/*`]: { access: '$all' },
      '**': { access: '$all', proxy: 'npmjs' },
    },
    log: { type: 'stdout', format: 'pretty', level: 'error' },
    web: { enable: false },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  try {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    const user = await fetch(`${url}-/user/org.couchdb.user:publisher`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'publisher', password: 'publisher-password' }),
    });
    const { token } = (await user.json()) as { token?: string };
    if (!user.ok || !token) throw new Error(`Verdaccio refused to create the publishing user: ${user.status}`);
    const userconfig = join(folder, 'publisher.npmrc');
    await writeFile(userconfig, `//${new URL(url).host}/:_authToken=${token}\n`);
    return { url, userconfig, close };
  } catch (error) {
    await close();
    throw error;
  }
}
