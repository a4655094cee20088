/** The MCP server's command and the SDK's client for the tests: over stdio (a child process) or Streamable HTTP. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, type McpServerOptions } from '@service-api/mcp';
import { createFake } from '../../packages/fake/src/index.ts';
import { ROOT } from '../../scripts/lib/paths.ts';

/** The built command (`npm run build` writes packages/mcp/dist). */
export const CLI = join(ROOT, 'packages', 'mcp', 'dist', 'cli.js');

export interface Connected {
  client: Client;
  /** What the server wrote on stderr so far. */
  log(): string;
  close(): Promise<void>;
}

/** `service-api-mcp ARGS` over stdio, with the SDK's client; `env` is added to the SDK's default environment. */
export async function overStdio(args: string[], env: Record<string, string> = {}): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...args],
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const client = new Client({ name: 'service-api-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, log: () => log, close: () => client.close() };
}

/** `service-api-mcp --http --port 0 ARGS` as a child process, with the SDK's client over Streamable HTTP. */
export async function overHttp(args: string[], env: Record<string, string> = {}): Promise<Connected & { url: URL }> {
  const child = spawn(process.execPath, [CLI, '--http', '--port', '0', ...args], {
    env: { ...getDefaultEnvironment(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const found = /Streamable HTTP at (http:\/\/\S+)/.exec(log);
      if (found) resolve(new URL(found[1]!));
    });
    child.once('exit', (code) => reject(new Error(`service-api-mcp exited with ${code}: ${log}`)));
  });
  const client = new Client({ name: 'service-api-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  const close = async () => {
    await client.close();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { client, url, log: () => log, close };
}

/** The API root of the in-process fake that `inProcess` serves the tools against. */
export const FAKE_API = 'http://fake.localhost/api/v4';

/**
 * The server in this process against an in-process fake (as `maintainer-token` unless `options.token` says
 * otherwise), with the SDK's client over a linked in-memory pair; `onRequest` sees the URL of each request the server
 * sends.
 */
export async function inProcess(
  options: Omit<McpServerOptions, 'baseUrl' | 'fetch'> = {},
  onRequest?: (url: URL) => void,
): Promise<Connected> {
  const fake = await createFake();
  const fetch: typeof fake.fetch = onRequest
    ? (input, init) => {
        onRequest(new URL(input instanceof Request ? input.url : String(input)));
        return fake.fetch(input, init);
      }
    : fake.fetch;
  const server = createMcpServer({ baseUrl: FAKE_API, token: 'maintainer-token', fetch, ...options });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'service-api-tests', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    log: () => '',
    close: async () => {
      await client.close();
      await fake.app.close();
    },
  };
}

/** The JSON of a result's first text part. */
export function textJson(result: CallToolResult | Record<string, unknown>): Record<string, unknown> {
  const [first] = (result as CallToolResult).content;
  if (first?.type !== 'text') throw new Error(`expected a text part, got ${JSON.stringify(result).slice(0, 200)}`);
  return JSON.parse(first.text) as Record<string, unknown>;
}
