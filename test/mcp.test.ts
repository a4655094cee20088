/**
 * @service-api/mcp through its command and the official MCP client (the SDK's `Client`), against the fake: over stdio
 * (the default) and over Streamable HTTP. The client itself checks every `structuredContent` against the tool's
 * `outputSchema`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolTable } from '@service-api/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, type Connected, overHttp, overStdio, textJson } from './support/mcp.ts';

const PROJECT = 'my-group/my-project';
const TOKEN = 'maintainer-token';
const readOnly = toolTable.filter((tool) => tool.access === 'read');

/** The command over stdio, given a file holding `text` (a token) in a temporary folder that close() removes. */
async function overStdioWithFile(
  text: string,
  args: (file: string) => string[],
  env: Record<string, string> = {},
): Promise<Connected> {
  const folder = await mkdtemp(join(tmpdir(), 'service-api-mcp-'));
  await writeFile(join(folder, 'secret'), `${text}\n`);
  const mcp = await overStdio(args(join(folder, 'secret')), env);
  return {
    ...mcp,
    close: async () => {
      await mcp.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

describe('over stdio, read-only by default', () => {
  let mcp: Connected;
  beforeAll(async () => {
    mcp = await overStdio(['--fake'], { SERVICE_API_TOKEN: TOKEN });
  }, 30_000);
  afterAll(() => mcp.close());

  it('lists the read-only tools only, each one readOnlyHint', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(readOnly.map((tool) => tool.name));
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.every((tool) => tool.inputSchema.type === 'object')).toBe(true);
  });

  it('calls a list tool with a project path and pages it with next_page', async () => {
    const first = (await mcp.client.callTool({
      name: 'jobs_list_project_jobs',
      arguments: { id: PROJECT, per_page: 2 },
    })) as CallToolResult;
    expect(first.isError).toBeFalsy();
    const page1 = first.structuredContent as { items: { id: number }[]; next_page?: number; page?: number };
    expect(page1.items).toHaveLength(2);
    expect(page1.page).toBe(1);
    expect(page1.next_page).toBe(2);
    const second = (await mcp.client.callTool({
      name: 'jobs_list_project_jobs',
      arguments: { id: PROJECT, per_page: 2, page: page1.next_page },
    })) as CallToolResult;
    const page2 = second.structuredContent as { items: { id: number }[]; page?: number };
    expect(page2.page).toBe(2);
    expect(page2.items.length).toBeGreaterThan(0);
    expect(page2.items.map((job) => job.id)).not.toContain(page1.items[0]!.id);
    expect(textJson(second)).toEqual(second.structuredContent);
  });

  it('refuses an input the contract refuses before any request: isError with issues', async () => {
    const result = (await mcp.client.callTool({
      name: 'jobs_list_project_jobs',
      arguments: { id: PROJECT, per_page: 1000, 'scope[]': ['no-such-scope'] },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const { issues } = textJson(result) as { issues: { path: string[]; message: string }[] };
    expect(issues.map((issue) => issue.path[0])).toEqual(expect.arrayContaining(['per_page', 'scope[]']));
    expect(JSON.stringify(result)).not.toMatch(/\n\s+at /);
  });

  it("answers the fake's 404 as an error result with the status and message", async () => {
    const result = (await mcp.client.callTool({
      name: 'jobs_get_project_job',
      arguments: { id: PROJECT, job_id: 987654 },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textJson(result)).toMatchObject({ status: 404, body: { message: expect.stringMatching(/404/) } });
  });

  it('refuses a write tool it does not list, naming the option', async () => {
    await expect(
      mcp.client.callTool({ name: 'merge_requests_merge', arguments: { id: PROJECT, merge_request_iid: 1 } }),
    ).rejects.toThrow(/--allow-writes/);
  });

  it('never writes the credential to its log or an answer', async () => {
    const result = await mcp.client.callTool({ name: 'users_list_users', arguments: { per_page: 100 } });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(mcp.log()).toMatch(/service-api-mcp: \d+ tools against the in-process fake, over stdio/);
    expect(mcp.log()).not.toContain(TOKEN);
  });
});

describe('over stdio with --allow-writes and --token-file', () => {
  let mcp: Connected;
  beforeAll(async () => {
    mcp = await overStdioWithFile(TOKEN, (file) => ['--fake', '--allow-writes', '--token-file', file]);
  }, 30_000);
  afterAll(() => mcp.close());

  it('lists the writes but not the tools that remove or overwrite', async () => {
    const { tools } = await mcp.client.listTools();
    const expected = toolTable.filter((tool) => tool.access !== 'destructive').map((tool) => tool.name);
    expect(tools.map((tool) => tool.name)).toEqual(expected);
    expect(tools.map((tool) => tool.name)).toContain('merge_requests_create_merge_request');
    expect(tools.some((tool) => tool.annotations?.destructiveHint)).toBe(false);
  });

  it('refuses a write whose body needs a credential the operator did not supply, naming the option', async () => {
    const result = (await mcp.client.callTool({
      name: 'project_import_export_import_project_from_s3',
      arguments: { bucket_name: 'exports', file_key: 'my-project.tar.gz', path: 'from-s3', region: 'eu-west-1' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const { issues } = textJson(result) as { issues: { path: string[]; message: string }[] };
    expect(issues.map((issue) => issue.path.join('.')).sort()).toEqual(['access_key_id', 'secret_access_key']);
    expect(issues[0]!.message).toMatch(/--secret (access_key_id|secret_access_key)=ENV_VAR/);
  });

  it('creates and merges a merge request; a stale sha is the fake’s 409', async () => {
    const call = async (name: string, args: Record<string, unknown>) =>
      (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
    // One open merge request per source and target branch: !1 (feature/login → main) is closed first.
    const closed = await call('merge_requests_update_merge_request', {
      id: PROJECT,
      merge_request_iid: 1,
      state_event: 'close',
    });
    expect(closed.structuredContent).toMatchObject({ state: 'closed' });
    const created = await call('merge_requests_create_merge_request', {
      id: PROJECT,
      source_branch: 'feature/login',
      target_branch: 'main',
      title: 'Add login page',
    });
    expect(created.isError).toBeFalsy();
    const mr = created.structuredContent as { iid: number; sha: string; state: string };
    expect(mr.state).toBe('opened');
    const stale = await call('merge_requests_merge', { id: PROJECT, merge_request_iid: mr.iid, sha: '0'.repeat(40) });
    expect(stale.isError).toBe(true);
    expect(textJson(stale)).toMatchObject({
      status: 409,
      body: { message: 'SHA does not match HEAD of source branch' },
    });
    const merged = await call('merge_requests_merge', { id: PROJECT, merge_request_iid: mr.iid, sha: mr.sha });
    expect(merged.isError).toBeFalsy();
    expect(merged.structuredContent).toMatchObject({ state: 'merged', merge_commit_sha: expect.any(String) });
  });
});

describe('over Streamable HTTP with --toolsets', () => {
  let mcp: Connected & { url: URL };
  beforeAll(async () => {
    mcp = await overHttp(['--fake', '--toolsets', 'jobs,merge-requests'], { SERVICE_API_TOKEN: TOKEN });
  }, 30_000);
  afterAll(() => mcp.close());

  it('listens on 127.0.0.1 and lists the read-only tools of those tags only', async () => {
    expect(mcp.url.hostname).toBe('127.0.0.1');
    const { tools } = await mcp.client.listTools();
    const expected = readOnly.filter((tool) => ['jobs', 'merge-requests'].includes(tool.tag));
    expect(tools.map((tool) => tool.name)).toEqual(expected.map((tool) => tool.name));
  });

  it('calls a list tool of the toolset', async () => {
    const result = (await mcp.client.callTool({
      name: 'merge_requests_list_project_merge_requests',
      arguments: { id: PROJECT, per_page: 3 },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const content = result.structuredContent as { items: { project_id: number }[] };
    expect(content.items.length).toBeGreaterThan(0);
    expect(content.items.every((item) => item.project_id === 1)).toBe(true);
  });

  it('refuses a request whose Host is not its own (DNS rebinding)', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const sent = request(mcp.url, {
        method: 'POST',
        headers: {
          host: 'attacker.example',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      });
      sent.on('response', (answer) => {
        answer.resume();
        resolve(answer.statusCode);
      });
      sent.on('error', reject);
      sent.end(body);
    });
    expect(status).toBe(403);
  });
});

/** The three tools of dynamic mode, the same through either transport of the command. */
function dynamicModeChecks(connect: () => Promise<Connected>, writes: boolean): void {
  let mcp: Connected;
  beforeAll(async () => {
    mcp = await connect();
  }, 30_000);
  afterAll(() => mcp.close());
  const call = async (name: string, args: Record<string, unknown>) =>
    (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
  const operation = (name: string, args: Record<string, unknown>) => call('call_operation', { name, arguments: args });

  it('lists the three tools of dynamic mode, call_operation read-only unless writes are served', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['list_operations', 'describe_operation', 'call_operation']);
    expect(tools.find((tool) => tool.name === 'call_operation')!.annotations?.readOnlyHint).toBe(!writes);
  });

  it('finds operations by words, a page at a time, and describes one with its schemas', async () => {
    const found = await call('list_operations', { search: 'project jobs' });
    const listed = found.structuredContent as { operations: { name: string }[]; total: number };
    expect(listed.operations.map((o) => o.name)).toContain('jobs_list_project_jobs');
    expect(listed.total).toBe(listed.operations.length);
    const all = (await call('list_operations', {})).structuredContent as { total: number; next_page?: number };
    expect(all.next_page).toBe(2);
    const second = (await call('list_operations', { page: 2 })).structuredContent as { operations: unknown[] };
    expect(second.operations.length).toBeGreaterThan(0);
    const described = await call('describe_operation', { name: 'jobs_list_project_jobs' });
    const jobs = toolTable.find((tool) => tool.name === 'jobs_list_project_jobs')!;
    expect(described.structuredContent).toMatchObject({
      name: jobs.name,
      inputSchema: jobs.inputSchema,
      outputSchema: { properties: { items: expect.any(Object), next_page: expect.any(Object) } },
    });
  });

  it('calls a list tool with a project path and pages it', async () => {
    const first = await operation('jobs_list_project_jobs', { id: PROJECT, per_page: 2 });
    expect(first.isError).toBeFalsy();
    const page1 = first.structuredContent as { items: { id: number }[]; page: number; next_page?: number };
    expect(page1).toMatchObject({ page: 1, next_page: 2 });
    expect(page1.items).toHaveLength(2);
    const second = await operation('jobs_list_project_jobs', { id: PROJECT, per_page: 2, page: page1.next_page });
    const page2 = second.structuredContent as { items: { id: number }[]; page: number };
    expect(page2.page).toBe(2);
    expect(page2.items.length).toBeGreaterThan(0);
    expect(page2.items.map((job) => job.id)).not.toEqual(expect.arrayContaining(page1.items.map((job) => job.id)));
    expect(textJson(second)).toEqual(second.structuredContent);
  });

  it('refuses an input the contract refuses before any request: isError with issues', async () => {
    const result = await operation('jobs_list_project_jobs', { id: PROJECT, per_page: 1000, 'scope[]': ['nope'] });
    expect(result.isError).toBe(true);
    const { issues } = textJson(result) as { issues: { path: string[]; message: string }[] };
    expect(issues.map((issue) => issue.path[0])).toEqual(expect.arrayContaining(['per_page', 'scope[]']));
    const unknown = await call('describe_operation', { name: 'no_such_operation' });
    expect(unknown.isError).toBe(true);
    expect(textJson(unknown).issues).toEqual([{ path: ['name'], message: 'unknown operation' }]);
  });

  it(
    writes ? 'calls a write, and refuses one that removes without --allow-destructive' : 'refuses a write',
    async () => {
      const renamed = await operation('merge_requests_update_merge_request', {
        id: PROJECT,
        merge_request_iid: 1,
        title: 'Renamed through call_operation',
      });
      if (writes) {
        expect(renamed.isError).toBeFalsy();
        expect(renamed.structuredContent).toMatchObject({ iid: 1, title: 'Renamed through call_operation' });
        const removed = await operation('merge_requests_delete_merge_request', { id: PROJECT, merge_request_iid: 1 });
        expect(removed.isError).toBe(true);
        expect(textJson(removed).error).toMatch(/--allow-destructive/);
      } else {
        expect(renamed.isError).toBe(true);
        expect(textJson(renamed).error).toMatch(/--allow-writes/);
        const listed = (await call('list_operations', { search: 'merge request' })).structuredContent as {
          operations: { access: string }[];
        };
        expect(listed.operations.every((o) => o.access === 'read')).toBe(true);
      }
    },
  );

  it('never writes the credential to its log or an answer', async () => {
    const results = [
      await operation('users_list_users', { per_page: 100 }),
      await operation('jobs_get_project_job', { id: PROJECT, job_id: 987654 }),
      await call('describe_operation', { name: 'users_list_users' }),
    ];
    expect(results[0]!.isError).toBeFalsy();
    expect(results[1]!.isError).toBe(true);
    expect(JSON.stringify(results)).not.toContain(TOKEN);
    expect(mcp.log()).toMatch(/3 dynamic tools over \d+ operations/);
    expect(mcp.log()).not.toContain(TOKEN);
  });
}

describe('dynamic mode over stdio, read-only', () => {
  dynamicModeChecks(() => overStdio(['--fake', '--dynamic'], { SERVICE_API_TOKEN: TOKEN }), false);
});

describe('dynamic mode over Streamable HTTP with --allow-writes', () => {
  dynamicModeChecks(() => overHttp(['--fake', '--dynamic', '--allow-writes'], { SERVICE_API_TOKEN: TOKEN }), true);
});

describe('over stdio with credentials of request bodies from --secret and --secret-file', () => {
  const S3_SECRET = 'wJalrXUtnFEMI-operator-s3-secret';
  const S3_KEY_ID = 'AKIA-operator-key-id';
  const SOURCE_TOKEN = 'glpat-operator-source-instance';
  const OWNER = 'owner-token';
  const CREDENTIAL =
    /(^|[_-])(token|access_token|password|secret|api_key|private_key|secret_access_key|access_key_id)$/i;
  let mcp: Connected;
  const answers: unknown[] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
    answers.push(result);
    return result;
  };
  beforeAll(async () => {
    const args = (file: string) => [
      ...['--fake', '--allow-writes', '--secret', 'secret_access_key=S3_SECRET', '--secret', 'access_key_id=S3_KEY_ID'],
      ...['--secret-file', `configuration.access_token=${file}`],
    ];
    // The fake's group owner: a migration into my-group needs at least the Maintainer role there.
    mcp = await overStdioWithFile(SOURCE_TOKEN, args, { SERVICE_API_TOKEN: OWNER, S3_SECRET, S3_KEY_ID });
  }, 30_000);
  afterAll(() => mcp.close());

  it('takes no credential as an input; the description says the operator supplies it', async () => {
    const { tools } = await mcp.client.listTools();
    const names = ['project_import_export_import_project_from_s3', 'bulk_imports_create_migration'];
    for (const name of names) {
      const tool = tools.find((t) => t.name === name)!;
      const inputs: string[] = [];
      JSON.stringify(tool.inputSchema, (key, value) => {
        if (value && typeof value === 'object' && !Array.isArray(value) && key === 'properties')
          inputs.push(...Object.keys(value));
        return value;
      });
      expect(inputs.length, name).toBeGreaterThan(2);
      expect(
        inputs.filter((input) => CREDENTIAL.test(input)),
        name,
      ).toEqual([]);
      expect(tool.description, name).toMatch(/credentials that the server's operator supplies \(--secret\)/);
    }
  });

  it("imports from a bucket and starts a migration with the operator's credentials", async () => {
    const s3 = await call('project_import_export_import_project_from_s3', {
      bucket_name: 'exports',
      file_key: 'my-project.tar.gz',
      path: 'from-s3',
      region: 'eu-west-1',
    });
    expect(s3.isError).toBeFalsy();
    expect(s3.structuredContent).toMatchObject({ path: 'from-s3', import_status: 'scheduled' });
    const migration = await call('bulk_imports_create_migration', {
      configuration: { url: 'https://source.example' },
      entities: [
        {
          source_type: 'group_entity',
          source_full_path: 'source-group',
          destination_slug: 'migrated-group',
          destination_namespace: 'my-group',
        },
      ],
    });
    expect(migration.isError, JSON.stringify(migration)).toBeFalsy();
    expect(migration.structuredContent).toMatchObject({ id: expect.any(Number), status: 'created' });
  });

  it('refuses a credential passed as an argument, naming it without echoing it', async () => {
    const typed = 'model-typed-secret-value';
    const result = await call('bulk_imports_create_migration', {
      configuration: { url: 'https://source.example', access_token: typed },
      entities: [],
    });
    expect(result.isError).toBe(true);
    expect(textJson(result).issues).toEqual([
      { path: ['configuration', 'access_token'], message: expect.stringMatching(/never a tool argument/) },
    ]);
    expect(JSON.stringify(result)).not.toContain(typed);
  });

  it('never writes a credential to its log, an answer or an error', async () => {
    const failed = await call('project_import_export_import_project_from_s3', {
      bucket_name: 'exports',
      file_key: 'my-project.tar.gz',
      path: 'from-s3',
      region: 'eu-west-1',
    });
    expect(failed.isError).toBe(true);
    expect(answers.length).toBeGreaterThanOrEqual(4);
    for (const secret of [S3_SECRET, S3_KEY_ID, SOURCE_TOKEN, OWNER]) {
      expect(JSON.stringify(answers)).not.toContain(secret);
      expect(mcp.log()).not.toContain(secret);
    }
  });

  it('refuses to start with a credential no body has, or an unset variable, naming neither value', () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [CLI, '--fake', ...args], { encoding: 'utf8', env: { ...process.env, S3_SECRET } });
    const unknown = run(['--secret', 'no_such_field=S3_SECRET']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/no_such_field: not a credential .*secret_access_key/);
    const unset = run(['--secret', 'secret_access_key=NO_SUCH_VARIABLE_SET']);
    expect(unset.status).toBe(1);
    expect(unset.stderr).toMatch(/NO_SUCH_VARIABLE_SET is not set/);
    for (const child of [unknown, unset]) expect(child.stderr + child.stdout).not.toContain(S3_SECRET);
  });
});
