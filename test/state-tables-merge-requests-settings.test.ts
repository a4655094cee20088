import ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { validateResponse, validateSchema } from '@service-api/validators';
import { resolve } from '../packages/server/src/openapi-model.ts';
import { listOperations, listResponses } from '../generators/lib/document.ts';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import type { MergeRequest, Project, ProjectSimple } from '@service-api/types';
import { publishedDocument } from './support/documents.ts';

/**
 * The merge request state table: every example that a merge request operation returns or accepts obeys it, and the
 * cross-parameter rules of the project and merge request lists and bodies are machine-readable (and actually reject what they forbid).
 *
 * | From   | Trigger                                   | To     | Other effects                                   |
 * | opened | PUT update state_event=close              | closed | closed_by and closed_at set                     |
 * | closed | PUT update state_event=reopen             | opened |                                                 |
 * | opened | PUT merge                                 | merged | merged_at, merge_user, merge_commit_sha set     |
 * | opened | PUT merge merge_when_pipeline_succeeds    | opened until the pipeline succeeds, then merged  |
 */
type Record = { [key: string]: unknown };
const MERGE_FIELDS = ['merged_at', 'merge_user', 'merged_by', 'merge_commit_sha'] as const;
const STATES = ['opened', 'closed', 'locked', 'merged'];

/** What a merge request record breaks of the state table; `[]` when it obeys it. Absent fields are not judged. */
export function stateTableViolations(mr: Record): string[] {
  const problems: string[] = [];
  const set = (key: string) => key in mr && mr[key] !== null;
  const unset = (key: string) => !set(key);
  const state = mr.state as string;
  if (!STATES.includes(state)) return [`state ${JSON.stringify(state)} is not one of ${STATES.join(', ')}`];
  if (state !== 'merged') {
    for (const key of MERGE_FIELDS)
      if (set(key)) problems.push(`${state} merge request has ${key} (set only by the merge)`);
  } else {
    for (const key of ['merged_at', 'merge_user', 'merge_commit_sha'])
      if (key in mr && unset(key)) problems.push(`merged merge request has no ${key}`);
  }
  if (state === 'closed') {
    if ('closed_at' in mr && unset('closed_at')) problems.push('closed merge request has no closed_at');
  } else {
    for (const key of ['closed_by', 'closed_at'])
      if (set(key)) problems.push(`${state} merge request has ${key} (set only by closing)`);
  }
  return problems;
}

const doc = publishedDocument();
const MR_OPERATIONS = [
  'merge-requests/list-merge-requests',
  'merge-requests/list-project-merge-requests',
  'merge-requests/create-merge-request',
  'merge-requests/update-merge-request',
  'merge-requests/merge',
];
const entries = listOperations(doc).filter((e) => MR_OPERATIONS.includes(e.operationId));

interface Example {
  value?: unknown;
  summary?: string;
}
function examplesOf(content: { examples?: { [name: string]: unknown } } | undefined): [string, unknown][] {
  return Object.entries(content?.examples ?? {}).map(([name, raw]) => [
    name,
    resolve<Example>(doc, raw as Example).value,
  ]);
}

const responseExamples = entries.flatMap((entry) =>
  listResponses(doc, entry)
    .filter((r) => r.status.startsWith('2') && r.json)
    .flatMap((r) =>
      examplesOf(r.json!.content as never).map(([name, value]) => [entry.operationId, name, value] as const),
    ),
);
const requestBodies = (operationId: string) => {
  const entry = entries.find((e) => e.operationId === operationId)!;
  const body = resolve<{ content?: { [m: string]: { examples?: { [name: string]: unknown } } } }>(
    doc,
    entry.operation.requestBody as never,
  );
  return examplesOf(body?.content?.['application/json']).map(([, value]) => value as Record);
};

describe('merge request state table', () => {
  it('covers every merge request operation and has examples to check', () => {
    expect(entries.map((e) => e.operationId).sort()).toEqual([...MR_OPERATIONS].sort());
    expect(responseExamples.length).toBeGreaterThanOrEqual(8);
  });

  it.each(responseExamples)('%s example %s obeys the state table', (_operationId, _name, value) => {
    const records = (Array.isArray(value) ? value : [value]) as Record[];
    for (const mr of records) expect(stateTableViolations(mr), JSON.stringify(mr).slice(0, 120)).toEqual([]);
  });

  it('answers each trigger with the state the table names', () => {
    const states = (operationId: string) =>
      responseExamples.filter(([op]) => op === operationId).map(([, , v]) => v as Record);
    // create: a new merge request is opened
    for (const mr of states('merge-requests/create-merge-request')) expect(mr.state).toBe('opened');
    // update: state_event=close gives closed; every other update leaves a non-merged state
    const closes = requestBodies('merge-requests/update-merge-request').some((b) => b.state_event === 'close');
    expect(closes).toBe(true);
    expect(states('merge-requests/update-merge-request').map((mr) => mr.state)).toContain('closed');
    for (const mr of states('merge-requests/update-merge-request')) expect(mr.state).not.toBe('merged');
    // merge: merged, or still opened when waiting for the pipeline
    for (const mr of states('merge-requests/merge')) {
      if (mr.state === 'opened') expect(mr.merge_when_pipeline_succeeds).toBe(true);
      else expect(mr.state).toBe('merged');
    }
    expect(
      states('merge-requests/merge')
        .map((mr) => mr.state)
        .sort(),
    ).toEqual(['merged', 'opened']);
  });

  it('the check rejects what the table forbids', () => {
    const base = {
      id: 1,
      iid: 1,
      project_id: 1,
      title: 't',
      state: 'opened',
      source_branch: 'a',
      target_branch: 'b',
      web_url: 'u',
    };
    const user = { id: 7, name: 'J', username: 'j', state: 'active', avatar_url: null, web_url: 'u' };
    expect(stateTableViolations({ ...base, merge_user: user })).toHaveLength(1);
    expect(stateTableViolations({ ...base, state: 'closed', merged_by: user, closed_at: null })).toHaveLength(2);
    expect(
      stateTableViolations({ ...base, state: 'merged', merged_at: null, merge_user: null, created_at: 'x' }),
    ).toHaveLength(2);
    expect(stateTableViolations({ ...base, state: 'opened', closed_at: '2025-01-01T00:00:00Z' })).toHaveLength(1);
    expect(stateTableViolations({ ...base, state: 'bogus' })).toHaveLength(1);
    expect(
      stateTableViolations({ ...base, state: 'merged', merged_at: 'x', merge_user: user, merge_commit_sha: 'abc' }),
    ).toEqual([]);
  });

  it('the merge answer is merged, or opened waiting for the pipeline (locked while under way), as the validators check', () => {
    const user = { id: 7, name: 'J', username: 'j', state: 'active', avatar_url: null, web_url: 'u' };
    const core = {
      id: 1,
      iid: 1,
      project_id: 1,
      title: 't',
      source_branch: 'a',
      target_branch: 'b',
      web_url: 'u',
      merge_user: null,
      merged_by: null,
      closed_by: null,
      assignee: null,
      assignees: [],
      milestone: null,
      pipeline: null,
      merged_at: null,
      closed_at: null,
    };
    const merged = { ...core, state: 'merged', merged_at: '2025-01-01T00:00:00Z', merge_user: user };
    const check = (body: object) => validateResponse('merge-requests/merge', 200, body).valid;
    expect([
      check(merged),
      check({ ...core, state: 'opened', merge_when_pipeline_succeeds: true }),
      check({ ...core, state: 'locked' }),
    ]).toEqual([true, true, true]);
    expect(check({ ...core, state: 'closed', closed_at: '2025-01-01T00:00:00Z' })).toBe(false);
    expect(check({ ...core, state: 'opened', merge_when_pipeline_succeeds: false })).toBe(false);
  });

  it('a realistic fresh, unassigned merge request validates and types without a cast', () => {
    const fresh: MergeRequest = {
      id: 85,
      iid: 2,
      project_id: 42,
      title: 'Reset password flow',
      description: null,
      state: 'opened',
      source_branch: 'feature/reset-password',
      target_branch: 'main',
      web_url: 'https://service.example/g/p/-/merge_requests/2',
      merge_user: null,
      merged_by: null,
      closed_by: null,
      assignee: null,
      assignees: [],
      milestone: null,
      pipeline: null,
      merged_at: null,
      closed_at: null,
    };
    expect(validateSchema('MergeRequest', fresh).errors).toEqual([]);
    expect(validateSchema('MergeRequest', { ...fresh, milestone: 'v1' }).valid).toBe(false);
    // a milestone is read through a null check: the type says it can be null
    const title: string | undefined = fresh.milestone?.title;
    expect(title).toBeUndefined();
  });

  it('a project seen by an anonymous caller, with an empty repository, types and validates without a cast', () => {
    const anonymous: ProjectSimple = {
      id: 3,
      name: 'Empty',
      name_with_namespace: 'My Group / Empty',
      path: 'empty',
      path_with_namespace: 'my-group/empty',
      web_url: 'https://service.example/my-group/empty',
      description: null,
      default_branch: null,
      avatar_url: null,
      created_at: '2025-01-27T10:16:52.121Z',
      last_activity_at: '2025-01-27T10:16:52.121Z',
      tag_list: [],
      topics: [],
      star_count: 0,
      ssh_url_to_repo: 'git@service.example:my-group/empty.git',
      http_url_to_repo: 'https://service.example/my-group/empty.git',
      namespace: {
        id: 9,
        name: 'My Group',
        path: 'my-group',
        kind: 'group',
        full_path: 'my-group',
        parent_id: null,
        avatar_url: null,
        web_url: 'https://service.example/groups/my-group',
      },
    };
    const api = 'https://service.example/api/v4/projects/3';
    const _links = {
      self: api,
      issues: `${api}/issues`,
      merge_requests: `${api}/merge_requests`,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
      cluster_agents: `${api}/cluster_agents`,
    };
    const full: Project = { ...anonymous, readme_url: null, import_url: null, _links };
    expect(validateSchema('ProjectSimple', anonymous).errors).toEqual([]);
    expect(validateSchema('Project', full).errors).toEqual([]);
  });
});

describe('cross-parameter rules of the project and merge request lists (x-query-schema, dependentSchemas)', () => {
  const ajv = new ajv2020.default({ strict: false, allErrors: true });
  const querySchema = (path: string) =>
    (doc as OpenApiDocument & { paths: { [p: string]: { get: { 'x-query-schema'?: object } } } }).paths[path]!.get[
      'x-query-schema'
    ];

  it.each([
    ['/merge_requests', { author_id: 5, author_username: 'jdoe' }, false],
    ['/merge_requests', { merge_user_id: 5, merge_user_username: 'jdoe' }, false],
    ['/merge_requests', { reviewer_id: 'None', reviewer_username: 'jdoe' }, false],
    ['/merge_requests', { author_id: 5, reviewer_username: 'jdoe' }, true],
    ['/projects/{id}/merge_requests', { author_id: 5, author_username: 'jdoe' }, false],
    ['/projects/{id}/merge_requests', { author_username: 'jdoe', merge_user_id: 3 }, true],
    ['/projects', { updated_after: '2025-01-01T00:00:00Z' }, false],
    ['/projects', { updated_before: '2025-01-01T00:00:00Z', order_by: 'id' }, false],
    ['/projects', { updated_after: '2025-01-01T00:00:00Z', order_by: 'updated_at' }, true],
    ['/projects', { order_by: 'similarity' }, false],
    ['/projects', { order_by: 'similarity', search: 'api' }, true],
    ['/projects', {}, true],
  ] as const)('%s %j valid: %s', (path, query, valid) => {
    const schema = querySchema(path);
    expect(schema, `${path} declares x-query-schema`).toBeTypeOf('object');
    expect(ajv.validate(schema!, query)).toBe(valid);
  });

  it('report_type goes only with rule_type report_approver', () => {
    const rule = { name: 'Coverage-Check', approvals_required: 1 };
    expect(
      validateSchema('CreateProjectApprovalRuleRequest', {
        ...rule,
        rule_type: 'report_approver',
        report_type: 'code_coverage',
      }).valid,
    ).toBe(true);
    expect(
      validateSchema('CreateProjectApprovalRuleRequest', {
        ...rule,
        rule_type: 'regular',
        report_type: 'code_coverage',
      }).valid,
    ).toBe(false);
    expect(validateSchema('CreateProjectApprovalRuleRequest', { ...rule, report_type: 'code_coverage' }).valid).toBe(
      false,
    );
    expect(validateSchema('CreateProjectApprovalRuleRequest', { ...rule, rule_type: 'regular' }).valid).toBe(true);
  });
});

describe('application settings markers', () => {
  const settings = doc.components!.schemas!.ApplicationSettings as {
    properties: { [k: string]: { 'x-tiers'?: string[] } };
    required: string[];
  };
  const tiered = Object.entries(settings.properties)
    .filter(([, p]) => p['x-tiers'])
    .map(([k]) => k);

  it('marks the Premium/Ultimate settings with x-tiers and never requires them', () => {
    expect(tiered).toEqual(
      expect.arrayContaining(['allow_account_deletion', 'file_template_project_id', 'lock_assistant_features_enabled']),
    );
    expect(tiered.length).toBe(13);
    expect(settings.required.filter((k) => tiered.includes(k))).toEqual([]);
  });

  it('the free-tier example carries no tier-bound setting', () => {
    const free = resolve<Example>(doc, doc.components!.examples!.ApplicationSettingsFree as never).value as Record;
    expect(Object.keys(free).filter((k) => tiered.includes(k))).toEqual([]);
  });

  it('the partial-update body states no default (an omitted setting stays unchanged)', () => {
    const body = doc.components!.schemas!.UpdateApplicationSettingsRequest as {
      properties: { [k: string]: { default?: unknown } };
    };
    expect(
      Object.entries(body.properties)
        .filter(([, p]) => 'default' in p)
        .map(([k]) => k),
    ).toEqual([]);
  });
});
