/**
 * The MCP server in process on the Node running the tests (npm test's node matrix runs this file on each Node the
 * package claims): the SDK's client over a linked pair, the fake in process behind the typed client.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolTable } from '@service-api/mcp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Connected, inProcess } from '../../../test/support/mcp.ts';

let mcp: Connected;

beforeAll(async () => {
  mcp = await inProcess({ token: 'developer-token' });
});
afterAll(() => mcp.close());

it('lists the read-only tools and answers a list tool with its paging fields', async () => {
  const { tools } = await mcp.client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(toolTable.filter((t) => t.access === 'read').map((t) => t.name));
  const result = (await mcp.client.callTool({
    name: 'merge_requests_list_project_merge_requests',
    arguments: { id: 'my-group/my-project', per_page: 1 },
  })) as CallToolResult;
  expect(result.structuredContent).toMatchObject({ items: [expect.any(Object)], page: 1, per_page: 1, next_page: 2 });
});

it('refuses an argument the contract refuses, before any request', async () => {
  const result = (await mcp.client.callTool({
    name: 'merge_requests_list_project_merge_requests',
    arguments: { id: 'my-group/my-project', per_page: 0 },
  })) as CallToolResult;
  expect(result.isError).toBe(true);
  expect(JSON.parse((result.content[0] as { text: string }).text).issues).toEqual([
    { path: ['per_page'], message: expect.stringContaining('per_page') },
  ]);
});
