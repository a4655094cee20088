/**
 * @service-api/mcp beside a widely used generic OpenAPI-to-MCP server (@ivotoby/openapi-mcp-server, reading the same
 * published document): tool lists, schema fidelity, tools that answer against the fake, and the cost of a call
 * through the MCP server against a direct typed-client call.
 */
import { readFileSync } from 'node:fs';
import { startFake } from '@service-api/fake';
import { toolTable } from '@service-api/mcp';
import type { OpenApiDocument } from '../../../generators/lib/openapi.ts';
import { format, goal, heading, table } from '../lib/report.ts';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { type Contender, DOCUMENT, ours, quietly, theirs } from './mcp-contenders.ts';
import { byOperation, fidelity, listSize, readCalls, secretInputs, working } from './mcp-fidelity.ts';
import { overhead } from './mcp-overhead.ts';

export const name = 'mcp';

const OURS = '@service-api/mcp';
/** The data set's administrator, as the fake's conformance requests call: the read tools need no other setup. */
const ADMIN = 'admin-token';
const THEIRS = '@ivotoby/openapi-mcp-server 1.16.1';

export async function run(options: { rounds: number; calls: number }): Promise<void> {
  heading(
    'MCP server: ours against a generic OpenAPI-to-MCP server',
    `${OURS} and ${THEIRS} (the same published document, read at run time), each behind the official\n` +
      "SDK's Client over an in-memory pair, calling the same fake over HTTP. Sizes are the characters of `tools/list`;\n" +
      "fidelity counts the document's constraints on path, query and body inputs (enum, const, format, bounds, length,\n" +
      'pattern, required) that the input schemas keep; the working tools are the read-only operations called with the\n' +
      "same arguments against the fake's data set. Call cost: CPU per call (this process's, and the command's over\n" +
      'stdio), one list operation on an in-process fake, each path measured in the same run, warm.',
  );
  const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as OpenApiDocument;
  const fake = await startFake({ port: 0 });
  try {
    await compare(doc, `${fake.url}/api/v4`);
  } finally {
    await fake.close();
  }
  await overhead(name, options);
}

async function compare(doc: OpenApiDocument, api: string): Promise<void> {
  const base = { baseUrl: api, token: ADMIN };
  const calls = readCalls(doc);
  // The generic server logs every tool it registers and every call: the console is silent while it works.
  const { rows, defaults } = await quietly(async () => {
    const mine = {
      full: await ours({ ...base, allowWrites: true, allowDestructive: true }),
      default: await ours(base),
      dynamic: await ours({ ...base, dynamic: true }),
    };
    const other = { full: await theirs(api, 'all', ADMIN), dynamic: await theirs(api, 'dynamic', ADMIN) };
    try {
      const oursLists = [await mine.full.tools(), await mine.default.tools(), await mine.dynamic.tools()] as const;
      const theirsFull = await other.full.tools();
      const theirsLists = [theirsFull, theirsFull, await other.dynamic.tools()] as const;
      // The official client checks each answer against the tool's output schema once it has listed the tools.
      await mine.default.client.listTools();
      const rows = [
        await row(OURS, oursLists, mine.full, mine.default, doc, calls),
        await row(THEIRS, theirsLists, other.full, other.full, doc, calls),
      ];
      return { rows, defaults: oursLists[1].length };
    } finally {
      for (const contender of [...Object.values(mine), ...Object.values(other)]) await contender.close();
    }
  });
  const head = ['server', 'tools', 'official client lists them', 'tools/list chars: full / default / dynamic'];
  const more = ['constraints kept', 'credential inputs', `read tools answering (of ${calls.length})`];
  console.log(
    table(
      [...head, ...more],
      rows.map((r) => r.cells),
    ),
  );
  goals(rows[0]!, rows[1]!, defaults);
}

interface Row {
  cells: string[];
  listable: boolean;
  secrets: number;
  full: number;
  dynamic: number;
  kept: number;
  stated: number;
  answering: number;
}

async function row(
  label: string,
  lists: readonly [Tool[], Tool[], Tool[]],
  lister: Contender,
  caller: Contender,
  doc: OpenApiDocument,
  calls: ReturnType<typeof readCalls>,
): Promise<Row> {
  const [full, , dynamic] = lists.map(listSize);
  const tools = byOperation(doc, lists[0]);
  const { stated, kept } = fidelity(doc, tools);
  const answering = await working(caller, tools, calls);
  const listable = await lister.listable();
  const secrets = secretInputs(lists[0]);
  const cells = [
    label,
    String(lists[0].length),
    listable ? 'yes' : 'no: a tool fails its check',
    lists.map((list) => format(listSize(list))).join(' / '),
    `${format((kept / stated) * 100, 1)} % (${kept} of ${stated})`,
    String(secrets),
    String(answering),
  ];
  return { cells, listable, secrets, full: full!, dynamic: dynamic!, kept, stated, answering };
}

function goals(mine: Row, other: Row, defaults: number): void {
  const reads = toolTable.filter((tool) => tool.access === 'read').length;
  const chars = (r: Row) => `${format(r.dynamic)} of ${format(r.full)} characters`;
  goal(name, 'every operation a tool', `${toolTable.length} of ${toolTable.length}`, true);
  goal(name, 'default listing read-only', `${defaults} tools, ${reads} read-only`, defaults === reads);
  goal(name, 'the official client lists every tool', `yes (generic: ${other.listable ? 'yes' : 'no'})`, mine.listable);
  const share = mine.dynamic / mine.full;
  const measured = `${format(share * 100, 2)} % (${chars(mine)}; generic ${chars(other)})`;
  goal(name, 'dynamic mode ≤ 5 % of the full list (characters)', measured, share <= 0.05);
  const percent = (r: Row) => `${format((r.kept / r.stated) * 100, 1)} %`;
  goal(
    name,
    'input constraints of the document kept',
    `${percent(mine)} (generic ${percent(other)})`,
    mine.kept === mine.stated,
  );
  goal(name, 'no input named like a credential', `${mine.secrets} (generic ${other.secrets})`, mine.secrets === 0);
  goal(
    name,
    'read tools answering against the fake ≥ the generic server’s',
    `${mine.answering} (generic ${other.answering})`,
    mine.answering >= other.answering,
  );
}
