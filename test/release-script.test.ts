/**
 * `npm run release` refuses bad arguments (a `--contract` that is no release version), an unusable registry or scope
 * and a registry that does not answer before its check of generated/, and asks the registry which versions it has
 * (a stand-in registry on 127.0.0.1).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGES } from '../scripts/lib/packages.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import { registryVersions } from '../scripts/lib/publish.ts';
import { isReleaseVersion } from '../scripts/lib/releases.ts';

describe('npm run release checks its arguments and the registry before the long check', () => {
  const release = (args: string[]) =>
    spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'scripts/release.ts'), ...args],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, npm_config_update_notifier: 'false' },
      },
    );
  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['1.0.0'], /Unexpected argument '1.0.0'/],
    [['--registry', 'http://localhost:4873/'], /--registry and --scope go with --publish/],
    [['--publish', '--registry', 'ftp://example.org/'], /is not an http\(s\) URL/],
    [['--publish', '--scope', 'Acme'], /--scope Acme is not an npm scope/],
    [['--publish', '--registry', 'http://127.0.0.1:9/'], /the registry http:\/\/127\.0\.0\.1:9\/ does not answer/],
    [['--contract', '0.7'], /--contract 0\.7 is not a release version/],
    [['--contract', '0.7.0-rc.1', '--dry-run'], /--contract 0\.7\.0-rc\.1 is not a release version/],
    [['--publish', '--contract', '0.7.0'], /--contract does not go with --publish/],
  ])('%j fails before checking generated/', (args, message) => {
    const run = release(args);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).not.toMatch(/Checking that generated\/|Bundling openapi\//);
  });
});

/** A stand-in registry that has @acme/client 0.4.0 and 0.5.0 and nothing else. */
function standInRegistry() {
  return createServer((request, response) => {
    const url = decodeURIComponent(request.url ?? '');
    response.setHeader('content-type', 'application/json');
    if (url.startsWith('/-/ping')) return response.end('{}');
    if (url === '/@acme/client') {
      const versions = Object.fromEntries(
        ['0.4.0', '0.5.0'].map((v) => [v, { name: '@acme/client', version: v, dist: { tarball: 'x', shasum: 'x' } }]),
      );
      return response.end(JSON.stringify({ name: '@acme/client', 'dist-tags': { latest: '0.5.0' }, versions }));
    }
    response.statusCode = 404;
    response.end('{"error":"not found"}');
  });
}

describe('the registry is asked which versions it has', () => {
  it('lists the versions of each package, none for a package it has never seen', async () => {
    const server = standInRegistry();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const cache = mkdtempSync(join(tmpdir(), 'service-api-npm-cache-'));
    try {
      const registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const versions = await registryVersions({ registry, scope: '@acme', env: { npm_config_cache: cache } });
      expect(versions.get('@acme/client')).toEqual(['0.4.0', '0.5.0']);
      expect(versions.get('@acme/types')).toEqual([]);
      expect([...versions.keys()].sort()).toEqual(PACKAGES.map((p) => `@acme/${p.name}`).sort());
    } finally {
      server.close();
      rmSync(cache, { recursive: true, force: true });
    }
  });
});

/** The release script run without blocking this process, which serves the stand-in registry. */
function releaseAsync(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'scripts/release.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, npm_config_update_notifier: 'false', ...env } },
    );
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

const contract = (
  JSON.parse(readFileSync(join(ROOT, 'generated/openapi/openapi.json'), 'utf8')) as { info: { version: string } }
).info.version;
describe.skipIf(isReleaseVersion(contract))('between releases (a pre-release info.version)', () => {
  it('--publish refuses before the long check: the packages would state the pre-release contract', async () => {
    const server = standInRegistry();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const cache = mkdtempSync(join(tmpdir(), 'service-api-npm-cache-'));
    try {
      const registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const run = await releaseAsync(['--publish', '--registry', registry, '--scope', '@acme'], {
        npm_config_cache: cache,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(`info\\.version ${contract.replace(/\./g, '\\.')} is a pre-release: publish from a release commit`),
      );
      expect(run.stdout).not.toMatch(/Checking that generated\//);
    } finally {
      server.close();
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
