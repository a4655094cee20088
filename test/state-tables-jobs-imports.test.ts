import { describe, expect, it } from 'vitest';
import { resolve } from '../packages/server/src/openapi-model.ts';
import { listOperations, listResponses } from '../generators/lib/document.ts';
import { publishedDocument } from './support/documents.ts';

/**
 * Every example of the operations that have a state table (jobs, project export and import, relation imports,
 * direct-transfer migrations) obeys that table and the input it answers: a check per operation, run on each
 * of its 2xx JSON examples. A check returns the broken rules (empty when the example is right).
 */
type Body = Record<string, unknown>;
type Check = (body: unknown) => string[];

const JOB_STATUSES = [
  'created',
  'pending',
  'running',
  'failed',
  'success',
  'canceled',
  'skipped',
  'waiting_for_resource',
  'manual',
];
const EXPORT_STATES = ['none', 'queued', 'started', 'finished', 'regeneration_in_progress'];
const IMPORT_STATES = ['none', 'scheduled', 'failed', 'started', 'finished'];
const RELATION_IMPORT_STATES = ['created', 'started', 'finished', 'failed'];
const MIGRATION_STATES = ['created', 'started', 'finished', 'failed'];

const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const list =
  (check: (item: Body, index: number, all: Body[]) => string[]): Check =>
  (body) =>
    Array.isArray(body)
      ? body.flatMap((item, i, all) =>
          isObject(item) ? check(item, i, all as Body[]).map((e) => `[${i}] ${e}`) : [`[${i}] not an object`],
        )
      : ['not a list'];
const one =
  (check: (item: Body) => string[]): Check =>
  (body) =>
    isObject(body) ? check(body) : ['not an object'];
const within = (value: unknown, values: string[], field: string) =>
  values.includes(value as string) ? [] : [`${field} ${String(value)} is not a state of its table`];
const rules = (...pairs: [boolean, string][]) => pairs.filter(([broken]) => broken).map(([, message]) => message);

/** Job status table; a job that has not started has not finished; a job without artifacts has no archive; lists are id descending. */
function job(item: Body, index: number, all: Body[]): string[] {
  const artifacts = item.artifacts as unknown[] | undefined;
  return [
    ...within(item.status, JOB_STATUSES, 'status'),
    ...rules(
      [
        item.started_at === null && item.finished_at != null && item.status !== 'canceled',
        'finished_at without started_at',
      ],
      [
        Array.isArray(artifacts) && artifacts.length === 0 && 'artifacts_file' in item,
        'artifacts_file with no artifacts',
      ],
      [index > 0 && (all[index - 1]?.id as number) <= (item.id as number), 'not sorted by id descending'],
    ),
  ];
}

/** Export status table: `_links` appear only when the export is finished. */
const exportStatus = one((item) => [
  ...within(item.export_status, EXPORT_STATES, 'export_status'),
  ...rules(
    [item.export_status === 'finished' && !isObject(item._links), 'finished without _links'],
    [item.export_status !== 'finished' && '_links' in item, `_links while ${String(item.export_status)}`],
  ),
]);

/** Import status table: the error is filled when the import failed. */
const importStatus = one((item) => [
  ...within(item.import_status, IMPORT_STATES, 'import_status'),
  ...rules([item.import_status === 'failed' && typeof item.import_error !== 'string', 'failed without import_error']),
]);

/** A file or remote import answers a newly scheduled import. */
const scheduledImport = one((item) => [
  ...within(item.import_status, IMPORT_STATES, 'import_status'),
  ...rules([item.import_status !== 'scheduled', 'a new import is not scheduled']),
]);

/** Remote imports carry `import_error` (null until something fails). */
const remoteImport: Check = (body) => [
  ...scheduledImport(body),
  ...rules([!isObject(body) || !('import_error' in body), 'no import_error']),
];

const relationImport = (inList: boolean) => (item: Body) => [
  ...within(item.status, RELATION_IMPORT_STATES, 'status'),
  ...rules([
    inList && (!('created_at' in item) || !('updated_at' in item)),
    'a listed relation import without created_at/updated_at',
  ]),
];

const migration = (item: Body) => [
  ...within(item.status, MIGRATION_STATES, 'status'),
  ...rules([
    typeof item.created_at === 'string' && typeof item.updated_at === 'string' && item.updated_at < item.created_at,
    'updated before created',
  ]),
];

/** A migration or entity that is only created has imported nothing yet. */
const entity = (item: Body) => {
  const stats = isObject(item.stats) ? Object.values(item.stats) : [];
  return [
    ...migration(item),
    ...rules([
      item.status === 'created' && stats.some((s) => isObject(s) && (s.imported as number) > 0),
      'a created entity has imported items',
    ]),
  ];
};

const CHECKS: Record<string, Check> = {
  'jobs/list-project-jobs': list(job),
  'jobs/list-pipeline-jobs': list(job),
  'jobs/get-token-job': one((item) => job(item, 0, [item])),
  'jobs/list-pipeline-bridges': list(job),
  'project-import-export/get-export-status': exportStatus,
  'project-import-export/get-import-status': importStatus,
  'project-import-export/import-project': scheduledImport,
  'project-import-export/import-project-from-url': remoteImport,
  'project-import-export/import-project-from-s3': remoteImport,
  'project-import-export/import-relation': one(relationImport(false)),
  'project-import-export/list-relation-imports': list(relationImport(true)),
  'bulk-imports/create-migration': one((item) => [
    ...migration(item),
    ...rules([item.status !== 'created', 'a new migration is not created']),
  ]),
  'bulk-imports/list-migrations': list(migration),
  'bulk-imports/get-migration': one(migration),
  'bulk-imports/list-all-entities': list(entity),
  'bulk-imports/list-migration-entities': list(entity),
  'bulk-imports/get-migration-entity': one(migration),
};

function check(operationId: string): Check {
  const found = CHECKS[operationId];
  if (!found) throw new Error(`no state-table check for ${operationId}`);
  return found;
}

const doc = publishedDocument();
const operations = new Map(listOperations(doc).map((entry) => [entry.operation.operationId as string, entry]));
const cases = Object.keys(CHECKS).flatMap((operationId) => {
  const entry = operations.get(operationId);
  if (!entry) return [[operationId, '(operation missing)', undefined] as const];
  return listResponses(doc, entry)
    .filter(({ status, json }) => status.startsWith('2') && json)
    .flatMap(({ json }) =>
      Object.entries(json?.content.examples ?? {}).map(
        ([name, example]) => [operationId, name, (resolve(doc, example) as { value?: unknown }).value] as const,
      ),
    );
});

describe('state tables of jobs, exports, imports and migrations', () => {
  it('every checked operation exists and has examples', () => {
    for (const operationId of Object.keys(CHECKS))
      expect(
        cases.some(([id, name]) => id === operationId && name !== '(operation missing)'),
        operationId,
      ).toBe(true);
  });

  it.each(cases)('%s example %s obeys its state table', (operationId, _name, value) => {
    expect(check(operationId)(value)).toEqual([]);
  });

  it('the checks catch examples that break the tables', () => {
    const finished = {
      id: 1,
      status: 'pending',
      started_at: null,
      finished_at: '2025-03-11T10:04:31.870Z',
      artifacts: [],
    };
    expect(check('jobs/list-project-jobs')([finished])).toEqual(['[0] finished_at without started_at']);
    expect(
      check('jobs/list-project-jobs')([
        { id: 1, status: 'success' },
        { id: 2, status: 'success' },
      ]),
    ).toEqual(['[1] not sorted by id descending']);
    expect(check('jobs/list-pipeline-bridges')([{ id: 1, status: 'paused' }])).toEqual([
      '[0] status paused is not a state of its table',
    ]);
    expect(exportStatus({ export_status: 'started', _links: {} })).toEqual(['_links while started']);
    expect(exportStatus({ export_status: 'finished' })).toEqual(['finished without _links']);
    expect(importStatus({ import_status: 'failed', import_error: null })).toEqual(['failed without import_error']);
    expect(check('bulk-imports/create-migration')({ status: 'finished' })).toEqual(['a new migration is not created']);
    expect(
      check('bulk-imports/list-all-entities')([{ status: 'created', stats: { labels: { imported: 2 } } }]),
    ).toEqual(['[0] a created entity has imported items']);
    expect(check('bulk-imports/get-migration')({ status: 'paused' })).toEqual([
      'status paused is not a state of its table',
    ]);
  });
});
