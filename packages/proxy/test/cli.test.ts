/**
 * The proxy's command (`npm run proxy`, `service-api-proxy` once packed): the report written on SIGUSR2 and on exit,
 * one log line per disagreement, and clear failures for bad options.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PROXY_URL, printedUrl } from '../../../test/support/command.ts';
import { startWrongUpstream, type WrongUpstream } from '../../../test/support/proxy-upstream.ts';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts the command; resolves once it prints its URL, or rejects with what it printed. */
function run(args: string[]): {
  child: ChildProcess;
  output: () => string;
  url: Promise<string>;
  exited: Promise<number | null>;
} {
  // The command as installed runs it: the compiled dist/ (built by npm run build and npm test's check), without the
  // second of CPU that compiling the sources with tsx costs each start.
  const child = spawn(process.execPath, ['packages/proxy/dist/cli.js', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return { child, ...printedUrl(child, PROXY_URL, 'service-api-proxy') };
}

/** Waits for `condition`, a state; the timeout is a guard against hangs (a loaded machine may take seconds). */
async function until(condition: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(condition()).toBe(true), { timeout: 50_000, interval: 50 });
}

describe('service-api-proxy command', () => {
  let upstream: WrongUpstream;
  const folder = mkdtempSync(join(tmpdir(), 'proxy-cli-'));
  beforeAll(async () => {
    upstream = await startWrongUpstream();
  });
  afterAll(async () => {
    await upstream?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('writes the report on SIGUSR2 and on SIGTERM, and logs each disagreement', async () => {
    const file = join(folder, 'report.json');
    const proxy = run(['--upstream', upstream.url, '--port', '0', '--report', file]);
    const url = await proxy.url;
    await (await fetch(`${url}/api/v4/projects/1/jobs/7`)).arrayBuffer();
    proxy.child.kill('SIGUSR2');
    await until(() => existsSync(file));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      requests: 1,
      operations: { 'jobs/get-project-job': { statuses: { '418': 1 } } },
    });
    await (await fetch(`${url}/api/v4/projects/2/jobs`)).arrayBuffer();
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      requests: 2,
      operations: {
        'jobs/list-project-jobs': { disagreements: [{ kind: 'missing-header', detail: '301 without location' }] },
      },
    });
    expect(proxy.output()).toMatch(
      /✖ jobs\/get-project-job undocumented-status: status 418 \(GET \/api\/v4\/projects\/1\/jobs\/7\)/,
    );
  });

  it.each([
    [[], /--upstream is required/],
    [['--upstream', 'not a url'], /--upstream must be a URL/],
    [['--upstream', 'http://127.0.0.1:1', '--timeout', 'soon'], /--timeout must be a positive number/],
    [['--upstream', 'ftp://127.0.0.1'], /must be an http: or https: URL/],
  ])('fails clearly for %j', async (args, message) => {
    const proxy = run([...args, '--port', '0']);
    await expect(proxy.url).rejects.toThrow(message);
    expect(await proxy.exited).toBe(1);
  });
});
