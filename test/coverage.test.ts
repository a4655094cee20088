import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import {
  computeCoverage,
  type Inventory,
  reverseCoverage,
  type Sources,
  sourceProblems,
} from '../scripts/lib/coverage.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import { publishedDocument } from './support/documents.ts';
import { readSeeds, readShared, sharedMissing } from './support/shared.ts';

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

describe('reverseCoverage', () => {
  const inventory: Inventory = {
    operations: [
      { part: 1, section: '4.1', method: 'GET', path: '/widgets/{id}', parameters: [{ name: 'id', in: 'path' }] },
    ],
    resources: [
      { name: 'Widget', part: 1, section: '2.1', fields: [{ name: 'id' }, { name: 'state' }, { name: 'created_at' }] },
      { name: 'ErrorMessage', part: 1, section: '7', fields: [{ name: 'message' }] },
    ],
  };
  /** The mini document with one more query parameter, one more field and one more operation. */
  function grown(): OpenApiDocument {
    const doc = structuredClone(mini);
    const item = doc.paths['/widgets/{id}'] as { get: { parameters?: unknown[] } };
    item.get.parameters = [{ name: 'colour', in: 'query', schema: { type: 'string' } }];
    const widget = (doc.components!.schemas as Record<string, { properties: Record<string, unknown> }>).Widget!;
    widget.properties.weight = { type: 'integer' };
    widget.properties.secret = { not: {} };
    doc.paths['/gadgets'] = { get: { responses: {} } };
    return doc;
  }

  it('finds nothing in a document that has only what the inventory has', () => {
    expect(reverseCoverage(mini, inventory)).toEqual({ unlisted: [], unused: [] });
  });

  it('reports a parameter, a field and an operation the inventory lacks (a field never sent is no addition)', () => {
    expect(reverseCoverage(grown(), inventory).unlisted).toEqual([
      'parameter colour (query) of GET /widgets/{id}',
      'operation GET /gadgets',
      'field Widget.weight',
    ]);
  });

  it('accepts what is listed with its source, and reports listed entries nothing needs', () => {
    const sources: Sources = {
      everywhere: { 'query:colour': 'Part 1 §8: colour', 'query:size': 'Part 1 §8: size' },
      operations: { 'GET /gadgets': { sameAs: 'GET /widgets/{id}', source: 'Part 1 §4.1: gadgets' } },
      parameters: { 'GET /widgets/{id}': { names: ['shade'], source: 'Part 1 §4.1: shade' } },
      schemas: { Widget: { names: ['weight', 'height'], source: 'Part 1 §2.1: weight' } },
    };
    expect(reverseCoverage(grown(), inventory, {}, sources)).toEqual({
      unlisted: [],
      unused: ['everywhere query:size', 'schema Widget: field height', 'parameters GET /widgets/{id}: parameter shade'],
    });
  });

  it('takes the fields of a resource or the parameters of an operation where the entry says so', () => {
    const doc = grown();
    (doc.components!.schemas as Record<string, unknown>).WidgetInput = { properties: { id: {}, weight: {} } };
    const sources: Sources = {
      parameters: { 'GET /widgets/{id}': { names: ['colour'], source: 'Part 1 §4.1: colour' } },
      operations: { 'GET /gadgets': { sameAs: 'GET /widgets/{id}', source: 'Part 1 §4.1: gadgets' } },
      schemas: { WidgetInput: { fieldsOf: 'Widget', source: 'Part 1 §4.1: the record' } },
    };
    expect(reverseCoverage(doc, inventory, {}, sources).unlisted).toEqual([
      'field Widget.weight',
      'field WidgetInput.weight',
    ]);
  });

  it('checks that each source names a seed part or a file of the Service, and that the part names each entry', () => {
    const sources: Sources = {
      everywhere: { 'query:colour': 'Part 1 §8: colour', 'header:Size': 'the house style' },
      schemas: {
        Widget: { names: ['weight', 'height'], source: 'Part 1 §2.1: weights' },
        Gadget: { names: ['knob'], source: 'GitLab: lib/api/entities/gadget.rb' },
      },
    };
    expect(sourceProblems(sources, ['colour and weight'])).toEqual([
      'everywhere header:Size: the source must start with "Part <n> §<section>" or "GitLab: <file>"',
      'schema Widget: Part 1 does not name height',
    ]);
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

    it('has nothing the inventory lacks unless scripts/coverage-sources.json gives its source, and no stale entry', () => {
      const sources = JSON.parse(readFileSync(join(ROOT, 'scripts', 'coverage-sources.json'), 'utf8')) as Sources;
      const aliases = JSON.parse(readFileSync(join(ROOT, 'scripts', 'coverage-aliases.json'), 'utf8'));
      expect(reverseCoverage(publishedDocument(), inventory, aliases, sources)).toEqual({ unlisted: [], unused: [] });
    });

    it.each(started.map((s) => [`Part ${s.part} §${s.section}`, s] as const))(
      '%s: a section that is started is complete',
      (_name, section) => {
        expect(section.missing).toEqual([]);
      },
    );
  });
}

const seeds = readSeeds();
if (seeds === undefined) sharedMissing('seeds/*.txt');
else
  it('scripts/coverage-sources.json: each source is a seed part that names what the entry lists, or a Service file', () => {
    const sources = JSON.parse(readFileSync(join(ROOT, 'scripts', 'coverage-sources.json'), 'utf8')) as Sources;
    expect(sourceProblems(sources, seeds)).toEqual([]);
  });
