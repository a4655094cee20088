#!/usr/bin/env node
/**
 * service-api-mcp [--fake | --base-url URL] [--token-file FILE] [--allow-writes [--allow-destructive]]
 * [--toolsets a,b] [--dynamic] [--max-answer-chars N] [--secret NAME=ENV_VAR] [--secret-file NAME=FILE]
 * [--http [--port N] [--host H]]
 * Serves the tools over stdio (default) or Streamable HTTP. The credential comes from `SERVICE_API_TOKEN` or
 * `--token-file`, the credentials of request bodies from `--secret`/`--secret-file`; nothing is ever written to stdout
 * but the protocol, and no credential is ever printed.
 */
import { readFile } from 'node:fs/promises';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fail, readCommand, startOrFail, stopOnSignals } from '@service-api/server/command';
import { DEFAULT_MAX_ANSWER_CHARS } from './answer.ts';
import { toolsets } from './catalog.ts';
import { type OperatorSecrets, secretFields } from './secrets.ts';
import { startHttp } from './http.ts';
import { createMcpServer, createToolService, type McpServerOptions } from './server.ts';

const USAGE =
  'Usage: service-api-mcp (--fake | --base-url URL) [--token-file FILE] [--allow-writes] [--allow-destructive] [--toolsets a,b] [--dynamic] [--max-answer-chars N] [--secret NAME=ENV_VAR] [--secret-file NAME=FILE] [--http] [--port 4020] [--host 127.0.0.1]';

const HELP = `
Serves the Service HTTP API v4 as MCP tools, one per operation, over stdio (default) or Streamable HTTP (--http,
at http://HOST:PORT/mcp). Only read-only tools are listed unless --allow-writes; tools that remove or overwrite also
need --allow-destructive. The credential comes from SERVICE_API_TOKEN or --token-file (never a tool input).
  --fake                 serve against an in-process @service-api/fake (default token: maintainer-token)
  --base-url URL         the Service's API root, e.g. https://service.example/api/v4
  --toolsets a,b         only these tags: ${toolsets.join(', ')}
  --dynamic              three tools (list_operations, describe_operation, call_operation) instead of one per operation
  --max-answer-chars N   largest answer; longer lists are cut at an item (default ${DEFAULT_MAX_ANSWER_CHARS})
  --secret NAME=ENV_VAR  a credential of request bodies (never a tool input) from an environment variable; NAME is
                         the field (${[...secretFields().keys()].join(', ')}) or tool:field; repeatable
  --secret-file NAME=FILE  the same from a file (its text, trimmed)`;

const { values, port, host } = readCommand({
  usage: USAGE,
  help: HELP,
  options: {
    fake: { type: 'boolean', default: false },
    'base-url': { type: 'string' },
    'token-file': { type: 'string' },
    'allow-writes': { type: 'boolean', default: false },
    'allow-destructive': { type: 'boolean', default: false },
    toolsets: { type: 'string' },
    dynamic: { type: 'boolean', default: false },
    'max-answer-chars': { type: 'string', default: String(DEFAULT_MAX_ANSWER_CHARS) },
    secret: { type: 'string', multiple: true },
    'secret-file': { type: 'string', multiple: true },
    http: { type: 'boolean', default: false },
  },
  defaultPort: 4020,
});

async function readToken(): Promise<string | undefined> {
  if (values['token-file']) {
    const text = await readFile(values['token-file'], 'utf8').catch((error: NodeJS.ErrnoException) =>
      fail(`cannot read --token-file ${values['token-file']}: ${error.code ?? 'unreadable'}`),
    );
    return text.trim();
  }
  return process.env.SERVICE_API_TOKEN?.trim() || undefined;
}

/** `NAME=SOURCE` of --secret and --secret-file. */
function assignment(option: string, text: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0 || at === text.length - 1)
    fail(`--${option} takes NAME=${option === 'secret' ? 'ENV_VAR' : 'FILE'}, got "${text}"`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** The operator's credentials for request bodies; a message names the variable or the file, never a value. */
async function readSecrets(): Promise<OperatorSecrets> {
  const secrets: Record<string, string> = {};
  const options = values as unknown as { secret?: string[]; 'secret-file'?: string[] };
  for (const text of options.secret ?? []) {
    const [name, variable] = assignment('secret', text);
    const value = process.env[variable];
    if (!value) fail(`--secret ${name}=${variable}: the environment variable ${variable} is not set or empty`);
    secrets[name] = value;
  }
  for (const text of options['secret-file'] ?? []) {
    const [name, file] = assignment('secret-file', text);
    const value = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) =>
      fail(`cannot read --secret-file ${name}=${file}: ${error.code ?? 'unreadable'}`),
    );
    if (!value.trim()) fail(`--secret-file ${name}=${file}: the file is empty`);
    secrets[name] = value.trim();
  }
  return secrets;
}

async function options(): Promise<{ options: McpServerOptions; target: string; close?: () => Promise<void> }> {
  if (values.fake === Boolean(values['base-url'])) fail(`pass exactly one of --fake and --base-url URL\n${USAGE}`);
  const maxAnswerChars = Number(values['max-answer-chars']);
  if (!Number.isInteger(maxAnswerChars) || maxAnswerChars < 1000) fail('--max-answer-chars must be a number ≥ 1000');
  const common = {
    allowWrites: values['allow-writes'],
    allowDestructive: values['allow-destructive'],
    toolsets: values.toolsets
      ?.split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    dynamic: values.dynamic,
    maxAnswerChars,
    secrets: await readSecrets(),
  };
  if (values['allow-destructive'] && !values['allow-writes']) fail('--allow-destructive needs --allow-writes');
  const token = await readToken();
  if (!values.fake) {
    const baseUrl = values['base-url']!;
    if (!/^https?:\/\/[^/]/.test(baseUrl)) fail(`--base-url must be an http(s) URL, got "${baseUrl}"`);
    return { options: { ...common, baseUrl, ...(token ? { token } : {}) }, target: baseUrl };
  }
  const { createFake } = await import('@service-api/fake');
  const fake = await createFake();
  const baseUrl = 'http://fake.localhost/api/v4';
  return {
    options: { ...common, baseUrl, token: token ?? 'maintainer-token', fetch: fake.fetch },
    target: 'the in-process fake',
    close: () => fake.app.close(),
  };
}

const { options: serverOptions, target, close } = await options();
let service: ReturnType<typeof createToolService>;
try {
  service = createToolService(serverOptions);
} catch (error) {
  fail((error as Error).message);
}
const listed = serverOptions.dynamic
  ? `3 dynamic tools over ${service.tools.length} operations`
  : `${service.tools.length} tools`;
if (values.http) {
  const running = await startOrFail(startHttp(serverOptions, service, { host, port }), 'MCP server', port);
  console.error(`service-api-mcp: ${listed} against ${target}, Streamable HTTP at ${running.url}`);
  stopOnSignals(async () => {
    await running.close();
    await close?.();
  });
} else {
  const server = createMcpServer(serverOptions, service);
  await server.connect(new StdioServerTransport());
  console.error(`service-api-mcp: ${listed} against ${target}, over stdio`);
  stopOnSignals(async () => {
    await server.close();
    await close?.();
  });
}
