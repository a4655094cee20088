/**
 * CONTRIBUTING.md's "Adding an operation", walked on a copy of `openapi/` for a small operation (the summary of a job,
 * with one query parameter): the fragment and the path entry (steps 1-5) keep the layout, Redocly's lint and the
 * bundle clean; then each check that the later steps answer names the new operation until its step is done: the
 * coverage sources (step 6), the fake handler in its tag's folder and its parameter table (step 7). A parameter
 * without a description fails Redocly's lint under the house configuration.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { listOperations } from '../generators/lib/document.ts';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { implementedOperations } from '../packages/fake/src/index.ts';
import { parameterTables } from '../packages/fake/src/handlers/parameters.ts';
import { type Inventory, reverseCoverage, type Sources } from '../scripts/lib/coverage.ts';
import { checkLayout } from '../scripts/lib/layout.ts';
import { BIN, ROOT } from '../scripts/lib/paths.ts';
import { run } from '../scripts/lib/run.ts';
import { readShared, sharedMissing } from './support/shared.ts';

const PATH = '/projects/{id}/jobs/{job_id}/summary';
const ID = 'jobs/get-project-job-summary';
const readJson = <T>(relative: string) => JSON.parse(readFileSync(join(ROOT, relative), 'utf8')) as T;

/** Step 1-4: the operation's fragment, made from the single-job fragment, with one described query parameter. */
function fragment(description: string | undefined): string {
  const item = YAML.parse(readFileSync(join(ROOT, 'openapi/jobs/paths/projects_{id}_jobs_{job_id}.yaml'), 'utf8'));
  const get = item.get;
  get.operationId = ID;
  get.summary = 'Get the summary of a job';
  get.description = 'The summary of a job of the project: a job record.';
  get.parameters.push({
    name: 'colour',
    in: 'query',
    ...(description ? { description } : {}),
    schema: { type: 'string' },
  });
  return YAML.stringify(item);
}

let copy: string;
let lint: { code: number; output: string };
let bundled: OpenApiDocument;

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), 'adding-an-operation-'));
  cpSync(join(ROOT, 'openapi'), join(copy, 'openapi'), { recursive: true });
  cpSync(join(ROOT, 'redocly.yaml'), join(copy, 'redocly.yaml'));
  writeFileSync(
    join(copy, 'openapi/jobs/paths/projects_{id}_jobs_{job_id}_summary.yaml'),
    fragment('Only lines of this colour.'),
  );
  // Step 5: the path entry, beside the single job's.
  const root = join(copy, 'openapi/openapi.yaml');
  writeFileSync(
    root,
    readFileSync(root, 'utf8').replace(
      '    $ref: jobs/paths/projects_{id}_jobs_{job_id}.yaml\n',
      `$&  ${PATH}:\n    $ref: jobs/paths/projects_{id}_jobs_{job_id}_summary.yaml\n`,
    ),
  );
  const config = ['--config', join(copy, 'redocly.yaml')];
  const output = join(copy, 'bundle.json');
  const [linted, bundle] = await Promise.all([
    run(BIN('redocly'), ['lint', root, ...config, '--format', 'stylish']),
    run(BIN('redocly'), ['bundle', root, ...config, '--output', output]),
  ]);
  lint = linted;
  expect(bundle.code, bundle.output).toBe(0);
  bundled = JSON.parse(readFileSync(output, 'utf8')) as OpenApiDocument;
}, 120_000);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('steps 1 to 5: fragment, path entry, lint and bundle', () => {
  it('keep the layout of openapi/', () => {
    expect(checkLayout(join(copy, 'openapi'))).toEqual([]);
  });

  it("pass Redocly's lint with the house configuration", () => {
    expect(lint.code, lint.output).toBe(0);
  });

  it('bundle into a document with the new operation and its parameter', () => {
    const entry = listOperations(bundled).find((e) => e.operationId === ID);
    expect(entry?.path).toBe(PATH);
    expect(entry?.parameters.map((p) => p.name)).toContain('colour');
  });
});

describe('step 7: the fake', () => {
  it('lacks a handler for the new operation until one is added in the folder of its tag', () => {
    const missing = listOperations(bundled)
      .map((e) => e.operationId)
      .filter((id) => !implementedOperations.includes(id));
    expect(missing).toEqual([ID]);
    expect(readFileSync(join(ROOT, 'packages/fake/src/index.ts'), 'utf8')).toContain("'./handlers/jobs/");
  });

  it('has no parameter table entry for its query parameter until one is added', () => {
    expect(parameterTables[ID]).toBeUndefined();
  });
});

const inventoryText = readShared('seed-inventory.json');
if (inventoryText === undefined) sharedMissing('seed-inventory.json');
else
  describe('step 6: the coverage sources', () => {
    const inventory = JSON.parse(inventoryText) as Inventory;
    const aliases = readJson<object>('scripts/coverage-aliases.json');
    const sources = readJson<Sources>('scripts/coverage-sources.json');

    it('name the new operation until it is listed with its source, then its parameter until that is', () => {
      expect(reverseCoverage(bundled, inventory, aliases, sources).unlisted).toEqual([`operation GET ${PATH}`]);
      const listed: Sources = {
        ...sources,
        operations: {
          ...sources.operations,
          [`GET ${PATH}`]: { sameAs: 'GET /projects/{id}/jobs/{job_id}', source: 'GitLab: lib/api/ci/jobs.rb' },
        },
      };
      expect(reverseCoverage(bundled, inventory, aliases, listed).unlisted).toEqual([
        `parameter colour (query) of GET ${PATH}`,
      ]);
      listed.parameters = {
        ...sources.parameters,
        [`GET ${PATH}`]: { names: ['colour'], source: 'GitLab: lib/api/ci/jobs.rb' },
      };
      expect(reverseCoverage(bundled, inventory, aliases, listed)).toEqual({ unlisted: [], unused: [] });
    });
  });

describe("step 2: Redocly's parameter-description rule", () => {
  it('fails a parameter without a description, and passes it with one', async () => {
    const mini = YAML.parse(readFileSync(join(ROOT, 'test/fixtures/mini.yaml'), 'utf8'));
    const lintMini = async (description: string | undefined) => {
      mini.paths['/widgets/{id}'].get.parameters = [
        { name: 'colour', in: 'query', ...(description ? { description } : {}), schema: { type: 'string' } },
      ];
      const file = join(copy, `mini-${description ? 'described' : 'bare'}.yaml`);
      writeFileSync(file, YAML.stringify(mini));
      const result = await run(BIN('redocly'), [
        'lint',
        file,
        '--config',
        join(ROOT, 'redocly.yaml'),
        '--format',
        'stylish',
      ]);
      return result.output.split('\n').filter((line) => /\berror\s+parameter-description\b/.test(line));
    };
    const [bare, described] = await Promise.all([lintMini(undefined), lintMini('The colour.')]);
    // The fixture's own path parameter has none either: the new parameter adds one problem, its description removes it.
    expect(bare).toHaveLength(described.length + 1);
  });
});
