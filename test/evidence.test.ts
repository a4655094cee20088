/**
 * Evidence for every required and every non-null response field (openapi/conventions.md): each claim of the published
 * document has evidence in openapi/evidence.yaml, no field the Service sends conditionally is required, and
 * docs/evidence.md is the table the evidence makes. The rule itself is checked on small documents first, so a check
 * that passed by finding nothing would fail here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import type { Aliases } from '../scripts/lib/coverage.ts';
import { type EvidenceSource, fieldClaims, unsupportedClaims } from '../scripts/lib/evidence.ts';
import { EVIDENCE_MD, evidenceTable, readEvidence } from '../scripts/lib/evidence-table.ts';
import { exposures, withEntityConditions } from '../scripts/lib/evidence-entities.ts';
import { quoteFor, sectionText } from '../scripts/lib/evidence-seeds.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import { publishedDocument } from './support/documents.ts';
import { readSeeds, sharedMissing } from './support/shared.ts';

const widgetDocument = (widget: object): OpenApiDocument =>
  ({
    openapi: '3.1.0',
    info: { title: 't', version: '0' },
    paths: {
      '/w': {
        get: {
          operationId: 'widgets/get',
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Widget' } } },
            },
          },
        },
      },
    },
    components: { schemas: { Widget: widget } },
  }) as unknown as OpenApiDocument;
const source = (fields: EvidenceSource['records'][string]['fields'], rules: EvidenceSource['rules'] = {}) => ({
  rules,
  records: { Widget: { seed: 'Part 9 §1', fields } },
});
const widget = {
  type: 'object',
  required: ['a'],
  properties: { a: { type: 'string' }, b: { type: ['string', 'null'] }, c: { type: 'boolean' } },
};

describe('claims without evidence', () => {
  const cases: [string, EvidenceSource, string[]][] = [
    [
      'nothing backs a required, non-null field',
      source({}),
      ['Widget.a: required', 'Widget.a: non-null', 'Widget.c: non-null'],
    ],
    [
      'a seed quote backs the required claim, not the non-null one',
      source({ a: '| a | | |', c: { seed: '| c | boolean | |', type: 'boolean' } }),
      ['Widget.a: non-null'],
    ],
    [
      'a typed quote and a rule back both',
      source(
        { a: { seed: '| a | string | |', type: 'string' } },
        { flags: { statement: 'flags', types: ['boolean'] } },
      ),
      [],
    ],
    [
      'a field the Service sends conditionally cannot be required',
      source(
        { a: { seed: '| a | string | |', type: 'string', conditional: 'entity.rb: expose :a, if: …' } },
        { flags: { statement: 'flags', types: ['boolean'] } },
      ),
      ['Widget.a: required, but the Service sends it only conditionally'],
    ],
  ];
  it.each(cases)('%s', (_title, evidence, want) => {
    expect(unsupportedClaims(fieldClaims(widgetDocument(widget), evidence))).toEqual(want);
  });

  it('a nullable optional field makes no claim', () => {
    const claim = fieldClaims(widgetDocument(widget), source({})).find((c) => c.field === 'b');
    expect(claim).toMatchObject({ required: false, nonNull: false });
  });
});

describe('seed quotes', () => {
  const seed =
    '## 2. Records\n### 2.1 Widget\n| a | integer | |\n| b | string or null | |\nList: c (boolean), d {x, y}\n### 2.2 Other\n| a | string | |';
  it.each([
    ['a', '| a | integer | |'],
    ['b', '| b | string or null | |'],
    ['c', 'List: c (boolean)'],
    ['x', 'd {x, y}'],
  ])('%s is quoted from its own section', (field, quote) => {
    expect(quoteFor(sectionText(seed, '2.1'), field)).toBe(quote);
  });
});

describe('the Service’s entities', () => {
  const entity = [
    'class Milestone < Grape::Entity',
    "  expose :id, :iid, documentation: { type: 'Integer' }",
    '  expose :project_id, if: ->(entity, options) { entity&.project_id }',
    '  expose :archived?, as: :archived',
    '  expose :owner, using: Entities::UserBasic,',
    '    unless: ->(project, options) { project.group }',
    '  expose(:ip_address) { |_runner, _options| nil }',
  ].join('\n');

  it('lists each exposed name, its line and whether a condition guards it', () => {
    expect(exposures(entity).map((e) => [e.field, e.line, e.conditional])).toEqual([
      ['id', 2, false],
      ['iid', 2, false],
      ['project_id', 3, true],
      ['archived', 4, false],
      ['owner', 5, true],
      ['ip_address', 7, false],
    ]);
  });

  it('records a conditional exposure on the field, keeping its seed quote', () => {
    const source: EvidenceSource = {
      rules: {},
      records: {
        Widget: { service: 'milestone.rb', fields: { project_id: '| project_id | integer |', id: '| id |' } },
      },
    };
    const fields = withEntityConditions(source, (path) => (path === 'milestone.rb' ? entity : undefined)).records
      .Widget!.fields!;
    expect(fields.project_id).toMatchObject({
      seed: '| project_id | integer |',
      conditional: expect.stringContaining('line 3'),
    });
    expect(fields.id).toBe('| id |');
  });
});

describe('the published document', () => {
  const aliases = JSON.parse(readFileSync(join(ROOT, 'scripts', 'coverage-aliases.json'), 'utf8')) as Aliases;
  const claims = fieldClaims(publishedDocument(), readEvidence(), aliases);

  it('every required and every non-null response field has evidence', () => {
    expect(unsupportedClaims(claims)).toEqual([]);
  });

  it('docs/evidence.md is the table the evidence makes (npm run evidence)', () => {
    expect(readFileSync(EVIDENCE_MD, 'utf8')).toBe(evidenceTable(claims));
  });
});

const seeds = readSeeds();
if (seeds === undefined) sharedMissing('seeds');
else
  it('every seed quote of the evidence file is the seeds’ own words (an ellipsis marks a cut)', () => {
    const text = seeds.join('\n');
    const quotes = Object.values(readEvidence().records).flatMap((r) =>
      Object.values(r.fields ?? {}).map((e) => (typeof e === 'string' ? e : e.seed)),
    );
    const fragments = (quote: string) =>
      quote
        .split('…')
        .map((f) => f.trim())
        .filter((f) => f.length > 0);
    const invented = quotes.filter((q) => q !== undefined && fragments(q).some((f) => !text.includes(f)));
    expect(invented).toEqual([]);
  });
