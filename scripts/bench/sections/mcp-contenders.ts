/**
 * The two MCP servers the mcp section compares, each behind the official SDK's client over a linked in-memory pair:
 * ours (@service-api/mcp) and a widely used generic one (@ivotoby/openapi-mcp-server), which reads the same published
 * document at run time. Both call the same fake.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as generic from '@ivotoby/openapi-mcp-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, type McpServerOptions } from '@service-api/mcp';
import { z } from 'zod';
import { ROOT } from '../../lib/paths.ts';

export const DOCUMENT = join(ROOT, 'generated', 'openapi', 'openapi.json');
export const TOKEN = 'maintainer-token';

export interface Contender {
  client: Client;
  /** The tools as `tools/list` answers them, read without the client's own check of each tool. */
  tools(): Promise<Tool[]>;
  /** Whether the official client's `listTools()` accepts the list (it checks each tool against the protocol). */
  listable(): Promise<boolean>;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

const looseList = z.looseObject({ tools: z.array(z.any()) });

/**
 * The generic server's class. Its declarations re-export `./server` without an extension, which TypeScript's NodeNext
 * resolution does not follow: the class is typed here by what the bench uses.
 */
const { OpenAPIServer } = generic as unknown as {
  OpenAPIServer: new (config: Record<string, unknown>) => { start(transport: InMemoryTransport): Promise<void> };
};

async function connect(start: (transport: InMemoryTransport) => Promise<void>): Promise<Contender> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await start(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    tools: async () => ((await client.request({ method: 'tools/list' }, looseList)) as { tools: Tool[] }).tools,
    listable: () =>
      client.listTools().then(
        () => true,
        () => false,
      ),
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

/** Ours, with these options (the API root and the fetch of the fake it calls). */
export function ours(options: McpServerOptions): Promise<Contender> {
  return connect((transport) => createMcpServer(options).connect(transport));
}

/** The generic server on the published document, its tools in `mode` (`all`: one per operation; `dynamic`). */
export function theirs(apiBaseUrl: string, mode: 'all' | 'dynamic', token = TOKEN): Promise<Contender> {
  return connect(async (transport) => {
    const server = new OpenAPIServer({
      name: 'generic',
      version: '1.0.0',
      apiBaseUrl,
      openApiSpec: DOCUMENT,
      specInputMethod: 'inline',
      inlineSpecContent: readFileSync(DOCUMENT, 'utf8'),
      headers: { 'PRIVATE-TOKEN': token },
      transportType: 'stdio',
      toolsMode: mode,
    });
    await server.start(transport);
  });
}

/** Runs `work` with the console silent: the generic server logs every tool it registers and every call it makes. */
export async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const { log, error } = console;
  console.log = () => undefined;
  console.error = () => undefined;
  try {
    return await work();
  } finally {
    console.log = log;
    console.error = error;
  }
}
