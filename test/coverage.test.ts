import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { computeCoverage, type Inventory } from '../scripts/lib/coverage.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import { publishedDocument } from './support/documents.ts';
import { readShared, sharedMissing } from './support/shared.ts';

const mini = YAML.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'mini.yaml'), 'utf8')) as OpenApiDocument;

describe('computeCoverage', () => {
  const inventory: Inventory = {
    operations: [
      {
        part: 1,
        section: '4.1',
        method: 'GET',
        path: '/widgets/{id}',
        parameters: [
          { name: 'id', in: 'path' },
          { name: 'colour', in: 'query' },
        ],
      },
      { part: 1, section: '4.1', method: 'DELETE', path: '/widgets/{id}', parameters: [{ name: 'id', in: 'path' }] },
    ],
    resources: [
      { name: 'Widget', part: 1, section: '2.1', fields: [{ name: 'id' }, { name: 'state' }, { name: 'weight' }] },
      { name: 'Gadget', part: 1, section: '2.2', fields: [{ name: 'id' }] },
    ],
  };

  it('counts what the document has and lists what it lacks, per section', () => {
    expect(computeCoverage(mini, inventory)).toEqual([
      {
        part: 1,
        section: '2.1',
        operations: { covered: 0, total: 0 },
        parameters: { covered: 0, total: 0 },
        fields: { covered: 2, total: 3 },
        missing: ['field Widget.weight'],
        choices: [],
      },
      {
        part: 1,
        section: '2.2',
        operations: { covered: 0, total: 0 },
        parameters: { covered: 0, total: 0 },
        fields: { covered: 0, total: 1 },
        missing: ['resource Gadget (1 fields)'],
        choices: [],
      },
      {
        part: 1,
        section: '4.1',
        operations: { covered: 1, total: 2 },
        parameters: { covered: 1, total: 3 },
        fields: { covered: 0, total: 0 },
        missing: [
          'parameter colour (query) of GET /widgets/{id}',
          'operation DELETE /widgets/{id} (and its 1 parameters)',
        ],
        choices: [],
      },
    ]);
  });

  it('follows documented aliases', () => {
    const aliased = computeCoverage(
      mini,
      { operations: [], resources: [{ name: 'Gizmo', part: 1, section: '2.1', fields: [{ name: 'id' }] }] },
      { resources: { Gizmo: { schema: 'Widget', reason: 'test' } } },
    );
    expect(aliased[0]!.fields).toEqual({ covered: 1, total: 1 });
    expect(aliased[0]!.choices).toEqual(['resource Gizmo is schema Widget: test']);
  });

  it('counts a parameter the seed gives no name for through its documented description', () => {
    const result = computeCoverage(
      mini,
      {
        operations: [
          {
            part: 1,
            section: '4.1',
            method: 'GET',
            path: '/widgets/{id}',
            parameters: [{ name: 'the colour', in: 'query' }],
          },
        ],
        resources: [],
      },
      {
        parameters: { 'GET /widgets/{id}': { 'the colour': { reason: 'unnamed in the seed' } } },
      },
    );
    expect(result[0]).toMatchObject({
      parameters: { covered: 1, total: 1 },
      missing: [],
      choices: ['parameter the colour of GET /widgets/{id}: unnamed in the seed'],
    });
  });

  it('finds body parameters, nested fields, map values and placeholder names', () => {
    const doc = structuredClone(mini);
    doc.paths['/widgets/{id}']!.put = {
      requestBody: {
        content: {
          'application/json': {
            schema: { type: 'object', properties: { name: {} }, patternProperties: { '^[a-z0-9]+_api_key$': {} } },
          },
        },
      },
      responses: {},
    };
    (doc.components!.schemas as Record<string, unknown>).Widget = {
      type: 'object',
      properties: {
        parts: { type: 'array', items: { properties: { sku: {} } } },
        stats: { additionalProperties: { properties: { count: {} } } },
      },
    };
    const result = computeCoverage(doc, {
      operations: [
        {
          part: 1,
          section: '4.1',
          method: 'PUT',
          path: '/widgets/{id}',
          parameters: [
            { name: 'name', in: 'body' },
            { name: '<vendor>_api_key', in: 'body' },
          ],
        },
      ],
      resources: [
        { name: 'Widget.parts', part: 1, section: '2.1', fields: [{ name: 'sku' }] },
        { name: 'Widget.stats.<name>', part: 1, section: '2.1', fields: [{ name: 'count' }] },
      ],
    });
    expect(result.flatMap((s) => s.missing)).toEqual([]);
  });
});

const inventoryText = readShared('seed-inventory.json');
if (inventoryText === undefined) sharedMissing('seed-inventory.json');
else {
  describe('the published document against the seed inventory', () => {
    const inventory = JSON.parse(inventoryText) as Inventory;
    const sections = computeCoverage(
      publishedDocument(),
      inventory,
      JSON.parse(readFileSync(join(ROOT, 'scripts', 'coverage-aliases.json'), 'utf8')),
    );
    const started = sections.filter((s) => s.operations.covered > 0 || s.fields.covered > 0);

    it('covers the CI jobs section in full', () => {
      const jobs = sections.find((s) => s.part === 1 && s.section === '4.1')!;
      expect(jobs).toMatchObject({
        operations: { covered: 6, total: 6 },
        parameters: { covered: 12, total: 12 },
        missing: [],
      });
    });

    it.each(started.map((s) => [`Part ${s.part} §${s.section}`, s] as const))(
      '%s: a section that is started is complete',
      (_name, section) => {
        expect(section.missing).toEqual([]);
      },
    );
  });
}
