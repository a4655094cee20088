/**
 * Every status an operation documents has a source: the general status table with its general meaning, or a quoted
 * sentence about that operation (test/fixtures/status-sources.yaml) that occurs in the API's reference text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import {
  normalise,
  sourceProblems,
  statusesNeedingSources,
  type StatusSources,
} from '../scripts/lib/status-sources.ts';
import { publishedDocument } from './support/documents.ts';
import { readSeeds, sharedMissing } from './support/shared.ts';

const sources = YAML.parse(
  readFileSync(join(ROOT, 'test', 'fixtures', 'status-sources.yaml'), 'utf8'),
) as StatusSources;
const doc = publishedDocument();

const GENERAL = {
  '200': 'ok',
  '201': 'created',
  '202': 'scheduled',
  '400': 'a required attribute is missing or the request is invalid',
  '409': 'a conflicting resource exists',
};
const shared = { $ref: '#/components/responses/Conflict' };
const operation = (responses: Record<string, object>, description = ''): OpenApiDocument =>
  ({
    openapi: '3.1.0',
    info: { title: 't', version: '0' },
    paths: { '/widgets': { post: { operationId: 'widgets/create-widget', description, responses } } },
    components: { responses: { Conflict: { description: '409' } } },
  }) as OpenApiDocument;

describe('statusesNeedingSources', () => {
  const cases: [string, OpenApiDocument, string[]][] = [
    [
      'a general status with the shared response needs none',
      operation({ '201': { description: 'created' }, '409': shared }),
      [],
    ],
    [
      'a status outside the general table needs one',
      operation({ '418': { description: 'teapot' } }),
      ['418 not in the general table'],
    ],
    [
      'an error response of its own states a cause',
      operation({ '400': { description: 'The widget is too heavy.' } }),
      ['400 its response states a cause'],
    ],
    [
      'a description naming the status states a cause',
      operation({ '409': shared }, 'A widget with the same name answers 409.'),
      ['409 the operation states a cause'],
    ],
    [
      'a number that only contains the status is no mention',
      operation({ '409': shared }, 'At most 14090 widgets, version 4.09.'),
      [],
    ],
    [
      'a POST answering 201 or 202 is general',
      operation({ '201': { description: 'created' }, '202': { description: 'scheduled' } }),
      [],
    ],
    [
      'a POST answering 200 is not',
      operation({ '200': { description: 'ok' } }),
      ['200 not the general status of its method'],
    ],
  ];
  it.each(cases)('%s', (_title, given, want) => {
    expect(statusesNeedingSources(given, GENERAL).map((n) => `${n.status} ${n.reason}`)).toEqual(want);
  });
});

describe('sourceProblems', () => {
  const given = operation({ '400': { description: 'The widget is too heavy.' } });
  it('accepts a quote found in the text with other whitespace and table bars', () => {
    expect(
      sourceProblems(
        given,
        { general: {}, operations: { 'widgets/create-widget': { '400': 'widgets | 400 |  too heavy' } } },
        ['| widgets|400|too\nheavy |'],
      ),
    ).toEqual([]);
  });
  it('reports a quote the text lacks and a source for an undocumented status', () => {
    expect(
      sourceProblems(
        given,
        { general: {}, operations: { 'widgets/create-widget': { '400': 'too light', '404': 'gone' } } },
        ['too heavy'],
      ),
    ).toEqual([
      'widgets/create-widget 404: a source for a status the operation does not document',
      'widgets/create-widget 400: the quoted sentence does not occur in the seeds: too light',
      'widgets/create-widget 404: the quoted sentence does not occur in the seeds: gone',
    ]);
  });
  it('normalises whitespace and table bars', () => {
    expect(normalise(' a |b\n\n c ')).toBe('a | b c');
  });
});

describe('the published document', () => {
  const needs = statusesNeedingSources(doc, sources.general);
  const unsourced = needs
    .filter(
      (n) =>
        sources.operations[n.operationId]?.[n.status] === undefined &&
        sources.service?.[n.operationId]?.[n.status] === undefined,
    )
    .map((n) => `${n.operationId} ${n.status}`);

  it('lists the statuses that need a source of their own', () => {
    expect(needs.length).toBeGreaterThan(0);
  });

  it('every operation-specific status has a source', () => {
    expect(unsourced).toEqual([]);
  });

  it('every source is for a status the operation documents', () => {
    expect(sourceProblems(doc, sources)).toEqual([]);
  });
});

const seeds = readSeeds();
if (seeds === undefined) sharedMissing('seeds/*.txt');
else {
  it('every quoted sentence occurs in the seeds', () => {
    expect(sourceProblems(doc, sources, seeds).filter((p) => p.includes('does not occur'))).toEqual([]);
  });
}
