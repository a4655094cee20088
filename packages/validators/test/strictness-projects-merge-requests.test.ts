/**
 * Garbage that the project, merge request and settings schemas accepted and that the Service never sends or refuses: each row is refused now, and
 * the realistic row next to it (a fixture form or an example's shape) still passes. One table per validator entry point.
 */
import { describe, expect, it } from 'vitest';
import { validateRequest, validateResponse, validateSchema } from '@service-api/validators';
import { loadResponseFixtures } from '../../../test/support/response-fixtures.ts';

const fixtures = loadResponseFixtures();
const form = (schema: string, name: string) => {
  const value = fixtures[schema]?.[name];
  if (value === undefined) throw new Error(`no fixture ${schema} (${name})`);
  return structuredClone(value) as Record<string, unknown>;
};

const simpleProject = form('ProjectSimple', 'minimal');
const fullProject = form('Project', 'owner_caller');
const mergeRequest = form('MergeRequest', 'merged');
const reducedMergeRequest = form('MergeRequestSimple', 'listed');
const user = {
  id: 7,
  name: 'John Doe',
  username: 'jdoe',
  state: 'active',
  avatar_url: null,
  web_url: 'https://service.example/jdoe',
};
const { namespace, ...withoutNamespace } = simpleProject as { namespace: Record<string, unknown> };
const { web_url: _namespaceWebUrl, ...namespaceWithoutWebUrl } = namespace;

describe('list responses validate their items against the documented views', () => {
  const lists = [
    ['projects/list-projects', simpleProject, fullProject],
    ['projects/list-user-projects', simpleProject, fullProject],
    ['merge-requests/list-merge-requests', reducedMergeRequest, mergeRequest],
    ['merge-requests/list-project-merge-requests', reducedMergeRequest, mergeRequest],
  ] as const;

  it.each(lists)('%s accepts a simple and a full item', (operationId, simple, full) => {
    expect(validateResponse(operationId, 200, [simple, full]).errors).toEqual([]);
  });

  it.each(lists)('%s refuses an empty item', (operationId) => {
    expect(validateResponse(operationId, 200, [{}]).valid).toBe(false);
  });

  it.each([
    ['a visibility outside the enum', { ...fullProject, visibility: 'secret' }],
    ['a merge method outside the enum', { ...simpleProject, merge_method: 'squash' }],
    ['a simple view without its namespace', withoutNamespace],
    ['a namespace without web_url', { ...simpleProject, namespace: namespaceWithoutWebUrl }],
  ])('the project list refuses %s', (_case, item) => {
    expect(validateResponse('projects/list-projects', 200, [item]).valid).toBe(false);
    expect(validateResponse('projects/list-user-projects', 200, [item]).valid).toBe(false);
  });

  it.each([
    ['a reduced record with a user that is a string', { ...reducedMergeRequest, merge_user: 'garbage' }],
    ['a reduced record with a number for labels', { ...reducedMergeRequest, labels: 7, pipeline: 5 }],
    ['a full record with merge_user 42', { ...mergeRequest, merge_user: 42 }],
  ])('the merge request list refuses %s', (_case, item) => {
    expect(validateResponse('merge-requests/list-merge-requests', 200, [item]).valid).toBe(false);
  });
});

describe('the merge request state table: what a transition sets is in its answer', () => {
  const closed = form('MergeRequest', 'closed');
  const imported = { ...mergeRequest, imported: true, imported_from: 'github', merge_user: null, merged_by: null };
  it.each([
    ['merged with merged_at null', { ...mergeRequest, merged_at: null }, false],
    ['merged with merge_user null', { ...mergeRequest, merge_user: null }, false],
    ['merged without a merge commit (fast-forward)', { ...mergeRequest, merge_commit_sha: null }, true],
    ['merged, as recorded', mergeRequest, true],
  ])('the merge answers %s: valid %s', (_case, record, valid) => {
    expect(validateResponse('merge-requests/merge', 200, record).valid).toBe(valid);
  });

  // A merge request that reached merged or closed without the documented transition (an imported one).
  it.each([
    ['merged, imported, without merge_user', imported],
    ['closed with closed_at null', { ...closed, imported: true, closed_at: null }],
    ['closed with closed_by null', { ...closed, closed_by: null }],
    ['merged, as recorded', mergeRequest],
    ['closed, as recorded', closed],
  ])('a record %s validates in the lists and the update', (_case, record) => {
    expect(validateSchema('MergeRequest', record).valid).toBe(true);
    expect(validateSchema('MergeRequestSimple', record).valid).toBe(true);
    expect(validateResponse('merge-requests/list-merge-requests', 200, [record]).valid).toBe(true);
    expect(validateResponse('merge-requests/list-project-merge-requests', 200, [record]).valid).toBe(true);
    expect(validateResponse('merge-requests/update-merge-request', 200, record).valid).toBe(true);
  });

  it.each([
    [{ ...mergeRequest, should_remove_source_branch: null, force_remove_source_branch: null }, true],
    [{ ...mergeRequest, should_remove_source_branch: 'yes' }, false],
  ])('should_remove_source_branch as the Service sends it %j: valid %s', (record, valid) => {
    expect(validateResponse('merge-requests/list-merge-requests', 200, [record]).valid).toBe(valid);
  });
});

describe('request bodies keep the documented constraints while ignoring unknown keys', () => {
  const request = (body: unknown) => ({ params: { id: 1, merge_request_iid: 1 }, body });
  it.each([
    [{ titel: 'x' }, false],
    [{ foo: 1 }, false],
    [{}, false],
    [{ title: 'x' }, true],
    [{ title: 'x', foo: 1 }, true],
    [{ labels: '' }, true],
    [{ state_event: 'merge' }, false],
  ])('update merge request %j valid: %s', (body, valid) => {
    expect(validateRequest('merge-requests/update-merge-request', request(body)).valid).toBe(valid);
  });

  it.each([
    [{ signup_enabled: 'banana' }, false],
    [{ max_export_size: 'big' }, false],
    [{ signup_enabled: false, max_export_size: 50 }, true],
    [{ some_future_setting: 'x' }, true],
  ])('update settings %j valid: %s', (body, valid) => {
    expect(validateRequest('application/update-settings', { body }).valid).toBe(valid);
  });
});

describe('project, merge request and settings records typed more precisely', () => {
  const settings = form('ApplicationSettings', 'minimal');
  // The Service encodes the decimal setting as a JSON string, never as a number.
  it.each([
    [1, false],
    ['1.0', true],
    ['1.5', true],
    ['fast', false],
    [null, false],
  ])('polling_interval_multiplier %j valid: %s', (value, valid) => {
    expect(validateSchema('ApplicationSettings', { ...settings, polling_interval_multiplier: value }).valid).toBe(
      valid,
    );
  });

  it.each([
    ['wiki_page_max_content_bytes 5 in the settings record', { wiki_page_max_content_bytes: 5 }, false],
    ['wiki_page_max_content_bytes 1024 in the settings record', { wiki_page_max_content_bytes: 1024 }, true],
    ['file_template_project_id null in the settings record', { file_template_project_id: null }, true],
    ['file_template_project_id "x" in the settings record', { file_template_project_id: 'x' }, false],
  ])('%s: valid %s', (_case, fields, valid) => {
    expect(validateSchema('ApplicationSettings', { ...settings, ...fields }).valid).toBe(valid);
  });

  const rule = form('ApprovalRule', 'minimal');
  it.each([
    [{ users: [user], eligible_approvers: [user] }, true],
    [{ users: [{ foo: 1 }] }, false],
    [{ eligible_approvers: [{}] }, false],
    [{ groups: [{ id: 5, name: 'Security', web_url: 'https://service.example/groups/security' }] }, true],
    [{ groups: [{ id: 'x', web_url: 5 }] }, false],
  ])('approval rule users %j valid: %s', (fields, valid) => {
    expect(validateSchema('ApprovalRule', { ...rule, ...fields }).valid).toBe(valid);
  });

  it.each([
    ['ApplicationSettings', 'default_branch_protection'],
    ['ApplicationSettings', 'allow_local_requests_from_hooks_and_services'],
    ['ProjectApprovalSettings', 'approvers'],
    ['ProjectSimple', 'tag_list'],
  ] as const)('%s keeps the deprecated %s it lists as returned', (schema, field) => {
    const { [field]: _dropped, ...without } = form(schema, 'minimal');
    expect(validateSchema(schema, without).valid).toBe(false);
  });
});
