/**
 * Which tools a server lists, and each tool as MCP describes it. Safe by default: read-only tools only; writes with
 * `allowWrites`, and the ones that remove or overwrite also need `allowDestructive`.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { definitions } from './definitions.ts';
import type { ToolEntry } from './tool-entry.ts';
import { toolTable } from './tools.ts';

export interface Selection {
  /** List the tools that change something (POST, PUT, PATCH), not those that remove or overwrite. */
  allowWrites?: boolean;
  /** With `allowWrites`: also the tools that remove or overwrite (DELETE, `revoke-…`, a file's new content). */
  allowDestructive?: boolean;
  /** Only the tools of these tags (`jobs`, `merge-requests`); every tag when absent. */
  toolsets?: readonly string[];
}

/** Every tag that names a toolset, in document order. */
export const toolsets: readonly string[] = [...new Set(toolTable.map((tool) => tool.tag))];

/** The tools a server with these options lists (an unknown toolset is an error naming the known ones). */
export function selectTools(selection: Selection = {}): ToolEntry[] {
  const unknown = (selection.toolsets ?? []).filter((name) => !toolsets.includes(name));
  if (unknown.length > 0)
    throw new Error(`Unknown toolset(s) ${unknown.join(', ')}: the toolsets are ${toolsets.join(', ')}`);
  const tags = selection.toolsets && selection.toolsets.length > 0 ? new Set(selection.toolsets) : undefined;
  return toolTable.filter(
    (tool) =>
      (!tags || tags.has(tool.tag)) &&
      (tool.access === 'read' ||
        (selection.allowWrites === true && (tool.access === 'write' || selection.allowDestructive === true))),
  );
}

/** Why a tool of the document is not listed, for a caller who names it anyway. */
export function hiddenReason(tool: ToolEntry, selection: Selection): string {
  if (selection.toolsets?.length && !selection.toolsets.includes(tool.tag))
    return `${tool.name} is in the toolset ${tool.tag}, which this server does not serve`;
  if (tool.access === 'destructive')
    return `${tool.name} removes or overwrites: the server serves it only with --allow-writes --allow-destructive`;
  return `${tool.name} changes data: the server serves it only with --allow-writes`;
}

const described = new Map<string, Tool>();

/** A tool as `tools/list` answers it: its output schema carries the component schemas it names as `$defs`. */
export function describeTool(entry: ToolEntry): Tool {
  let tool = described.get(entry.name);
  if (!tool) {
    const outputSchema = entry.outputSchema && {
      ...entry.outputSchema,
      ...(entry.defs ? { $defs: Object.fromEntries(entry.defs.map((name) => [name, definitions[name]])) } : {}),
    };
    tool = {
      name: entry.name,
      title: entry.title,
      description: entry.description,
      inputSchema: entry.inputSchema as Tool['inputSchema'],
      ...(outputSchema ? { outputSchema: outputSchema as Tool['outputSchema'] } : {}),
      annotations: { title: entry.title, ...entry.annotations },
    };
    described.set(entry.name, tool);
  }
  return tool;
}

/** The tool of the document with this name, listed or not. */
export function findTool(name: string): ToolEntry | undefined {
  return toolTable.find((tool) => tool.name === name);
}
