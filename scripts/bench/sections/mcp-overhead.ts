/**
 * The cost of a tool call against a direct typed-client call, one operation on one in-process fake, in one run: the
 * MCP server's own work, the same through the official SDK's Client (its protocol, and its check of each answer
 * against the tool's output schema), the Client with that check off, and over stdio to the command; beside them the
 * pieces measured alone, so that the end-to-end figure splits into whose work it is.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { createServiceApi } from '@service-api/client';
import { createFake } from '@service-api/fake';
import { createMcpServer, createToolService, type McpServerOptions } from '@service-api/mcp';
import { ROOT } from '../../lib/paths.ts';
import { cpuMs } from '../lib/processes.ts';
import { goal, interleaved, showSpread, spread, table } from '../lib/report.ts';

const TOOL = 'jobs_list_project_jobs';
const ARGS = { id: 1 };
const TOKEN = 'maintainer-token';
/** Calls per contender before measuring: V8 optimises the call paths after many runs (as in the client section). */
const WARM_UP = 1_000;
/**
 * Samples are short and many (32 slices a round, a quarter of a round's calls each: 8,000 calls per contender by
 * default), in rotated order, so that the shared machine's load falls on every contender alike. A ratio is taken
 * within each slice, between contenders measured one right after the other, and the median of those ratios reported
 * (with their quartiles): a change of load between slices moves both sides of a ratio.
 */
const SLICES = 32;

/** A Client that checks no output schema: the protocol alone. */
const noCheck: jsonSchemaValidator = {
  getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }),
};

async function linked(server: Server, validator?: jsonSchemaValidator): Promise<Client> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' }, validator ? { jsonSchemaValidator: validator } : {});
  await client.connect(clientSide);
  await client.listTools();
  return client;
}

/** A bare SDK server whose one tool answers `result` as it is: the SDK's round trip of that result, nothing else. */
function fixedServer(tool: Tool, result: CallToolResult): Server {
  const server = new Server({ name: 'fixed', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [tool] }));
  server.setRequestHandler(CallToolRequestSchema, () => result);
  return server;
}

/** `service-api-mcp --fake` over stdio: the CPU of this process and of the command's. */
async function overStdio(): Promise<{ client: Client; pid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'packages', 'mcp', 'dist', 'cli.js'), '--fake'],
    env: { PATH: process.env.PATH ?? '', SERVICE_API_TOKEN: TOKEN },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  return { client, pid: transport.pid! };
}

type Contender = { call: () => Promise<unknown>; pid?: number };

async function contenders(target: McpServerOptions) {
  const api = createServiceApi({ baseUrl: target.baseUrl, auth: { privateToken: TOKEN }, fetch: target.fetch });
  const service = createToolService(target);
  const full = await linked(createMcpServer(target));
  const protocol = await linked(createMcpServer(target), noCheck);
  const { tools } = await full.listTools();
  const tool = tools.find((t) => t.name === TOOL)!;
  const answer = await service.call(TOOL, ARGS);
  const fixed = await linked(fixedServer(tool, answer), noCheck);
  const check = new AjvJsonSchemaValidator().getValidator(tool.outputSchema as never);
  const stdio = await overStdio();
  const callTool = (client: Client) => () => client.callTool({ name: TOOL, arguments: ARGS });
  const main: Record<string, Contender> = {
    'typed client: api.jobs.listProjectJobs': { call: () => api.jobs.listProjectJobs({ path: ARGS }) },
    'MCP server alone: the tool call, no protocol': { call: () => service.call(TOOL, ARGS) },
    'through the SDK Client, its output check off': { call: callTool(protocol) },
    'through the SDK Client (protocol + output check)': { call: callTool(full) },
    'over stdio to service-api-mcp --fake (both processes)': { call: callTool(stdio.client), pid: stdio.pid },
  };
  const alone: Record<string, Contender> = {
    'alone: our JSON text of the answer': { call: async () => JSON.stringify(answer.structuredContent) },
    // What the server did before it reused the answer's text: its result, and the parsed answer serialised again.
    'MCP server alone, serialising the answer again (as before)': {
      call: async () => JSON.stringify((await service.call(TOOL, ARGS)).structuredContent),
    },
    'alone: the SDK round trip of this result, fixed': { call: callTool(fixed) },
    "alone: the SDK Client's output check of it": { call: async () => check(answer.structuredContent) },
  };
  const close = async () => {
    for (const client of [full, protocol, fixed, stdio.client]) await client.close();
  };
  return { main, alone, close, chars: JSON.stringify(answer.structuredContent).length };
}

/** CPU µs per call of each contender: its own process's, and the command's when it has one. */
async function measure(all: Record<string, Contender>, options: { rounds: number; calls: number }) {
  for (const { call } of Object.values(all)) for (let i = 0; i < WARM_UP; i += 1) await call();
  const calls = Math.max(1, Math.round(options.calls / 4));
  return interleaved(Object.keys(all), options.rounds * SLICES, async (label) => {
    const { call, pid } = all[label]!;
    const child = pid === undefined ? 0 : cpuMs(pid);
    const cpu = process.cpuUsage();
    for (let i = 0; i < calls; i += 1) await call();
    const used = process.cpuUsage(cpu);
    const childUs = pid === undefined ? 0 : (cpuMs(pid) - child) * 1000;
    return (used.user + used.system + childUs) / calls;
  });
}

/** One contender's CPU over the typed client's in the same slice: the median and quartiles over the slices. */
function pairedRatio(samples: Record<string, number[]>, label: string, direct: string): Quartiles {
  const ratios = samples[label]!.map((value, slice) => value / samples[direct]![slice]!).sort((a, b) => a - b);
  const at = (share: number) => ratios[Math.round(share * (ratios.length - 1))]!;
  return { low: at(0.25), median: spread(ratios).median, high: at(0.75) };
}

type Quartiles = { low: number; median: number; high: number };

export async function overhead(section: string, options: { rounds: number; calls: number }): Promise<void> {
  const fake = await createFake();
  const built = await contenders({ baseUrl: 'http://fake.localhost/api/v4', token: TOKEN, fetch: fake.fetch });
  try {
    const samples = await measure({ ...built.main, ...built.alone }, options);
    const [directLabel, ...others] = Object.keys(built.main);
    const paired = Object.fromEntries(
      Object.keys(samples).map((label) => [label, pairedRatio(samples, label, directLabel!)]),
    );
    const [server, protocol, whole, stdio] = others.map((label) => paired[label]!.median);
    const ratio = (value: number) => `${value.toFixed(2)}×`;
    const quartiles = (r: Quartiles) => `${ratio(r.median)} (${r.low.toFixed(2)}–${r.high.toFixed(2)})`;
    const rows = Object.entries(samples).map(([label, s]) => [label, showSpread(spread(s)), quartiles(paired[label]!)]);
    const head = [
      `call (GET /projects/1/jobs, ${built.chars} characters, in-process fake)`,
      'CPU µs/call',
      '× typed, same slice (quartiles)',
    ];
    console.log(`\n${table(head, rows)}`);
    const share = (part: number) => `${Math.round((part / (whole! - 1)) * 100)} %`;
    const direct = spread(samples[directLabel!]!).median;
    const split =
      `ours ${share(server! - 1)}, the SDK's protocol ${share(protocol! - server!)}, ` +
      `its output check ${share(whole! - protocol!)} of the ${Math.round((whole! - 1) * direct)} µs added; stdio ${ratio(stdio!)}`;
    goal(section, "the MCP server's own work ≤ 1.5× a typed-client call (CPU)", ratio(server!), server! <= 1.5);
    goal(
      section,
      'MCP call through the official SDK Client ≤ 1.5× a typed-client call (CPU, in-process fake)',
      `${ratio(whole!)} (${split})`,
      whole! <= 1.5,
    );
  } finally {
    await built.close();
    await fake.app.close();
  }
}
