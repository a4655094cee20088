import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import YAML from 'yaml';
import { BIN, ROOT } from '../../scripts/lib/paths.ts';
import { run } from '../../scripts/lib/run.ts';

/**
 * The ruleset as Spectral loads it: every house rule fires on a document that breaks it, and none on a good one. Both
 * documents go to one Spectral process (its start-up is most of its time); each result names its document.
 */
async function lintEach(docs: Record<string, object>): Promise<Record<string, { code: string }[]>> {
  const dir = mkdtempSync(join(tmpdir(), 'ruleset-'));
  const files = Object.keys(docs).map((name) => join(dir, `${name}.json`));
  for (const [name, doc] of Object.entries(docs))
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(doc, null, 2));
  const result = await run(BIN('spectral'), [
    'lint',
    ...files,
    '--ruleset',
    join(ROOT, '.spectral.yaml'),
    '--format',
    'json',
    '--quiet',
  ]);
  const results = JSON.parse(result.output) as { code: string; source: string }[];
  const unknown = results.filter((r) => !files.includes(r.source));
  if (unknown.length > 0)
    throw new Error(`Spectral results for no linted document:\n${JSON.stringify(unknown, null, 2)}`);
  return Object.fromEntries(
    Object.keys(docs).map((name) => [name, results.filter((r) => r.source === join(dir, `${name}.json`))]),
  );
}

const good = YAML.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'mini.yaml'), 'utf8'));

/** A copy of the good document that breaks every house rule. */
function broken(): object {
  const bad = structuredClone(good);
  const op = bad.paths['/widgets/{id}'].get;
  op.operationId = 'widgets/fetchWidget';
  op.tags = ['gadgets'];
  op['x-bogus'] = true;
  delete op.responses['401'];
  bad.components.schemas.Widget.additionalProperties = false;
  bad.components.schemas.Widget.properties.state['x-admin-only'] = true;
  op.description = 'Reads a widget (Part 1 §4.1).';
  bad.components.examples.Widget.value.id = 'one';
  bad.paths['/widgets/{id}'].delete = {
    operationId: 'widgets/delete-widget',
    summary: 'Delete',
    tags: ['widgets'],
    responses: { '204': { description: 'Deleted' }, '401': { description: 'Unauthorized' } },
  };
  // The portable shapes (scripts/spectral/portable-shapes.js), each broken once.
  const widget = bad.components.schemas.Widget;
  widget.properties.secret = false;
  widget.properties.count = { type: ['integer', 'string'] };
  widget.properties.picture = { type: 'string', format: 'binary', maxLength: 1024 };
  widget.allOf = [{ if: { required: ['state'] }, then: { required: ['created_at'] } }];
  bad.components.schemas.Gadget = { allOf: [{ $ref: '#/components/schemas/Widget' }], required: ['id'] };
  bad.components.schemas.Settings = {
    properties: { ssl: { type: 'boolean' } },
    additionalProperties: { type: 'string' },
  };
  bad.servers[0].variables.base_url.description = 'Scheme and host';
  widget.properties.token = { not: {} };
  widget.properties.labels = {
    anyOf: [
      { type: 'array', items: { type: 'string' } },
      { type: 'array', items: { type: 'integer', format: 'int64' } },
    ],
  };
  bad.components.schemas.Job = {
    allOf: [
      { $ref: '#/components/schemas/Widget' },
      { type: 'object', properties: { runner: {} }, if: { required: ['state'] }, then: { required: ['runner'] } },
    ],
  };
  widget.properties.owner = { type: ['object', 'null'] };
  widget.properties.reviewers = { anyOf: [{ type: 'array', items: { type: 'string' } }, { const: 0 }] };
  bad.components.schemas.Holder = { properties: { widget: { type: 'object', properties: { id: {} } } } };
  bad.components.schemas.Link = {
    properties: { cn: {}, filter: {} },
    oneOf: [{ required: ['cn'] }, { required: ['filter'] }],
  };
  bad.paths['/widgets/{id}'].parameters[0].schema = {
    anyOf: [{ type: 'string' }, { type: 'integer', format: 'int64' }],
  };
  op.responses['403'] = {
    description: 'Forbidden',
    content: {
      'application/json': {
        schema: { anyOf: [{ $ref: '#/components/schemas/Widget' }, { $ref: '#/components/schemas/Settings' }] },
      },
    },
  };
  op.parameters = [
    structuredClone(bad.paths['/widgets/{id}'].parameters[0]),
    { name: 'Sudo', in: 'header', description: 'Act as.', schema: { type: 'string' } },
    { name: 'sudo', in: 'query', description: 'Act as.', schema: { type: 'string' } },
    {
      name: 'owner',
      in: 'query',
      description: 'Owner.',
      schema: {
        oneOf: [
          { type: 'integer', format: 'int64' },
          { type: 'string', enum: ['None'] },
        ],
      },
    },
  ];
  bad.paths['/widgets/{id}'].put = {
    operationId: 'widgets/update-widget',
    summary: 'Update',
    tags: ['widgets'],
    requestBody: {
      content: {
        'application/json': { schema: { type: 'object', additionalProperties: false } },
        'multipart/form-data': {
          schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
          encoding: { file: { contentType: 'application/gzip' } },
        },
      },
    },
    responses: { '200': { description: 'Updated' }, '401': { description: 'Unauthorized' } },
  };
  return bad;
}

let linted: Promise<Record<string, { code: string }[]>> | undefined;
const results = () => (linted ??= lintEach({ good, bad: broken() }));

it('reports nothing on a document in the house style', async () => {
  expect((await results()).good).toEqual([]);
}, 30_000);

it('runs every house rule', async () => {
  const codes = new Set((await results()).bad!.map((r) => r.code));
  const houseRules = Object.keys(YAML.parse(readFileSync(join(ROOT, '.spectral.yaml'), 'utf8')).rules).filter((r) =>
    r.startsWith('house-'),
  );
  for (const rule of houseRules) expect(codes, rule).toContain(rule);
  // Spectral's example rule, run through the shared function (scripts/spectral/oas-example-shared.js), still reports.
  expect(codes).toContain('oas3-valid-media-example');
}, 30_000);
