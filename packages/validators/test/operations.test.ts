/**
 * The per-operation modules of the validators package (`@service-api/validators/operations/<operationId>`): the same
 * answers as the whole-package functions, only that operation's code, reachable through the package's `exports`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as getExportStatus from '@service-api/validators/operations/project-import-export/get-export-status';
import * as getProjectJob from '@service-api/validators/operations/jobs/get-project-job';
import * as getTokenJob from '@service-api/validators/operations/jobs/get-token-job';
import * as listProjects from '@service-api/validators/operations/projects/list-projects';
import * as createUser from '@service-api/validators/operations/users/create-user';
import { describe, expect, it } from 'vitest';
import { MAX_ERRORS, type RequestParts, validateRequest, validateResponse } from '@service-api/validators';
import { listOperations } from '../../../generators/lib/document.ts';
import { ROOT } from '../../../scripts/lib/paths.ts';
import { publishedDocument } from '../../../test/support/documents.ts';
import { loadResponseFixtures } from '../../../test/support/response-fixtures.ts';

const PACKAGE = join(ROOT, 'packages', 'validators');
const fixtures = loadResponseFixtures();
const job = fixtures.Job!.minimal as Record<string, unknown>;
const failedJob = fixtures.Job!.failed as Record<string, unknown>;
const exportStatus = fixtures.ProjectExportStatus!.finished as Record<string, unknown>;

/**
 * The sample: query rules (list-projects), a JSON body with `if`/`then` (create-user), path parameters and eight
 * statuses (get-project-job), `if`/`then` in a response (get-token-job's Job, get-export-status).
 */
const modules = {
  'projects/list-projects': listProjects,
  'users/create-user': createUser,
  'jobs/get-project-job': getProjectJob,
  'jobs/get-token-job': getTokenJob,
  'project-import-export/get-export-status': getExportStatus,
} as const;
type Sampled = keyof typeof modules;

const doc = publishedDocument();
/** Values that no field accepts, for more problems than MAX_ERRORS. */
const everyJobFieldWrong = Object.fromEntries(Object.keys(job).map((k) => [k, [[]]]));
const everyProjectsQueryWrong = Object.fromEntries(
  listOperations(doc)
    .find((e) => e.operationId === 'projects/list-projects')!
    .parameters.filter((p) => p.in === 'query')
    .map((p) => [p.name, [[]]]),
);

const responses: [string, Sampled, number, unknown, boolean][] = [
  ['a job', 'jobs/get-token-job', 200, job, true],
  ['a failed job with its reason', 'jobs/get-token-job', 200, failedJob, true],
  [
    'a failed job without its reason (if/then)',
    'jobs/get-token-job',
    200,
    { ...failedJob, failure_reason: undefined },
    false,
  ],
  ['a job with wrong types', 'jobs/get-token-job', 200, { ...job, id: 'one', name: 5, tag_list: 'a' }, false],
  ['a job with more problems than MAX_ERRORS', 'jobs/get-token-job', 200, everyJobFieldWrong, false],
  ['a 401 body', 'jobs/get-token-job', 401, { message: '401 Unauthorized' }, true],
  ['a 401 body without message', 'jobs/get-token-job', 401, { error: 'x' }, false],
  ['a 403 body', 'jobs/get-project-job', 403, { message: '403 Forbidden' }, true],
  ['an open error body', 'jobs/get-project-job', 404, { error: 'x' }, true],
  ['an error body that is not an object', 'jobs/get-project-job', 500, 'boom', false],
  ['a finished export', 'project-import-export/get-export-status', 200, exportStatus, true],
  [
    'a finished export without its links (if/then)',
    'project-import-export/get-export-status',
    200,
    { ...exportStatus, _links: undefined },
    false,
  ],
  ['a project list that is not a list', 'projects/list-projects', 200, { id: 1 }, false],
  ['an empty project list', 'projects/list-projects', 200, [], true],
  ['a user that is not an object', 'users/create-user', 201, 'user', false],
];

const requests: [string, Sampled, RequestParts, boolean][] = [
  ['no query', 'projects/list-projects', {}, true],
  ['a query that breaks a rule', 'projects/list-projects', { query: { updated_after: '2025-03-01T00:00:00Z' } }, false],
  [
    'a query that breaks both rules',
    'projects/list-projects',
    { query: { updated_before: '2025-03-01T00:00:00Z', order_by: 'similarity' } },
    false,
  ],
  ['coerced query strings', 'projects/list-projects', { query: { per_page: '20', archived: 'true' } }, true],
  ['a query string that is not a number', 'projects/list-projects', { query: { per_page: 'many' } }, false],
  [
    'a user with a password',
    'users/create-user',
    { body: { email: 'a@b.c', name: 'A', username: 'a', password: 'p4ssw0rd!' } },
    true,
  ],
  [
    'a user without password rules (if/then)',
    'users/create-user',
    { body: { email: 'a@b.c', name: 'A', username: 'a' } },
    false,
  ],
  ['a user body with wrong types', 'users/create-user', { body: { reset_password: 'yes', private_profile: 1 } }, false],
  ['a query with more problems than MAX_ERRORS', 'projects/list-projects', { query: everyProjectsQueryWrong }, false],
  ['no body', 'users/create-user', { headers: { 'Content-Type': 'application/json' } }, false],
  ['a job by path', 'jobs/get-project-job', { params: { id: 'group/project', job_id: '7' } }, true],
  ['a job id that is not a number', 'jobs/get-project-job', { params: { id: '1', job_id: 'seven' } }, false],
  ['a job without path parameters', 'jobs/get-project-job', {}, false],
  [
    'a Sudo header in any case',
    'project-import-export/get-export-status',
    { params: { id: '1' }, headers: { SUDO: 'x' } },
    true,
  ],
];

describe('per-operation validators', () => {
  it.each(responses)('validateResponse: %s', (_title, operationId, status, body, valid) => {
    const one = modules[operationId].validateResponse(status, body);
    expect(one.valid).toBe(valid);
    expect(one).toEqual(validateResponse(operationId as never, status, body));
  });

  it.each(requests)('validateRequest: %s', (_title, operationId, parts, valid) => {
    const one = modules[operationId].validateRequest(parts);
    expect(one.valid).toBe(valid);
    expect(one).toEqual(validateRequest(operationId, parts));
  });

  it('describe at most MAX_ERRORS problems, then count the rest, as the whole package does', () => {
    for (const result of [
      getTokenJob.validateResponse(200, everyJobFieldWrong),
      listProjects.validateRequest({ query: everyProjectsQueryWrong }),
    ]) {
      expect(result.errors).toHaveLength(MAX_ERRORS + 1);
      expect(result.errors.at(-1)).toBe(`and ${result.errorCount! - MAX_ERRORS} more problem(s)`);
    }
  });

  it('refuse a status without a JSON body with the whole package’s message', () => {
    expect(() => getProjectJob.validateResponse(204, {})).toThrow(
      'Operation jobs/get-project-job documents no JSON body for status 204',
    );
    expect(() => validateResponse('jobs/get-project-job', 204 as never, {})).toThrow(
      'Operation jobs/get-project-job documents no JSON body for status 204',
    );
  });

  it('type the statuses per operation', () => {
    expect(getProjectJob.operationId).toBe('jobs/get-project-job');
    // @ts-expect-error: a status is a documented status string or a number
    expect(() => getProjectJob.validateResponse('999', {})).toThrow();
  });
});

/** The files a module imports, transitively, within the package (relative specifiers only). */
function importGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g))
      visit(resolve(dirname(file), specifier!));
  };
  visit(entry);
  return [...seen].map((f) => relative(PACKAGE, f)).sort();
}

describe('operation modules', () => {
  const operationIds = listOperations(doc).map((e) => e.operationId);

  it('exist for every operation, with declarations', () => {
    const missing = operationIds.flatMap((id) =>
      ['js', 'd.ts'].map((ext) => `dist/operations/${id}.${ext}`).filter((p) => !existsSync(join(PACKAGE, p))),
    );
    expect(missing).toEqual([]);
  });

  it.each(Object.keys(modules))('%s imports only its own code and the shared runtime', (operationId) => {
    const graph = importGraph(join(PACKAGE, 'dist', 'operations', `${operationId}.js`));
    expect(graph).toContain('dist/validation.js');
    expect(graph).toContain('dist/standard.js');
    expect(graph.filter((f) => !f.startsWith(`dist/operation-validators/${operationId}/`))).toEqual(
      [
        `dist/operations/${operationId}.js`,
        'dist/standard.js',
        'dist/validation.js',
        ...(graph.includes('dist/formats.js') ? ['dist/formats.js'] : []),
      ].sort(),
    );
    for (const whole of ['dist/standalone.js', 'dist/fast.js', 'dist/requests.js', 'dist/index.js'])
      expect(graph).not.toContain(whole);
  });

  /** How Node resolves a specifier from the repository root (through the workspace link in node_modules). */
  const nodeResolve = (specifier: string) =>
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `console.log(import.meta.resolve(${JSON.stringify(specifier)}))`],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    ).trim();

  it('resolve as @service-api/validators/operations/<operationId> through the package exports', () => {
    expect(nodeResolve('@service-api/validators/operations/jobs/get-project-job')).toBe(
      pathToFileURL(join(PACKAGE, 'dist', 'operations', 'jobs', 'get-project-job.js')).href,
    );
    expect(() => nodeResolve('@service-api/validators/operation-validators/jobs/get-project-job/exact.js')).toThrow(
      /ERR_PACKAGE_PATH_NOT_EXPORTED/,
    );
  });
});
