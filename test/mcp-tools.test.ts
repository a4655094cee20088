/**
 * The tools of @service-api/mcp against the document they are generated from: one per operation, named and annotated
 * by rule, every parameter constraint kept, no credential among the inputs, every documented success example a valid
 * `structuredContent` of its tool's `outputSchema`, and the listings of each selection through the SDK's client.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  createToolService,
  describeTool,
  secretFields,
  selectTools,
  type ToolEntry,
  toolResult,
  toolTable,
} from '@service-api/mcp';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations } from '../generators/lib/document.ts';
import type { JsonSchema, Parameter } from '../generators/lib/openapi.ts';
import { resolve } from '../packages/server/src/openapi-model.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import { createFake } from '../packages/fake/src/index.ts';
import { publishedDocument } from './support/documents.ts';
import { type Connected, inProcess, textJson } from './support/mcp.ts';

const doc = publishedDocument();
const operations = listOperations(doc);
const byOperation = new Map(toolTable.map((tool) => [tool.operationId, tool]));
/** Named like a credential, in any case: what a tool must never take from a model. */
const SECRET =
  /(^|[_-])(sudo|token|private_token|access_token|job_token|password|secret|api_key|private_key|secret_access_key|access_key_id)$/i;
const CONSTRAINTS = [
  'enum',
  'const',
  'format',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
];

function isSecretProperty(name: string, schema: JsonSchema): boolean {
  // A flag is no secret, also where a rule between fields names its value (`reset_password: { const: true }`).
  const types = [schema.type, typeof schema.const === 'boolean' ? 'boolean' : undefined].flat();
  return (SECRET.test(name) || schema.writeOnly === true) && !types.includes('boolean') && !types.includes('integer');
}

/** Every write-only field of the request bodies (a credential sent only), as a dotted path per operation. */
function writeOnlyBodyFields(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const visit = (schema: unknown, at: string[], operationId: string, seen: Set<unknown>): void => {
    const target = resolve<JsonSchema>(doc, (schema ?? {}) as JsonSchema);
    if (typeof target !== 'object' || target === null || seen.has(target)) return;
    seen.add(target);
    for (const [name, property] of Object.entries((target.properties ?? {}) as Record<string, JsonSchema>)) {
      if (resolve<JsonSchema>(doc, property).writeOnly === true)
        found.set(operationId, [...(found.get(operationId) ?? []), [...at, name].join('.')]);
      visit(property, [...at, name], operationId, seen);
    }
    for (const key of ['allOf', 'oneOf', 'anyOf'])
      for (const part of (target[key] as unknown[]) ?? []) visit(part, at, operationId, seen);
  };
  for (const entry of operations) {
    const body = resolve<{ content?: Record<string, { schema?: unknown }> }>(doc, entry.operation.requestBody ?? {});
    for (const media of Object.values(body.content ?? {})) visit(media.schema, [], entry.operationId, new Set());
  }
  return found;
}

describe('the tool table', () => {
  it('has one tool per operation, named [a-z0-9_] in at most 64 characters, unique', () => {
    expect(toolTable.map((tool) => tool.operationId)).toEqual(operations.map((entry) => entry.operationId));
    for (const tool of toolTable) expect(tool.name).toMatch(/^[a-z0-9_]{1,64}$/);
    expect(new Set(toolTable.map((tool) => tool.name)).size).toBe(operations.length);
  });

  it('annotates from the method: readOnly for GET/HEAD, destructive for DELETE, idempotent for GET/PUT/DELETE', () => {
    for (const entry of operations) {
      const { annotations } = byOperation.get(entry.operationId)!;
      expect(annotations.readOnlyHint, entry.operationId).toBe(['get', 'head'].includes(entry.method));
      expect(annotations.idempotentHint, entry.operationId).toBe(
        ['get', 'head', 'put', 'delete'].includes(entry.method),
      );
      if (entry.method === 'delete') expect(annotations.destructiveHint, entry.operationId).toBe(true);
      if (['get', 'head'].includes(entry.method)) expect(annotations.destructiveHint, entry.operationId).toBe(false);
    }
    // An operation that overwrites: a file's new content.
    expect(byOperation.get('repository/update-file')!.annotations.destructiveHint).toBe(true);
    expect(byOperation.get('merge-requests/merge')!.annotations.destructiveHint).toBe(false);
  });

  it('describes each tool from the summary and the description', () => {
    for (const entry of operations) {
      const tool = byOperation.get(entry.operationId)!;
      expect(tool.title).toBe(entry.operation.summary);
      expect(tool.description).toContain(entry.operation.summary);
      if (entry.operation.description) expect(tool.description).toContain(String(entry.operation.description).trim());
    }
  });

  it('keeps every constraint of every path and query parameter, and which are required', () => {
    let checked = 0;
    for (const entry of operations) {
      const tool = byOperation.get(entry.operationId)!;
      const properties = tool.inputSchema.properties as Record<string, JsonSchema>;
      for (const parameter of entry.parameters.filter((p: Parameter) => p.in === 'path' || p.in === 'query')) {
        const schema = resolve<JsonSchema>(doc, parameter.schema ?? {});
        if (isSecretProperty(parameter.name, schema)) continue;
        const property = properties[parameter.name];
        expect(property, `${entry.operationId} ${parameter.name}`).toBeDefined();
        for (const keyword of CONSTRAINTS.filter((k) => k in schema)) {
          expect(property![keyword], `${entry.operationId} ${parameter.name} ${keyword}`).toEqual(schema[keyword]);
          checked += 1;
        }
        if (parameter.required) expect(tool.inputSchema.required).toContain(parameter.name);
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('keeps the body fields with their constraints and required list beside the parameters', () => {
    const create = byOperation.get('merge-requests/create-merge-request')!;
    expect(create.inputSchema.required).toEqual(
      expect.arrayContaining(['id', 'source_branch', 'target_branch', 'title']),
    );
    expect(create.inputs).toMatchObject({ id: 'path', source_branch: 'body', title: 'body' });
    const ldap = byOperation.get('groups/create-ldap-group-link')!;
    // A rule relating body fields (one of cn or filter, however the document writes it) stays on the tool's input.
    const rule = JSON.stringify(ldap.inputSchema.allOf ?? null);
    expect(rule).toMatch(/"(oneOf|if)":/);
    expect(rule).toMatch(/"required":\["cn"\]/);
    expect(rule).toMatch(/"required":\["filter"\]/);
  });

  it('takes no input named like a credential, at any depth', () => {
    const found: string[] = [];
    const visit = (schema: unknown, where: string): void => {
      if (Array.isArray(schema)) for (const [i, item] of schema.entries()) visit(item, `${where}[${i}]`);
      if (typeof schema !== 'object' || schema === null) return;
      const properties = (schema as JsonSchema).properties as Record<string, JsonSchema> | undefined;
      for (const [name, property] of Object.entries(properties ?? {}))
        if (isSecretProperty(name, property)) found.push(`${where}.${name}`);
      for (const [key, value] of Object.entries(schema)) visit(value, `${where}/${key}`);
    };
    for (const tool of toolTable) visit(tool.inputSchema, tool.name);
    expect(found).toEqual([]);
    // Sudo, a header and a query parameter of nearly every operation, is never an input.
    expect(toolTable.filter((tool) => 'sudo' in tool.inputs || 'Sudo' in tool.inputs)).toEqual([]);
  });

  it("lists each body's credentials (write-only or named like one) as the operator's, never as inputs", () => {
    const writeOnly = writeOnlyBodyFields();
    expect([...writeOnly.keys()]).toEqual(
      expect.arrayContaining(['bulk-imports/create-migration', 'project-import-export/import-project-from-s3']),
    );
    for (const [operationId, paths] of writeOnly) {
      const tool = byOperation.get(operationId)!;
      expect(tool.secrets, operationId).toEqual(expect.arrayContaining(paths));
    }
    expect(byOperation.get('project-import-export/import-project-from-s3')!.secrets).toEqual([
      'access_key_id',
      'secret_access_key',
    ]);
    // A flag named like a credential is an input, also where a rule between fields names it.
    const user = byOperation.get('users/create-user')!;
    expect(user.secrets).toEqual(['password']);
    expect(user.inputs).toMatchObject({ reset_password: 'body', force_random_password: 'body' });
    expect(JSON.stringify(user.inputSchema.allOf)).toContain('{"reset_password":{"type":"boolean","const":true}}');
  });

  it('answers every documented success example as structuredContent valid against its outputSchema', async () => {
    const examples = JSON.parse(
      readFileSync(join(ROOT, 'packages', 'openapi', 'dist', 'examples.json'), 'utf8'),
    ) as Record<string, Record<string, Record<string, unknown>>>;
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const sdk = new AjvJsonSchemaValidator();
    let checked = 0;
    for (const tool of toolTable) {
      const schema = describeTool(tool).outputSchema;
      const successes = Object.entries(examples[tool.operationId] ?? {}).filter(([status]) => /^2/.test(status));
      for (const [status, named] of successes) {
        for (const [name, value] of Object.entries(named)) {
          const result = await resultOf(tool, Number(status), value);
          if (!schema) {
            expect(result.structuredContent, `${tool.name} ${name}`).toBeUndefined();
            continue;
          }
          const validate = ajv.compile(schema);
          expect(validate(result.structuredContent) || validate.errors, `${tool.name} ${status} ${name}`).toBe(true);
          expect(sdk.getValidator(schema)(result.structuredContent).valid, `${tool.name} ${name} (SDK)`).toBe(true);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

async function resultOf(tool: ToolEntry, status: number, data: unknown): Promise<CallToolResult> {
  const answer = {
    data,
    status,
    headers: {},
    rawHeaders: new Headers(),
    pagination: { page: 1, perPage: 20 },
    url: '',
  };
  return toolResult(tool, answer, Number.POSITIVE_INFINITY);
}

describe('the listings, through the SDK client', () => {
  const sizes: Record<string, number> = {};
  const list = async (options: Parameters<typeof inProcess>[0]) => {
    const mcp = await inProcess(options);
    try {
      return (await mcp.client.listTools()).tools;
    } finally {
      await mcp.close();
    }
  };

  it('serves every operation with --allow-writes --allow-destructive, and writes only with both flags', async () => {
    const all = await list({ allowWrites: true, allowDestructive: true });
    sizes.full = JSON.stringify(all).length;
    expect(all.map((tool) => tool.name)).toEqual(toolTable.map((tool) => tool.name));
    expect(selectTools({ allowDestructive: true })).toEqual(toolTable.filter((tool) => tool.access === 'read'));
    const destructive = all.filter((tool) => tool.annotations?.destructiveHint).map((tool) => tool.name);
    expect(destructive).toEqual(toolTable.filter((tool) => tool.access === 'destructive').map((tool) => tool.name));
  });

  it('refuses an unknown toolset, naming the known ones', () => {
    expect(() => selectTools({ toolsets: ['jobs', 'pipelines'] })).toThrow(
      /Unknown toolset\(s\) pipelines: .*merge-requests/,
    );
  });

  it('lists three tools in dynamic mode, at most 5 % of the full list', async () => {
    const dynamic = await list({ dynamic: true, allowWrites: true, allowDestructive: true });
    expect(dynamic.map((tool) => tool.name)).toEqual(['list_operations', 'describe_operation', 'call_operation']);
    const full = sizes.full ?? JSON.stringify(await list({ allowWrites: true, allowDestructive: true })).length;
    expect(JSON.stringify(dynamic).length / full).toBeLessThanOrEqual(0.05);
  });
});

describe('dynamic mode and long answers, in process', () => {
  let mcp: Connected;
  let small: Connected;
  beforeAll(async () => {
    mcp = await inProcess({ dynamic: true });
    small = await inProcess({ maxAnswerChars: 2_000 });
  });
  afterAll(async () => {
    await mcp.close();
    await small.close();
  });

  it('finds, describes and calls an operation; a write is not served without --allow-writes', async () => {
    const found = (await mcp.client.callTool({
      name: 'list_operations',
      arguments: { search: 'project jobs' },
    })) as CallToolResult;
    const names = (found.structuredContent as { operations: { name: string }[] }).operations.map((o) => o.name);
    expect(names).toContain('jobs_list_project_jobs');
    const described = (await mcp.client.callTool({
      name: 'describe_operation',
      arguments: { name: 'jobs_list_project_jobs' },
    })) as CallToolResult;
    expect(described.structuredContent).toMatchObject({
      name: 'jobs_list_project_jobs',
      inputSchema: { type: 'object' },
    });
    const called = (await mcp.client.callTool({
      name: 'call_operation',
      arguments: { name: 'jobs_list_project_jobs', arguments: { id: 'my-group/my-project', per_page: 1 } },
    })) as CallToolResult;
    expect((called.structuredContent as { items: unknown[] }).items).toHaveLength(1);
    const write = (await mcp.client.callTool({
      name: 'call_operation',
      arguments: { name: 'merge_requests_merge', arguments: { id: 'my-group/my-project', merge_request_iid: 1 } },
    })) as CallToolResult;
    expect(write.isError).toBe(true);
    expect(textJson(write).error).toMatch(/--allow-writes/);
  });

  it('pages a keyset list with the cursor its answers give, never repeating an item', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page += 1) {
      const result = (await small.client.callTool({
        name: 'repository_list_tree',
        arguments: {
          id: 'my-group/my-project',
          pagination: 'keyset',
          per_page: 2,
          recursive: true,
          ...(cursor ? { cursor } : {}),
        },
      })) as CallToolResult;
      const content = result.structuredContent as { items: { path: string }[]; next_cursor?: string };
      seen.push(...content.items.map((item) => item.path));
      cursor = content.next_cursor;
      if (!cursor) break;
    }
    expect(cursor).toBeUndefined();
    expect(seen.length).toBeGreaterThan(2);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('cuts a long list at an item boundary and says which arguments answer the rest', async () => {
    const call = async (args: Record<string, unknown>) =>
      (await small.client.callTool({
        name: 'jobs_list_project_jobs',
        arguments: { id: 'my-group/my-project', ...args },
      })) as CallToolResult;
    const whole = (await (
      await inProcess()
    ).client.callTool({
      name: 'jobs_list_project_jobs',
      arguments: { id: 'my-group/my-project', per_page: 20 },
    })) as CallToolResult;
    const all = (whole.structuredContent as { items: { id: number }[] }).items;
    const cut = await call({ per_page: 20 });
    const content = cut.structuredContent as {
      items: { id: number }[];
      truncated: { shown: number; of: number; rest: Record<string, number> };
    };
    expect(JSON.stringify(content).length).toBeLessThanOrEqual(2_000);
    expect(content.truncated.of).toBe(all.length);
    expect(content.items.map((job) => job.id)).toEqual(all.slice(0, content.truncated.shown).map((job) => job.id));
    const rest = await call(content.truncated.rest);
    const next = (rest.structuredContent as { items: { id: number }[] }).items;
    expect(next[0]!.id).toBe(all[content.truncated.shown]!.id);
  });
});

describe("the answer's text: reused as received unless cut or redacted", () => {
  const TOKEN = 'answer-test-token';
  /** A server whose Service answers `body` (as this text) to every request. */
  function answering(body: string, token: string | undefined = TOKEN) {
    const headers = { 'content-type': 'application/json', 'x-page': '1', 'x-per-page': '20' };
    return createToolService({
      baseUrl: 'http://service.localhost/api/v4',
      ...(token ? { token } : {}),
      fetch: async () => new Response(body, { headers }),
    });
  }
  const call = async (body: string, name: string, args: Record<string, unknown>, token?: string) => {
    const result = await answering(body, token).call(name, args);
    const text = (result.content[0] as { text: string }).text;
    expect(JSON.parse(text), text).toEqual(result.structuredContent);
    return { text, structured: JSON.stringify(result.structuredContent) };
  };
  const job = (name: string) => `{ "id": 7,  "name": "${name}" }`;

  it('reuses the text of a list inside its paging fields, and of a record, as received', async () => {
    const list = await call(`[${job('build')}]`, 'jobs_list_project_jobs', { id: 1 });
    expect(list.text).toBe(`{"items":[${job('build')}],"page":1,"per_page":20}`);
    const record = await call(job('build'), 'jobs_get_project_job', { id: 1, job_id: 7 });
    expect(record.text).toBe(job('build'));
  });

  const secrets: [string, string][] = [
    ['as it is', TOKEN],
    ['spelt with an escape', `\\u0061nswer-test-token`],
    ['with an escaped slash before it', `\\/${TOKEN}`],
  ];
  it.each(secrets)('never reuses a text with the credential %s: the result is redacted', async (_how, spelt) => {
    for (const [body, name, args] of [
      [`[${job(spelt)}]`, 'jobs_list_project_jobs', { id: 1 }],
      [job(spelt), 'jobs_get_project_job', { id: 1, job_id: 7 }],
    ] as const) {
      const { text, structured } = await call(body, name, args);
      expect(text).not.toContain(TOKEN);
      expect(JSON.stringify(JSON.parse(text))).not.toContain(TOKEN);
      expect(structured).not.toContain(TOKEN);
      expect(text).toContain('[redacted]');
    }
  });

  it('reuses a text with escapes that cannot spell a secret', async () => {
    const body = job('line\\none \\"quoted\\"');
    expect((await call(body, 'jobs_get_project_job', { id: 1, job_id: 7 })).text).toBe(body);
    expect((await call(job('\\u0061'), 'jobs_get_project_job', { id: 1, job_id: 7 }, '')).text).toBe(job('\\u0061'));
  });

  it('never reuses a text with a short escape of a character a secret has', async () => {
    const { text } = await call(job('answer\\/test'), 'jobs_get_project_job', { id: 1, job_id: 7 }, 'answer/test');
    expect(text).toBe('{"id":7,"name":"[redacted]"}');
  });
});

describe("credentials of request bodies: the operator's, in process", () => {
  /** The server against the fake, every request body the fake received kept. */
  async function recording(secrets: Record<string, string>) {
    const fake = await createFake();
    const bodies: string[] = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (request.method !== 'GET') bodies.push(await request.clone().text());
      return fake.fetch(request);
    };
    const service = createToolService({
      baseUrl: 'http://fake.localhost/api/v4',
      token: 'owner-token',
      fetch,
      allowWrites: true,
      secrets,
    });
    return { service, bodies, close: () => fake.app.close() };
  }
  const migration = { configuration: { url: 'https://source.example' }, entities: [] as unknown[] };

  it('sends the operator’s value in the body, a tool’s own over the shared one, and redacts it', async () => {
    const server = await recording({
      'configuration.access_token': 'shared-source-token',
      'bulk_imports_create_migration:configuration.access_token': 'migration-source-token',
    });
    try {
      const result = await server.service.call('bulk_imports_create_migration', migration);
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect(server.bodies.map((body) => JSON.parse(body))).toEqual([
        { configuration: { url: 'https://source.example', access_token: 'migration-source-token' }, entities: [] },
      ]);
      expect(migration.configuration).toEqual({ url: 'https://source.example' });
      // The fake's 400 names the namespace given: a model that learnt the secret cannot read it back.
      const echoed = await server.service.call('bulk_imports_create_migration', {
        ...migration,
        entities: [
          {
            source_type: 'group_entity',
            source_full_path: 'source-group',
            destination_slug: 'copy',
            destination_namespace: 'migration-source-token',
          },
        ],
      });
      expect(echoed.isError).toBe(true);
      expect(JSON.stringify(echoed)).not.toContain('migration-source-token');
      expect(JSON.stringify(echoed)).toContain('[redacted]');
    } finally {
      await server.close();
    }
  });

  it('refuses a credential the model passes, and sends nothing', async () => {
    const server = await recording({ secret_access_key: 'operator-secret', access_key_id: 'operator-key-id' });
    try {
      const result = await server.service.call('project_import_export_import_project_from_s3', {
        bucket_name: 'exports',
        file_key: 'export.tar.gz',
        path: 'from-s3',
        region: 'eu-west-1',
        secret_access_key: 'typed-by-the-model',
      });
      expect(result.isError).toBe(true);
      expect(textJson(result).issues).toEqual([
        { path: ['secret_access_key'], message: expect.stringContaining('never a tool argument') },
      ]);
      expect(JSON.stringify(result)).not.toContain('typed-by-the-model');
      expect(server.bodies).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('refuses a name that is no body’s credential, and an empty value', () => {
    const start = (secrets: Record<string, string>) => () =>
      createToolService({ baseUrl: 'http://fake.localhost/api/v4', secrets });
    expect(start({ private_token: 'x' })).toThrow(
      /private_token: not a credential of any tool's body; .*secret_access_key/,
    );
    expect(start({ 'groups_update_hook:secret_access_key': 'x' })).toThrow(/not a credential of groups_update_hook/);
    expect(start({ secret_access_key: '' })).toThrow(/the value is empty/);
    expect(secretFields().get('token')).toEqual(expect.arrayContaining(['groups_update_hook']));
  });
});
