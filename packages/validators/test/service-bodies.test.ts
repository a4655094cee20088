import { describe, expect, it } from 'vitest';
import { validateResponse } from '@service-api/validators';
import { loadResponseFixtures } from '../../../test/support/response-fixtures.ts';

/**
 * Bodies the Service sends that the current SDKs' own test suites serve (python-gitlab, the Service's Go client): each
 * is accepted, and each has a refused twin that breaks the same field another way, so no case passes by accepting
 * everything. The Service's source for each is in docs/reviews/0.6.0-next-answers.md.
 */
type Body = Record<string, unknown>;
const fixtures = loadResponseFixtures();
const fixture = (record: string, form: string) =>
  JSON.parse(JSON.stringify((fixtures[record] as Record<string, unknown>)[form])) as Body;
const without = (record: Body, ...fields: string[]) =>
  Object.fromEntries(Object.entries(record).filter(([name]) => !fields.includes(name)));

const mergeRequest = fixture('MergeRequest', 'opened_with_assignee_and_milestone');
const projectMilestone = mergeRequest.milestone as Body;
const groupMilestone = { ...without(projectMilestone, 'project_id'), group_id: 7 };
const token = fixture('PersonalAccessTokenCreated', 'minimal');
const user = fixture('UserSingle', 'minimal');
const pushRule = fixture('GroupPushRule', 'minimal');
const settings = fixture('ApplicationSettings', 'minimal');
const protection = settings.default_branch_protection_defaults as Body;

describe('bodies the Service sends', () => {
  const cases: [string, string, number, unknown, boolean][] = [
    [
      'a merge request with a group milestone',
      'merge-requests/list-merge-requests',
      200,
      [{ ...mergeRequest, milestone: groupMilestone }],
      true,
    ],
    [
      'a merge request whose milestone has a textual group_id',
      'merge-requests/list-merge-requests',
      200,
      [{ ...mergeRequest, milestone: { ...groupMilestone, group_id: 'seven' } }],
      false,
    ],
    [
      'a personal access token without expiry',
      'users/create-personal-access-token',
      201,
      { ...token, expires_at: null },
      true,
    ],
    [
      'a personal access token with a numeric expiry',
      'users/create-personal-access-token',
      201,
      { ...token, expires_at: 5 },
      false,
    ],
    ['a user without a time zone (null local_time)', 'users/get-user', 200, { ...user, local_time: null }, true],
    ['a user with a numeric local_time', 'users/get-user', 200, { ...user, local_time: 1030 }, false],
    [
      'a push rule without the licensed checks',
      'groups/get-push-rule',
      200,
      without(pushRule, 'commit_committer_check', 'commit_committer_name_check', 'reject_unsigned_commits'),
      true,
    ],
    [
      'a push rule with a textual licensed check',
      'groups/get-push-rule',
      200,
      { ...pushRule, reject_unsigned_commits: 'yes' },
      false,
    ],
    [
      'branch protection defaults as access-level objects',
      'application/get-settings',
      200,
      { ...settings, default_branch_protection_defaults: { ...protection, allowed_to_push: [{ access_level: 40 }] } },
      true,
    ],
    [
      'branch protection defaults as bare integers',
      'application/get-settings',
      200,
      { ...settings, default_branch_protection_defaults: { ...protection, allowed_to_push: [40] } },
      false,
    ],
    [
      'the polling interval multiplier as a decimal string',
      'application/get-settings',
      200,
      { ...settings, polling_interval_multiplier: '1.5' },
      true,
    ],
    [
      'the polling interval multiplier as a JSON number',
      'application/get-settings',
      200,
      { ...settings, polling_interval_multiplier: 1.5 },
      false,
    ],
    [
      'settings of a default instance (nulls)',
      'application/get-settings',
      200,
      {
        ...settings,
        home_page_url: null,
        asset_proxy_url: null,
        terms: null,
        performance_bar_allowed_group_id: null,
        external_authorization_service_url: null,
        external_authorization_service_default_label: null,
      },
      true,
    ],
    [
      'settings with a numeric home_page_url',
      'application/get-settings',
      200,
      { ...settings, home_page_url: 5 },
      false,
    ],
  ];
  it.each(cases)('%s: valid %s', (_title, operationId, status, body, valid) => {
    expect(validateResponse(operationId as never, status as never, body).valid).toBe(valid);
  });
});
