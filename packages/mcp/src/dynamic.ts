/**
 * Dynamic mode: three tools instead of one per operation, for clients with small tool limits. `list_operations`
 * finds tools by words, `describe_operation` gives one's schemas, `call_operation` calls it. They serve the same
 * selection (writes, toolsets) as the full list would.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { describeTool } from './catalog.ts';
import type { ToolEntry } from './tool-entry.ts';

export const LIST = 'list_operations';
export const DESCRIBE = 'describe_operation';
export const CALL = 'call_operation';

/** The most operations one `list_operations` answer names. */
const PAGE = 25;

const nameInput = { type: 'string', description: 'The operation, as list_operations names it.' } as const;

/** The three tools; `call_operation` is read-only when the server serves no writes. */
export function dynamicTools(writes: boolean, destructive: boolean): Tool[] {
  return [
    {
      name: LIST,
      description: 'Find operations of the Service HTTP API v4 by words of their name, summary or path.',
      inputSchema: {
        type: 'object',
        properties: {
          search: { type: 'string', description: 'Words that must all appear (case-insensitive).' },
          page: { type: 'integer', minimum: 1, description: `Page of ${PAGE} operations.` },
        },
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    {
      name: DESCRIBE,
      description: "One operation's description, input schema and output schema.",
      inputSchema: { type: 'object', properties: { name: nameInput }, required: ['name'] },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    {
      name: CALL,
      description: 'Call an operation with arguments that follow its input schema (see describe_operation).',
      inputSchema: {
        type: 'object',
        properties: { name: nameInput, arguments: { type: 'object', description: "The operation's arguments." } },
        required: ['name'],
      },
      annotations: { readOnlyHint: !writes, destructiveHint: destructive, idempotentHint: false, openWorldHint: false },
    },
  ];
}

/** `list_operations`: the matching tools, one line each, a page at a time. */
export function listOperations(tools: ToolEntry[], args: Record<string, unknown>): CallToolResult {
  const words = typeof args.search === 'string' ? args.search.toLowerCase().split(/\s+/).filter(Boolean) : [];
  const page = Number.isInteger(args.page) && (args.page as number) > 0 ? (args.page as number) : 1;
  const matching = tools.filter((tool) => {
    const text = `${tool.name} ${tool.title} ${tool.http} ${tool.path} ${tool.tag}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
  const operations = matching.slice((page - 1) * PAGE, page * PAGE).map((tool) => ({
    name: tool.name,
    title: tool.title,
    http: `${tool.http} ${tool.path}`,
    access: tool.access,
  }));
  const next = page * PAGE < matching.length ? { next_page: page + 1 } : {};
  const content = { operations, total: matching.length, ...next };
  return { content: [{ type: 'text', text: JSON.stringify(content) }], structuredContent: content };
}

/** `describe_operation`: the tool as the full list would describe it. */
export function describeOperation(tool: ToolEntry): CallToolResult {
  const content = describeTool(tool) as unknown as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(content) }], structuredContent: content };
}

/** The operation a dynamic call names, when it is served. */
export function served(tools: ToolEntry[], name: unknown): ToolEntry | undefined {
  return typeof name === 'string' ? tools.find((t) => t.name === name) : undefined;
}
