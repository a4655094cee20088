/**
 * The hostile-input table through the MCP server's tools (the SDK's client in process, the fake behind the typed
 * client): each case of cases.ts that a tool can express becomes that tool's arguments (its path and query
 * parameters, its JSON body's fields), beside the attacks only tools have (path traversal and absolute URLs in path
 * parameters, prototype keys among the arguments, oversized and mistyped arguments). Every call ends in a result,
 * never a protocol error, a crash or a stack trace; every request stays on the configured API; no prototype is
 * polluted; the server answers the next call.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ToolEntry, toolTable } from '@service-api/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connected, FAKE_API, inProcess } from '../support/mcp.ts';
import { type HostileCase, hostileCases } from './cases.ts';

const PROJECT = 'my-group/my-project';
const sent: URL[] = [];
let mcp: Connected;

beforeAll(async () => {
  mcp = await inProcess({ allowWrites: true, allowDestructive: true }, (url) => sent.push(url));
});
afterAll(() => mcp.close());

/** The tool of a method and path (under /api/v4), with the path parameters the path gives it. */
function toolFor(method: string, path: string): { tool: ToolEntry; params: Record<string, string> } | undefined {
  for (const tool of toolTable) {
    if (tool.http !== method) continue;
    const names: string[] = [];
    const pattern = tool.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const match = new RegExp(`^${pattern}$`).exec(path);
    if (match) return { tool, params: Object.fromEntries(names.map((name, i) => [name, match[i + 1]!])) };
  }
  return undefined;
}

/** A case of the table as a tool call: its path and query parameters and its JSON body's fields as arguments. */
function asToolCall(hostile: HostileCase): { name: string; arguments: Record<string, unknown> } | undefined {
  const [path, search = ''] = hostile.path.split('?');
  const found = toolFor(hostile.method, path!);
  const type = Object.entries(hostile.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (!found || (hostile.body !== undefined && !/json/.test(type ?? ''))) return undefined;
  const body = typeof hostile.body === 'function' ? hostile.body() : hostile.body;
  let fields: unknown = {};
  try {
    fields = body === undefined ? {} : JSON.parse(body.toString());
  } catch {
    return undefined;
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined;
  const query = Object.fromEntries(new URLSearchParams(search));
  return { name: found.tool.name, arguments: { ...query, ...found.params, ...(fields as Record<string, unknown>) } };
}

const fromTable = hostileCases.flatMap((hostile) => {
  const call = asToolCall(hostile);
  return call ? [[hostile.name, call] as const] : [];
});

const FILE = { id: PROJECT, ref: 'main' };
const own: [string, { name: string; arguments: Record<string, unknown> }][] = [
  ['file_path ../ traversal', { name: 'repository_get_file', arguments: { ...FILE, file_path: '../../etc/passwd' } }],
  [
    'file_path encoded traversal',
    { name: 'repository_get_file', arguments: { ...FILE, file_path: '%2e%2e%2fsecret' } },
  ],
  [
    'file_path docs/../secret',
    { name: 'repository_get_file', arguments: { ...FILE, file_path: 'docs/../secret.txt' } },
  ],
  ['file_path backslash traversal', { name: 'repository_get_file', arguments: { ...FILE, file_path: '..\\..\\x' } }],
  [
    'file_path of 100,000 characters',
    { name: 'repository_get_file', arguments: { ...FILE, file_path: 'a'.repeat(100_000) } },
  ],
  [
    'file_path an absolute URL',
    { name: 'repository_get_file', arguments: { ...FILE, file_path: 'http://evil.example/x' } },
  ],
  ['id an absolute URL', { name: 'jobs_list_project_jobs', arguments: { id: 'https://evil.example/api/v4' } }],
  ['id //host', { name: 'jobs_list_project_jobs', arguments: { id: '//evil.example' } }],
  ['id encoded slashes and dots', { name: 'jobs_list_project_jobs', arguments: { id: '..%2F..%2Fusers' } }],
  ['id with a query', { name: 'jobs_list_project_jobs', arguments: { id: '1?private_token=x#' } }],
  ['a forged cursor', { name: 'repository_list_tree', arguments: { id: PROJECT, cursor: 'aHR0cDovL2V2aWwv' } }],
  ['a cursor that is not base64url', { name: 'repository_list_tree', arguments: { id: PROJECT, cursor: '../../x' } }],
  [
    '__proto__ and constructor among the arguments',
    {
      name: 'merge_requests_create_merge_request',
      arguments: JSON.parse(
        '{"id":"my-group/my-project","source_branch":"feature/login","target_branch":"main","title":"t","__proto__":{"private_token":"planted","sudo":"root"},"constructor":{"prototype":{"sudo":"root"}}}',
      ),
    },
  ],
  [
    'a description of 1,048,576 characters',
    {
      name: 'merge_requests_update_merge_request',
      arguments: { id: PROJECT, merge_request_iid: 1, description: 'x'.repeat(1_048_576) },
    },
  ],
  ['a file that is not base64', { name: 'users_upload_avatar', arguments: { avatar: '<html>' } }],
  ['an array for a string', { name: 'jobs_list_project_jobs', arguments: { id: [PROJECT, 1] } }],
  ['an object for an integer', { name: 'jobs_get_project_job', arguments: { id: PROJECT, job_id: { valueOf: 1 } } }],
  ['sudo as an argument', { name: 'users_list_users', arguments: { sudo: 'root', Sudo: 'root' } }],
];

describe('hostile arguments through the MCP tools', () => {
  it('turns cases of the shared table into tool calls', () => {
    expect(fromTable.length).toBeGreaterThanOrEqual(10);
  });

  it.each([...fromTable, ...own])(
    '%s: a result, never a crash, a stack trace or a request off the API',
    async (_, call) => {
      sent.length = 0;
      const result = (await mcp.client.callTool(call)) as CallToolResult;
      expect(Array.isArray(result.content)).toBe(true);
      expect(JSON.stringify(result)).not.toMatch(/\n\s+at |node:internal|planted/);
      for (const url of sent) {
        expect(url.origin).toBe(new URL(FAKE_API).origin);
        expect(url.pathname.startsWith('/api/v4/')).toBe(true);
        expect(url.pathname.split('/')).not.toContain('..');
      }
      expect(({} as Record<string, unknown>).private_token).toBeUndefined();
      expect(({} as Record<string, unknown>).sudo).toBeUndefined();
    },
  );

  it('refuses traversal in path parameters before any request, naming the argument', async () => {
    sent.length = 0;
    for (const file_path of ['../../etc/passwd', '%2e%2e%2fsecret', 'docs/../secret.txt']) {
      const result = (await mcp.client.callTool({
        name: 'repository_get_file',
        arguments: { ...FILE, file_path },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(JSON.parse((result.content[0] as { text: string }).text).issues).toEqual([
        { path: ['file_path'], message: expect.stringMatching(/"\.\." path segments/) },
      ]);
    }
    expect(sent).toEqual([]);
  });

  it('still answers after every case', async () => {
    const result = (await mcp.client.callTool({
      name: 'jobs_list_project_jobs',
      arguments: { id: PROJECT, per_page: 1 },
    })) as CallToolResult;
    expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(1);
  });
});
