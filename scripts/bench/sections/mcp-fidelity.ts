/**
 * What the mcp section counts of a tool list: its size, the constraints of the document its input schemas keep, the
 * inputs named like a credential, and which read-only tools answer against the fake with the same arguments.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { listOperations, type OperationEntry } from '../../../generators/lib/document.ts';
import { isFileSchema } from '../../../generators/lib/json-schema.ts';
import type { JsonSchema, OpenApiDocument } from '../../../generators/lib/openapi.ts';
import { CREDENTIAL_NAME } from '../../../generators/mcp.ts';
import { resolve } from '../../../packages/server/src/openapi-model.ts';
import { fakeRequest, fakeRequests } from '../../../test/support/fake-requests.ts';
import type { Contender } from './mcp-contenders.ts';

const CONSTRAINTS = ['enum', 'const', 'format', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern'];
/** Named like a credential (any case): what a model should never be asked for. */
const SECRET = /(^|[_-])(sudo|token|private_token|access_token|password|secret|api_key|secret_access_key)$/i;

/** The characters of a tool list as a client receives it. */
export const listSize = (tools: Tool[]): number => JSON.stringify({ tools }).length;

/** `jobs/list-project-jobs` and `jobs_list_project_jobs` or `jobs-list-project-jobs` alike. */
const key = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The tool of each operation in a list, matched by name. */
export function byOperation(doc: OpenApiDocument, tools: Tool[]): Map<string, Tool> {
  const named = new Map(tools.map((tool) => [key(tool.name), tool]));
  const out = new Map<string, Tool>();
  for (const entry of listOperations(doc)) {
    const tool = named.get(key(entry.operationId));
    if (tool) out.set(entry.operationId, tool);
  }
  return out;
}

/** A tool's input property, at the top or in a member of `allOf`. */
function property(tool: Tool, name: string): { schema?: unknown; required: boolean } {
  const parts = [tool.inputSchema, ...(((tool.inputSchema as JsonSchema).allOf as JsonSchema[] | undefined) ?? [])];
  let schema: unknown;
  let required = false;
  for (const part of parts) {
    schema ??= (part.properties as Record<string, unknown> | undefined)?.[name];
    if (Array.isArray(part.required) && part.required.includes(name)) required = true;
  }
  return { schema, required };
}

/**
 * Every documented input of an operation with its schema and whether it is required; not the credentials (`sudo`,
 * `password`, a write-only field …), which no tool should take, nor files, which a tool takes as base64 text.
 */
function documentedInputs(doc: OpenApiDocument, entry: OperationEntry): [string, JsonSchema, boolean][] {
  const out: [string, JsonSchema, boolean][] = entry.parameters
    .filter((p) => (p.in === 'path' || p.in === 'query') && !CREDENTIAL_NAME.test(p.name))
    .map((p) => [p.name, resolve<JsonSchema>(doc, p.schema ?? {}), p.required === true]);
  const body = entry.operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined;
  const media =
    body && Object.values(resolve<{ content?: Record<string, { schema?: unknown }> }>(doc, body).content ?? {})[0];
  const schema = media?.schema ? resolve<JsonSchema>(doc, media.schema as JsonSchema) : undefined;
  const required = (schema?.required as string[] | undefined) ?? [];
  for (const [name, raw] of Object.entries((schema?.properties ?? {}) as Record<string, JsonSchema>)) {
    const property = resolve<JsonSchema>(doc, raw);
    const credential = CREDENTIAL_NAME.test(name) || property.writeOnly === true;
    if (!credential && !isFileSchema(property)) out.push([name, property, required.includes(name)]);
  }
  return out;
}

/** Constraints of the document (keywords and required inputs) and how many of them a tool list keeps. */
export function fidelity(
  doc: OpenApiDocument,
  tools: Map<string, Tool>,
): { stated: number; kept: number; lost: string[] } {
  let stated = 0;
  let kept = 0;
  const lost: string[] = [];
  for (const entry of listOperations(doc)) {
    const tool = tools.get(entry.operationId);
    for (const [name, schema, required] of documentedInputs(doc, entry)) {
      const found = tool ? property(tool, name) : { schema: undefined, required: false };
      const text = JSON.stringify(found.schema ?? null);
      for (const keyword of CONSTRAINTS.filter((k) => k in schema)) {
        stated += 1;
        if (text.includes(`"${keyword}":${JSON.stringify(schema[keyword])}`)) kept += 1;
        else lost.push(`${entry.operationId} ${name} ${keyword}`);
      }
      if (required) {
        stated += 1;
        if (found.required) kept += 1;
        else lost.push(`${entry.operationId} ${name} required`);
      }
    }
  }
  return { stated, kept, lost };
}

/** The inputs of a tool list named like a credential (`Sudo`, `password`, `token` …), at any depth. */
export function secretInputs(tools: Tool[]): number {
  let count = 0;
  const visit = (schema: unknown): void => {
    if (typeof schema !== 'object' || schema === null) return;
    for (const [name, value] of Object.entries(((schema as JsonSchema).properties ?? {}) as Record<string, unknown>)) {
      // A flag is no secret, also where a rule names its value (`reset_password: { const: true }`).
      const flag = typeof (value as JsonSchema)?.const === 'boolean';
      const types = [(value as JsonSchema)?.type, flag ? 'boolean' : undefined].flat();
      if (SECRET.test(name) && !types.includes('boolean') && !types.includes('integer')) count += 1;
    }
    for (const value of Object.values(schema)) visit(value);
  };
  for (const tool of tools) visit(tool.inputSchema);
  return count;
}

/** A read-only call against the default data set as tool arguments: path, query and their values as an agent writes them. */
function argumentsOf(doc: OpenApiDocument, entry: OperationEntry): Record<string, unknown> {
  const url = new URL(fakeRequest(doc, entry).url, 'http://x');
  const args: Record<string, unknown> = {};
  const names: string[] = [];
  const pattern = entry.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${pattern}$`).exec(url.pathname);
  names.forEach((name, i) => {
    args[name] = decodeURIComponent(match?.[i + 1] ?? '');
  });
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    args[name] = name.endsWith('[]') ? values : values[0];
  }
  return args;
}

/** The read-only operations callable without a setup: the same arguments for every contender. */
export function readCalls(doc: OpenApiDocument): { operationId: string; args: Record<string, unknown> }[] {
  return listOperations(doc)
    .filter((entry) => entry.method === 'get' && !fakeRequests[entry.operationId]?.setup)
    .map((entry) => ({ operationId: entry.operationId, args: argumentsOf(doc, entry) }));
}

/** How many of the calls a contender answers without an error (its tools matched by operation). */
export async function working(
  contender: Contender,
  tools: Map<string, Tool>,
  calls: ReturnType<typeof readCalls>,
): Promise<number> {
  let ok = 0;
  for (const { operationId, args } of calls) {
    const tool = tools.get(operationId);
    if (!tool) continue;
    const result = await contender.call(tool.name, args).catch(() => ({ isError: true, content: [] }));
    if (!result.isError) ok += 1;
  }
  return ok;
}
