/**
 * The fake's command (`npm run fake`, `service-api-fake` once packed): --port, --host, --data, --any-token, and the
 * list of implemented operations in docs/fake.md, which must be the code's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { printedUrl } from '../../../test/support/command.ts';
import { defaultData, implementedOperations } from '../src/index.ts';
import { routes } from '@service-api/server';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

/** Starts the command and resolves to the URL it prints, or rejects with what it printed on failure. */
function run(args: string[]): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  // The command as installed runs it: the compiled dist/ (built by npm run build and npm test's check), without the
  // second of CPU that compiling the sources with tsx costs each start.
  const child = spawn(process.execPath, ['packages/fake/dist/cli.js', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const started = printedUrl(child, /listening on (http:\/\/\S+)\/api\/v4/, 'service-api-fake');
  return started.url.then((url) => ({ url, child, output: started.output }));
}

describe('service-api-fake command', () => {
  it('serves a --data file on --port 0 and --host, and --any-token makes every token the administrator', async () => {
    const data = defaultData();
    data.merge_requests = data.merge_requests.filter((m) => m.iid === 1 && m.project_id === 1);
    const file = join(mkdtempSync(join(tmpdir(), 'fake-')), 'data.json');
    writeFileSync(file, JSON.stringify(data));
    const { url } = await run(['--port', '0', '--host', '127.0.0.1', '--data', file, '--any-token']);
    const response = await fetch(`${url}/api/v4/projects/1/merge_requests`, {
      headers: { 'PRIVATE-TOKEN': 'whatever-you-have' },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBe(1);
    const limits = await fetch(`${url}/api/v4/application/plan_limits`, { headers: { 'PRIVATE-TOKEN': 'anything' } });
    expect(limits.status).toBe(200); // administrator-only: the token is the administrator
  });

  it('fails with a clear message on a bad --data file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'fake-')), 'bad.json');
    writeFileSync(file, '{"users": 1}');
    await expect(run(['--port', '0', '--data', file])).rejects.toThrow(/"users" must be an array/);
  });

  // The command helpers of @service-api/server/command, which the mock and the proxy share.
  it.each([
    [['--port', '99999'], /--port must be a number from 0 to 65535, got "99999"/],
    [['--port', 'abc'], /--port must be a number from 0 to 65535, got "abc"/],
    [['--port'], /--port.*argument missing/],
    [['--bogus'], /Unknown option '--bogus'[\s\S]*Usage: service-api-fake/],
  ])('fails with exit 1 and a clear message for %j', async (args, message) => {
    await expect(run(args)).rejects.toThrow(message);
    expect(children.at(-1)!.exitCode).toBe(1);
  });

  it('names --port when the port is in use', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      await expect(run(['--port', String(port)])).rejects.toThrow(
        `Port ${port} is in use: pass --port with a free port`,
      );
    } finally {
      taken.close();
    }
  });
});

describe('docs/fake.md', () => {
  it('lists exactly the operations the fake implements', () => {
    const doc = readFileSync('docs/fake.md', 'utf8');
    const section = doc.slice(
      doc.indexOf('<!-- fake-operations:start -->'),
      doc.indexOf('<!-- fake-operations:end -->'),
    );
    const listed = [...section.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]);
    expect(listed, 'regenerate with: node --import tsx packages/fake/scripts/operations-list.mts').toEqual(
      implementedOperations,
    );
    expect(section).toContain(`${implementedOperations.length} of the ${routes.length} operations`);
    for (const id of implementedOperations) expect(routes.some((r) => r.id === id)).toBe(true);
  });
});

describe('service-api-fake --cors', () => {
  const jobs = (url: string, origin: string) =>
    fetch(`${url}/api/v4/projects/1/jobs`, { headers: { 'PRIVATE-TOKEN': 'developer-token', Origin: origin } });

  it('alone: any origin without credentials', async () => {
    const { url } = await run(['--port', '0', '--cors']);
    const response = await jobs(url, 'http://evil.test');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('with origins, repeated or a comma list: exactly those, with credentials', async () => {
    const { url } = await run([
      '--cors',
      'http://localhost:5173,http://a.test',
      '--cors',
      'http://b.test',
      '--port',
      '0',
    ]);
    for (const origin of ['http://localhost:5173', 'http://a.test', 'http://b.test']) {
      const response = await jobs(url, origin);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    }
    for (const origin of ['http://evil.test', 'null'])
      expect((await jobs(url, origin)).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('fails with a clear message on something that is not an origin', async () => {
    await expect(run(['--port', '0', '--cors', 'localhost:5173'])).rejects.toThrow(/is not an origin/);
  });
});
