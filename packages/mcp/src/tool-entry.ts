/**
 * What the generator (generators/mcp.ts) writes about each operation and the server reads: one MCP tool per
 * operation, its schemas and where each of its inputs goes in the request.
 */

export type JsonSchema = { [keyword: string]: unknown };

/** A tool's schema as MCP requires it: an object at the top. */
export type ObjectSchema = JsonSchema & { type: 'object' };

/** `read`: GET and HEAD; `destructive`: removes or overwrites; `write`: any other change. */
export type Access = 'read' | 'write' | 'destructive';

/** Where an input of the tool goes: a path, query or body parameter, a file part of a form, the keyset cursor. */
export type InputPlace = 'path' | 'query' | 'body' | 'file' | 'cursor';

/**
 * How the success answer becomes the tool's result: `object` as it is; `list` wrapped with the paging fields (`items`,
 * `next_page` …); `value` (a string, a number, or bodies of several kinds) as `{ value }`; `none` (no body), `file`
 * (a download) and `headers` (HEAD) as text only.
 */
export type OutputKind = 'object' | 'list' | 'value' | 'none' | 'file' | 'headers';

export interface ToolEntry {
  /** From the operationId: `[a-z0-9_]`, at most 64 characters, unique. */
  name: string;
  operationId: string;
  /** The operation's tag: the toolset it belongs to (`--toolsets jobs,merge-requests`). */
  tag: string;
  /** The typed client's method: `api[group][method]`. */
  group: string;
  method: string;
  /** The HTTP method and path template, for the dynamic mode's listing. */
  http: string;
  path: string;
  title: string;
  description: string;
  access: Access;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  inputSchema: ObjectSchema;
  inputs: Record<string, InputPlace>;
  /**
   * The body's credentials as dotted paths (`secret_access_key`, `configuration.access_token`): never inputs; the
   * server's operator supplies them (`secrets` of the options, `--secret` of the command).
   */
  secrets?: string[];
  /** `x-pagination`: how the list pages. */
  paging?: string[];
  output: OutputKind;
  /** Without `$defs`: the component schemas it names (`defs`) come from `definitions` when the tool is listed. */
  outputSchema?: ObjectSchema;
  defs?: string[];
}

/** A problem with a call: where (the argument's path) and what. */
export interface Issue {
  path: (string | number)[];
  message: string;
}
