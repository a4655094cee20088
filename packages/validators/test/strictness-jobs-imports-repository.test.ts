import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { validateRequest, validateResponse } from '@service-api/validators';
import { ROOT } from '../../../scripts/lib/paths.ts';

/**
 * Job, import and repository records and bodies exactly as strict as the API: fields it types without null refuse null, a state that
 * "may" carry a field does not forbid it elsewhere, and request bodies keep the constraints the API states on
 * documented fields (an empty `upload` hash is a tolerance of the server package, not of the contract). Each case starts from a realistic body of
 * `test/fixtures/responses/` and changes one thing.
 */
type Body = Record<string, unknown>;
const fixture = (name: string, form: string) =>
  structuredClone(
    (
      YAML.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'responses', `${name}.yaml`), 'utf8')) as Record<
        string,
        Body
      >
    )[form]!,
  );
const job = fixture('Job', 'finished');
const bridge = fixture('TriggerJob', 'started');
const compare = fixture('CompareResult', 'withCommits');
const imported = fixture('ProjectImport', 'minimal');

describe('job, import and repository records', () => {
  const cases: [string, string, number, unknown, boolean][] = [
    ['a job as the API types it', 'jobs/list-project-jobs', 200, [job], true],
    ['a job not yet started (null duration)', 'jobs/list-project-jobs', 200, [{ ...job, duration: null }], true],
    [
      'a job not yet queued (null queued_duration)',
      'jobs/list-pipeline-jobs',
      200,
      [{ ...job, queued_duration: null }],
      true,
    ],
    [
      'a job without artifacts (null artifacts_expire_at)',
      'jobs/get-token-job',
      200,
      { ...job, artifacts_expire_at: null },
      true,
    ],
    ['a single job without artifacts', 'jobs/get-project-job', 200, { ...job, artifacts_expire_at: null }, true],
    ['a job with a string duration', 'jobs/list-project-jobs', 200, [{ ...job, duration: '87' }], false],
    ['a trigger job with its downstream pipeline', 'jobs/list-pipeline-bridges', 200, [bridge], true],
    [
      'a trigger job that has not triggered (null downstream pipeline)',
      'jobs/list-pipeline-bridges',
      200,
      [{ ...bridge, downstream_pipeline: null }],
      true,
    ],
    [
      'a trigger job not yet started (null duration)',
      'jobs/list-pipeline-bridges',
      200,
      [{ ...bridge, duration: null }],
      true,
    ],
    [
      'a trigger job with a downstream pipeline id only',
      'jobs/list-pipeline-bridges',
      200,
      [{ ...bridge, downstream_pipeline: 5 }],
      false,
    ],
    ['a compare result', 'repository/compare', 200, compare, true],
    ['a compare result with a null commit', 'repository/compare', 200, { ...compare, commit: null }, false],
    [
      'a scheduled import with failed_relations: []',
      'project-import-export/get-import-status',
      200,
      { ...imported, failed_relations: [] },
      true,
    ],
    [
      'an import in state none with failed_relations: []',
      'project-import-export/get-import-status',
      200,
      { ...imported, import_status: 'none', failed_relations: [] },
      true,
    ],
    [
      'a failed import without import_error',
      'project-import-export/get-import-status',
      200,
      { ...imported, import_status: 'failed' },
      false,
    ],
    [
      'an import in an unknown state',
      'project-import-export/get-import-status',
      200,
      { ...imported, import_status: 'paused' },
      false,
    ],
    [
      'a finished import with a null import_error',
      'project-import-export/get-import-status',
      200,
      { ...imported, import_status: 'finished', import_error: null },
      true,
    ],
    ['a job that did not fail, without failure_reason', 'jobs/list-project-jobs', 200, [job], true],
    [
      'a failed job without failure_reason',
      'jobs/list-project-jobs',
      200,
      [{ ...job, status: 'failed', failure_reason: undefined }],
      false,
    ],
    [
      'a compare diff of an added file (null a_mode)',
      'repository/compare',
      200,
      { ...compare, diffs: [{ ...(compare.diffs as Body[])[0], a_mode: null, new_file: true }] },
      true,
    ],
    [
      'a compare diff of a deleted file (null b_mode)',
      'repository/compare',
      200,
      { ...compare, diffs: [{ ...(compare.diffs as Body[])[0], b_mode: null, deleted_file: true }] },
      true,
    ],
    [
      'a compare diff with a numeric mode',
      'repository/compare',
      200,
      { ...compare, diffs: [{ ...(compare.diffs as Body[])[0], a_mode: 100644 }] },
      false,
    ],
    // The API's general rule answers a creating POST with 201; the Service's code answers this one with 200.
    ['a changelog commit answered 200', 'repository/create-changelog', 200, {}, true],
    ['a changelog commit answered 201', 'repository/create-changelog', 201, {}, true],
  ];
  it.each(cases)('%s', (_title, operationId, status, body, valid) => {
    expect(validateResponse(operationId as never, status, body).valid).toBe(valid);
  });
});

describe('job, import and repository request bodies', () => {
  const params = { id: 42 };
  const entity = {
    source_type: 'group_entity',
    source_full_path: 'source-group',
    destination_slug: 'migrated',
    destination_namespace: 'my-group',
  };
  const migration = {
    configuration: { url: 'https://source.example', access_token: 'source-token' },
    entities: [entity],
  };
  const cases: [string, string, unknown, boolean][] = [
    ['an export without a body field', 'project-import-export/export-project', {}, true],
    ['an export with an empty upload hash (no url)', 'project-import-export/export-project', { upload: {} }, false],
    [
      'an export upload with url and method',
      'project-import-export/export-project',
      { upload: { url: 'https://bucket.example/x', http_method: 'POST' } },
      true,
    ],
    [
      'an export upload with a method but no url',
      'project-import-export/export-project',
      { upload: { http_method: 'POST' } },
      false,
    ],
    [
      'an export upload with an unknown field but no url',
      'project-import-export/export-project',
      { upload: { uri: 'https://bucket.example/x' } },
      false,
    ],
    [
      'an export upload with a method other than PUT or POST',
      'project-import-export/export-project',
      { upload: { url: 'https://bucket.example/x', http_method: 'GET' } },
      false,
    ],
    [
      'an export upload that is not a hash',
      'project-import-export/export-project',
      { upload: 'https://bucket.example/x' },
      false,
    ],
    ['an export description that is not a string', 'project-import-export/export-project', { description: 5 }, false],
    ['an export with an unknown field', 'project-import-export/export-project', { note: 'x' }, true],
    [
      'a remote import with an unknown field',
      'project-import-export/import-project-from-url',
      { path: 'p', url: 'https://files.example/e.tar.gz', mirror: true },
      true,
    ],
    ['a remote import without url', 'project-import-export/import-project-from-url', { path: 'p' }, false],
    [
      'a remote import whose overwrite is not a boolean',
      'project-import-export/import-project-from-url',
      { path: 'p', url: 'u', overwrite: 'yes' },
      false,
    ],
    [
      'an S3 import without region',
      'project-import-export/import-project-from-s3',
      { access_key_id: 'k', bucket_name: 'b', file_key: 'f', path: 'p', secret_access_key: 's' },
      false,
    ],
    ['a migration with an unknown field', 'bulk-imports/create-migration', { ...migration, dry_run: true }, true],
    [
      'a migration without an access token',
      'bulk-imports/create-migration',
      { ...migration, configuration: { url: 'https://source.example' } },
      false,
    ],
    [
      'a migration entity of an unknown kind',
      'bulk-imports/create-migration',
      { ...migration, entities: [{ ...entity, source_type: 'user_entity' }] },
      false,
    ],
    [
      'a migration entity without destination_namespace',
      'bulk-imports/create-migration',
      { ...migration, entities: [{ ...entity, destination_namespace: undefined }] },
      false,
    ],
    [
      'a file write',
      'repository/create-file',
      { branch: 'main', commit_message: 'm', content: 'x', encoding: 'base64' },
      true,
    ],
    ['a changelog for a semantic version', 'repository/create-changelog', { version: 'v1.2.0' }, true],
    [
      'a file write in an unknown encoding',
      'repository/create-file',
      { branch: 'main', commit_message: 'm', content: 'x', encoding: 'hex' },
      false,
    ],
    ['a file write without content', 'repository/update-file', { branch: 'main', commit_message: 'm' }, false],
    ['a changelog for a version that is not semantic', 'repository/create-changelog', { version: 'one' }, false],
    [
      'a changelog date without a time zone',
      'repository/create-changelog',
      { version: '1.0.0', date: '2025-03-11T10:02:11' },
      true,
    ],
    [
      'a changelog date in the basic form',
      'repository/create-changelog',
      { version: '1.0.0', date: '20250311T100211Z' },
      true,
    ],
    [
      'a changelog date that is not a date-time',
      'repository/create-changelog',
      { version: '1.0.0', date: 'yesterday' },
      false,
    ],
  ];
  it.each(cases)('%s', (_title, operationId, body, valid) => {
    const path =
      operationId.startsWith('repository/') && !operationId.includes('changelog')
        ? { ...params, file_path: 'README.md' }
        : params;
    expect(validateRequest(operationId as never, { params: path, body: JSON.parse(JSON.stringify(body)) }).valid).toBe(
      valid,
    );
  });

  it.each([
    ['2025-03-11T10:02:11', true],
    ['20250311T100211Z', true],
    ['2025-03-11', false],
  ])('the changelog GET takes the date %s: %s', (date, valid) => {
    expect(validateRequest('repository/get-changelog', { params, query: { version: '1.0.0', date } }).valid).toBe(
      valid,
    );
  });
});
