/**
 * @service-api/mcp: the Service HTTP API v4 as MCP tools for AI agents, one per operation, generated from the
 * contract (`tools.ts`), on the official MCP SDK. `service-api-mcp` is its command.
 */
export { DEFAULT_MAX_ANSWER_CHARS, successResult as toolResult } from './answer.ts';
export type { CallContext, Issue } from './call.ts';
export { describeTool, findTool, type Selection, selectTools, toolsets } from './catalog.ts';
export { contractVersion } from './contract.ts';
export { CALL, DESCRIBE, LIST } from './dynamic.ts';
export { type OperatorSecrets, secretFields } from './secrets.ts';
export { type RunningHttp, startHttp } from './http.ts';
export { createMcpServer, createToolService, type McpServerOptions, type ToolService } from './server.ts';
export type * from './tool-entry.ts';
export { toolTable } from './tools.ts';
