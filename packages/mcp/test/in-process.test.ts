/**
 * The MCP server in process on the Node running the tests (npm test's node matrix runs this file on each Node the
 * package claims): the SDK's client over a linked pair, the fake in process behind the typed client.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createFake } from '@service-api/fake';
import { createMcpServer, toolTable } from '@service-api/mcp';
import { afterAll, beforeAll, expect, it } from 'vitest';

let client: Client;
let closeFake: () => Promise<void>;

beforeAll(async () => {
  const fake = await createFake();
  closeFake = () => fake.app.close();
  const server = createMcpServer({
    baseUrl: 'http://fake.localhost/api/v4',
    token: 'developer-token',
    fetch: fake.fetch,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'in-process', version: '1.0.0' });
  await client.connect(clientSide);
});
afterAll(async () => {
  await client.close();
  await closeFake();
});

it('lists the read-only tools and answers a list tool with its paging fields', async () => {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(toolTable.filter((t) => t.access === 'read').map((t) => t.name));
  const result = (await client.callTool({
    name: 'merge_requests_list_project_merge_requests',
    arguments: { id: 'my-group/my-project', per_page: 1 },
  })) as CallToolResult;
  expect(result.structuredContent).toMatchObject({ items: [expect.any(Object)], page: 1, per_page: 1, next_page: 2 });
});

it('refuses an argument the contract refuses, before any request', async () => {
  const result = (await client.callTool({
    name: 'merge_requests_list_project_merge_requests',
    arguments: { id: 'my-group/my-project', per_page: 0 },
  })) as CallToolResult;
  expect(result.isError).toBe(true);
  expect(JSON.parse((result.content[0] as { text: string }).text).issues).toEqual([
    { path: ['per_page'], message: expect.stringContaining('per_page') },
  ]);
});
