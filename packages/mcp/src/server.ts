/**
 * The MCP server: the SDK's low-level `Server` (the tools' schemas are JSON Schema from the document, not zod), its
 * `tools/list` from the selection and `tools/call` through the typed client.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { createServiceApi, type ServiceApi } from '@service-api/client';
import { DEFAULT_MAX_ANSWER_CHARS } from './answer.ts';
import { type CallContext, callTool, errorResult, plainSecrets, redact } from './call.ts';
import { describeTool, findTool, hiddenReason, type Selection, selectTools } from './catalog.ts';
import { contractVersion } from './contract.ts';
import { checkSecrets, type OperatorSecrets, secretValues } from './secrets.ts';
import { CALL, DESCRIBE, describeOperation, dynamicTools, LIST, listOperations, served } from './dynamic.ts';
import type { ToolEntry } from './tool-entry.ts';

export interface McpServerOptions extends Selection {
  /** The API root, `https://service.example/api/v4`; every request goes there and nowhere else. */
  baseUrl: string;
  /** The credential, sent as `PRIVATE-TOKEN`; never a tool input, never in a result. */
  token?: string;
  /** The fetch the client sends with (the fake's in-process `fetch`, a test's). */
  fetch?: typeof fetch;
  /** Three tools (list, describe, call) instead of one per operation. */
  dynamic?: boolean;
  /** Largest answer in characters; a longer list is cut at an item boundary. Default 25 000. */
  maxAnswerChars?: number;
  /**
   * Credentials of request bodies, never tool inputs: `secret_access_key` (every tool whose body has it) or
   * `tool:path` (`groups_update_hook:token`) → the value. Put in the body after the model's arguments; redacted from
   * every answer.
   */
  secrets?: OperatorSecrets;
}

/** What a server built from options serves: its tools, and how to call one. */
export interface ToolService {
  tools: ToolEntry[];
  list(): Tool[];
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

/** The tools of the options and their calls, without a transport (the server and the bench use it). */
export function createToolService(options: McpServerOptions): ToolService {
  const tools = selectTools(options);
  const operatorSecrets = options.secrets ?? {};
  checkSecrets(operatorSecrets);
  const api: ServiceApi = createServiceApi({
    baseUrl: options.baseUrl,
    ...(options.token ? { auth: { privateToken: options.token } } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    retry: { attempts: 1 },
  });
  const secrets = [...(options.token ? [options.token] : []), ...secretValues(operatorSecrets)];
  const context: CallContext = {
    api,
    maxAnswerChars: options.maxAnswerChars ?? DEFAULT_MAX_ANSWER_CHARS,
    secrets,
    operatorSecrets,
    plainSecrets: plainSecrets(secrets),
  };
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const list = options.dynamic
    ? () =>
        dynamicTools(options.allowWrites === true, options.allowWrites === true && options.allowDestructive === true)
    : () => tools.map(describeTool);
  const callOne = (tool: ToolEntry, args: Record<string, unknown>) => callTool(tool, args, context);
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    if (options.dynamic) return dynamicCall(tools, name, args, callOne, options);
    const tool = byName.get(name);
    if (!tool) throw unknownTool(name, options);
    return callOne(tool, args);
  };
  return { tools, list, call: async (name, args) => redact(await call(name, args), context.secrets) };
}

function unknownTool(name: string, selection: Selection): McpError {
  const known = findTool(name);
  return new McpError(ErrorCode.InvalidParams, known ? hiddenReason(known, selection) : `Unknown tool: ${name}`);
}

async function dynamicCall(
  tools: ToolEntry[],
  name: string,
  args: Record<string, unknown>,
  callOne: (tool: ToolEntry, args: Record<string, unknown>) => Promise<CallToolResult>,
  selection: Selection,
): Promise<CallToolResult> {
  if (name === LIST) return listOperations(tools, args);
  if (name !== DESCRIBE && name !== CALL) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const found = served(tools, args.name);
  if (!found) {
    const hidden = typeof args.name === 'string' ? findTool(args.name) : undefined;
    const why = hidden ? hiddenReason(hidden, selection) : `No operation ${String(args.name)}: see ${LIST}`;
    return errorResult(why, [{ path: ['name'], message: hidden ? 'not served' : 'unknown operation' }]);
  }
  if (name === DESCRIBE) return describeOperation(found);
  const inner = args.arguments;
  const given = typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? inner : {};
  return callOne(found, given as Record<string, unknown>);
}

/** An MCP server (the SDK's `Server`) serving the tools of the options; connect it to a transport. */
export function createMcpServer(options: McpServerOptions, service = createToolService(options)): Server {
  const server = new Server(
    { name: 'service-api-mcp', title: 'Service HTTP API v4', version: contractVersion },
    {
      capabilities: { tools: {} },
      instructions:
        'Tools of the Service HTTP API v4, one per operation. Lists answer a page: pass `page`/`per_page` (or `cursor` from `next_cursor`) for more.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: service.list() }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    service.call(request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>),
  );
  return server;
}
