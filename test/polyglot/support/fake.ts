/**
 * The fake a generated client calls: the built `service-api-fake` command (packages/fake/dist/cli.js) on 127.0.0.1,
 * behind a small recording proxy that keeps each request line as it came on the wire (`/projects/my-group%2Fmy-project/jobs`),
 * which the fake's own answer cannot show once it has decoded the path.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../../../scripts/lib/paths.ts';

export interface RecordedFake {
  /** `http://127.0.0.1:<proxy port>/api/v4` */
  baseUrl: string;
  /** `GET /api/v4/projects/my-group%2Fmy-project/jobs?…`, one per request, in order. */
  requests: string[];
  close(): Promise<void>;
}

function startCli(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'packages', 'fake', 'dist', 'cli.js'), '--port', '0', '--host', '127.0.0.1'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the fake did not start:\n${output}`)), 50_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, port: Number(port) });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`the fake exited (${code}):\n${output}`)));
  });
}

export async function startRecordedFake(): Promise<RecordedFake> {
  const { child, port } = await startCli();
  const requests: string[] = [];
  const proxy: Server = createServer((incoming, answer) => {
    requests.push(`${incoming.method} ${incoming.url}`);
    const upstream = request(
      { host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (response) => {
        answer.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(answer);
      },
    );
    upstream.on('error', (error) => answer.destroy(error));
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/v4`,
    requests,
    close: async () => {
      await new Promise((resolve) => proxy.close(resolve));
      child.kill('SIGTERM');
    },
  };
}
