import { describe, expect, it } from 'vitest';
import { validateRequest, validateResponse } from '@service-api/validators';
import { loadResponseFixtures } from '../../../test/support/response-fixtures.ts';

/**
 * Users, groups, members, invitations, badges, runners and integrations: bodies that are garbage by the API's own
 * words are refused, and the honest bodies next to them are accepted (each refusal has a passing twin, so a case
 * cannot pass by refusing everything).
 */
type Operation = Parameters<typeof validateRequest>[0];
const request = (operationId: string, params: Record<string, string>, body: unknown) =>
  validateRequest(operationId as Operation, { params, body }).valid;

const INTEGRATION = { id: '1', slug: 'any-integration' };
const setUp = (body: unknown) => request('integrations/set-up-integration', INTEGRATION, body);

describe('the integration set-up body', () => {
  const cases: [string, unknown, boolean][] = [
    ['an empty body (an integration beyond the documented kinds)', {}, true],
    [
      'parameters nobody documents',
      { jenkins_url: 'https://ci.example', project_name: 'p', username: 'u', password: 'p' },
      true,
    ],
    [
      'a chat notifications body',
      {
        webhook: 'https://chat.example/hook',
        branches_to_be_notified: 'protected',
        push_events: true,
        push_channel: 'ci',
      },
      true,
    ],
    ['a webhook that is a number', { webhook: 5 }, false],
    [
      'a chat body with a wrongly typed channel and an unknown branch choice',
      { webhook: 'https://chat.example/hook', issue_channel: 7, branches_to_be_notified: 'never' },
      false,
    ],
    ['an API key that is a number', { api_key: 42 }, false],
    ['an API key body', { api_key: 'k', restrict_to_branch: 'main,release' }, true],
    ['an event toggle that is a string', { push_events: 'yes' }, false],
    ['a wiki workspace URL that is no URL', { confluence_url: 'not a url at all' }, false],
    ['a wiki workspace', { confluence_url: 'https://wiki.example.com/team' }, true],
    ['a new-issue URL without the other two tracker URLs', { new_issue_url: 'https://tracker.example/new' }, false],
    [
      'the three tracker URLs',
      {
        new_issue_url: 'https://tracker.example/new',
        issues_url: 'https://tracker.example/:id',
        project_url: 'https://tracker.example/p',
      },
      true,
    ],
    ['a build key alone', { build_key: 'KEY' }, false],
    [
      'a build server body',
      { bamboo_url: 'https://build.example', build_key: 'KEY', username: 'u', password: 'p' },
      true,
    ],
    [
      'a build server body with a boolean event toggle (extras are open in every kind)',
      { bamboo_url: 'https://build.example', build_key: 'KEY', username: 'u', password: 'p', push_events: true },
      true,
    ],
    [
      'a build server body with no parameter for the root URL',
      { build_key: 'KEY', username: 'u', password: 'p', enable_ssl_verification: false },
      false,
    ],
    ['one mobile store parameter of four', { acme_issuer_id: 'i' }, false],
    [
      'a mobile store body',
      {
        acme_issuer_id: 'i',
        acme_key_id: 'k',
        acme_private_key_file_name: 'key.p8',
        acme_private_key: 'secret',
        acme_protected_refs: true,
      },
      true,
    ],
    ['a test generation license key alone', { acme_license_key: 'l' }, false],
  ];
  it.each(cases)('%s: valid %s', (_title, body, valid) => {
    expect(setUp(body)).toBe(valid);
  });
});

describe('other request bodies keep their documented constraints', () => {
  const cases: [string, string, Record<string, string>, unknown, boolean][] = [
    [
      'a push rule update with typed attributes',
      'groups/update-push-rule',
      { id: '1' },
      { max_file_size: 10, commit_message_regex: '^JIRA-', reject_unsigned_commits: true },
      true,
    ],
    [
      'a push rule update with a size that is text and a regex that is a number',
      'groups/update-push-rule',
      { id: '1' },
      { max_file_size: 'big', commit_message_regex: 5 },
      false,
    ],
    [
      'a hook URL without a scheme',
      'groups/update-hook',
      { id: '1', hook_id: '2' },
      { url: 'hooks.example.com/x' },
      true,
    ],
    [
      'an impersonation token expiring on a date',
      'users/create-impersonation-token',
      { user_id: '1' },
      { name: 'n', scopes: ['api'], expires_at: '2026-12-31' },
      true,
    ],
    [
      'an impersonation token expiring at a date-time (a tolerance of the server package, not of the contract)',
      'users/create-impersonation-token',
      { user_id: '1' },
      { name: 'n', scopes: ['api'], expires_at: '2026-12-31T00:00:00.000Z' },
      false,
    ],
    [
      'an impersonation token expiring "soon"',
      'users/create-impersonation-token',
      { user_id: '1' },
      { name: 'n', scopes: ['api'], expires_at: 'soon' },
      false,
    ],
    [
      'an invitation expiry without a time zone (ISO 8601)',
      'invitations/update-group-invitation',
      { id: '1', email: 'a@example.com' },
      { expires_at: '2026-06-30T00:00:00' },
      true,
    ],
    [
      'an invitation expiry in the basic form',
      'invitations/update-group-invitation',
      { id: '1', email: 'a@example.com' },
      { expires_at: '20260630T000000Z' },
      true,
    ],
    [
      'an invitation expiry "tomorrow"',
      'invitations/update-group-invitation',
      { id: '1', email: 'a@example.com' },
      { expires_at: 'tomorrow' },
      false,
    ],
    ...(
      [
        ['2026-02-31T24:59:60+23:59', false],
        ['2026-04-31T10:00:00Z', false],
        ['2026-06-30T24:30', false],
        ['2026-06-30T24:00:00Z', true],
        ['2026-02-29T10:00:00Z', true],
        ['20260630T235960Z', true],
      ] as const
    ).map(([expires_at, valid]): [string, string, Record<string, string>, unknown, boolean] => [
      `an invitation expiring at ${expires_at}`,
      'invitations/update-group-invitation',
      { id: '1', email: 'a@example.com' },
      { expires_at },
      valid,
    ]),
  ];
  it.each(cases)('%s: valid %s', (_title, operationId, params, body, valid) => {
    expect(request(operationId, params, body)).toBe(valid);
  });
});

const publicUser = {
  id: 1,
  username: 'a',
  name: 'A',
  state: 'active',
  locked: false,
  avatar_url: null,
  web_url: 'https://service.example/a',
};
const runner = {
  active: true,
  paused: false,
  description: null,
  id: 3,
  ip_address: '',
  is_shared: false,
  runner_type: 'project_type',
  name: null,
  online: false,
  status: 'never_contacted',
};
const runnerDetails = {
  ...runner,
  architecture: '',
  platform: '',
  version: '',
  revision: '',
  contacted_at: null,
  maintenance_note: null,
  projects: [],
  tag_list: [],
  access_level: 'not_protected',
  maximum_timeout: null,
};
const drop = (record: Record<string, unknown>, field: string) =>
  Object.fromEntries(Object.entries(record).filter(([name]) => name !== field));

describe('records carry the fields the API lists', () => {
  const cases: [string, string, number, unknown, boolean][] = [
    ['a single user with followers as text', 'users/get-user', 200, { ...publicUser, followers: 'many' }, false],
    [
      'an administrator list item with wrongly typed admin fields',
      'users/list-users',
      200,
      [{ ...publicUser, email: 5, is_admin: 'yes', identities: 'none' }],
      false,
    ],
    ['a public list item', 'users/list-users', 200, [publicUser], true],
    [
      'an invitation update result without expires_at',
      'invitations/update-group-invitation',
      200,
      { access_level: 30 },
      false,
    ],
    [
      'an invitation update result without expiry',
      'invitations/update-group-invitation',
      200,
      { access_level: 30, expires_at: null },
      true,
    ],
    [
      'runner details without maintenance_note',
      'runners/get-runner',
      200,
      drop(runnerDetails, 'maintenance_note'),
      false,
    ],
    ['runner details of a never contacted runner', 'runners/get-runner', 200, runnerDetails, true],
    [
      'runner details without a runner manager (null deprecated fields)',
      'runners/get-runner',
      200,
      { ...runnerDetails, architecture: null, platform: null, version: null, revision: null },
      true,
    ],
    ['runner details with a numeric version', 'runners/get-runner', 200, { ...runnerDetails, version: 17 }, false],
    [
      'a runner summary with a null ip_address',
      'runners/list-project-runners',
      200,
      [{ ...runner, ip_address: null }],
      true,
    ],
    [
      'a runner summary with an address in ip_address',
      'runners/list-group-runners',
      200,
      [{ ...runner, ip_address: '10.0.0.1' }],
      false,
    ],
    [
      'a runner summary without the deprecated ip_address',
      'runners/list-runners',
      200,
      [drop(runner, 'ip_address')],
      false,
    ],
    [
      'a badge without name',
      'badges/get-group-badge',
      200,
      { id: 1, link_url: 'l', image_url: 'i', rendered_link_url: 'l', rendered_image_url: 'i', kind: 'group' },
      false,
    ],
    [
      'a badge with a null name',
      'badges/get-group-badge',
      200,
      {
        id: 1,
        name: null,
        link_url: 'l',
        image_url: 'i',
        rendered_link_url: 'l',
        rendered_image_url: 'i',
        kind: 'group',
      },
      true,
    ],
  ];
  it.each(cases)('%s: valid %s', (_title, operationId, status, body, valid) => {
    expect(validateResponse(operationId as never, status as never, body).valid).toBe(valid);
  });
});

describe('the group project list answers the simple view of `simple=true`', () => {
  const simple = loadResponseFixtures().ProjectSimple?.minimal as Record<string, unknown>;
  it.each([
    ['a simple view', [simple], true],
    ['a simple view without its namespace', [{ ...simple, namespace: undefined }], false],
    ['an item that is neither view', [{ id: 4 }], false],
  ])('%s: valid %s', (_title, body, valid) => {
    expect(validateResponse('groups/list-projects', 200, JSON.parse(JSON.stringify(body))).valid).toBe(valid);
  });
});
