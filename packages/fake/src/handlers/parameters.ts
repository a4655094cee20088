/**
 * What the fake does with each documented query parameter of the operations it implements: *honoured* (with an
 * example on the default data set, which `packages/fake/test/parameters.test.ts` sends with and without the parameter and shows to
 * change the answer) or *ignored* (accepted, with the reason: the data the fake does not model). `sudo`, `page`,
 * `per_page` and the credentials (`private_token`, `access_token`, `job_token`) are left out: the server package and
 * the fake's shared code handle them for every operation. The test checks these tables against the bundled document
 * both ways, and docs/fake.md lists them (`packages/fake/scripts/parameters-list.mts`).
 *
 * Filters the Service reads but the document does not show for an operation (the project merge request list after
 * `order_by`, the runner lists' `status`, `paused` and `tag_list[]`) are listed under `undocumented`: the fake applies
 * them only after validating them as their documented twin does (`twinQuery`), else answers that twin's 400.
 */
import { errorBody, routes, validateRequest } from '@service-api/server';
import { normalizeInput, parseQuery, Tolerances } from '@service-api/server/internal';
import type { FastifyRequest } from 'fastify';

export interface Honoured {
  honoured: string;
  /** A query on the operation's example path whose answer differs without this parameter. */
  example: string;
  /** The token it is sent with, when not the table's. */
  token?: string;
  /** The path it is sent to, when not the table's. */
  path?: string;
  /** The status the example answers when not 200 (a value the fake refuses, where no value changes the answer). */
  status?: number;
}
export interface Ignored {
  ignored: string;
}
export type ParameterEntry = Honoured | Ignored;

export interface ParameterTable {
  /** A path of the operation on the default data set, and the token the examples are sent with. */
  path: string;
  token?: string;
  parameters: Record<string, ParameterEntry>;
  /** Filters the Service reads that this operation does not document: applied as validated by `twin`. */
  undocumented?: { twin: string; names: string[] };
}

const honoured = (what: string, example: string, token?: string, status?: number): Honoured => ({
  honoured: what,
  example,
  ...(token ? { token } : {}),
  ...(status ? { status } : {}),
});
const ignored = (why: string): Ignored => ({ ignored: why });

const PROJECT_STATISTICS = honoured(
  'from Reporter up: `statistics` of each project, from its repository (commits and blob bytes; the fake stores no wiki, LFS objects, artifacts, packages, snippets or uploads: 0)',
  'statistics=true',
);
const GROUP_STATISTICS = honoured(
  'administrators: `statistics` of each group, the sum of its and its subgroups’ project repositories (other storage kinds: 0)',
  'statistics=true',
  'admin-token',
);
const SEAT_INFO = honoured(
  'adds `is_using_seat` to each member (every human member takes a seat; bots none)',
  'show_seat_info=true',
);
const CUSTOM_ATTRIBUTES = honoured(
  "administrators: adds the user's `custom_attributes` (from the data set) to the answer",
  'with_custom_attributes=true',
);

const jobScope = honoured('keeps the jobs in one of the given statuses', 'scope[]=running&scope[]=pending');
const bulkImportFilters = (example: string): Record<string, ParameterEntry> => ({
  sort: honoured('orders by creation (`asc` oldest first; default `desc`)', `sort=asc${example}`),
  status: honoured('keeps the records in that status', `status=failed${example}`),
});

const groupListFilters = (everyone: string): Record<string, ParameterEntry> => ({
  'skip_groups[]': honoured('leaves out the given group ids', 'skip_groups[]=2'),
  all_available: honoured('every visible group, not only those the caller belongs to', 'all_available=true', everyone),
  search: honoured('name or path contains the text', 'search=sub'),
  order_by: honoured('name, path or id (default name)', 'order_by=id&sort=desc'),
  sort: honoured('asc (default) or desc', 'sort=desc'),
  statistics: GROUP_STATISTICS,
  with_custom_attributes: honoured(
    "administrators: adds each group's `custom_attributes` (from the data set) to the answer",
    'with_custom_attributes=true',
    'admin-token',
  ),
  owned: honoured(
    'groups the caller owns (before `all_available`)',
    'all_available=true&owned=true',
    'developer-token',
  ),
  min_access_level: honoured(
    'groups where the caller has at least that access level (before `all_available`)',
    'all_available=true&min_access_level=30',
    'developer-token',
  ),
});

const memberFilters = (all: boolean): Record<string, ParameterEntry> => ({
  query: honoured('username or name contains the text', 'query=rit'),
  'user_ids[]': honoured('keeps the given user ids', 'user_ids[]=3'),
  ...(all ? {} : { 'skip_users[]': honoured('leaves out the given user ids', 'skip_users[]=4') }),
  show_seat_info: SEAT_INFO,
  ...(all
    ? {
        state: honoured(
          '`awaiting` or `active` members (`state` of the data set’s members, default active)',
          'state=awaiting',
        ),
      }
    : {}),
});

const runnerFilters: Record<string, ParameterEntry> = {
  scope: honoured('active, paused, online, offline, specific or shared', 'scope=online'),
  type: honoured('instance_type, group_type or project_type', 'type=project_type'),
  status: honoured('online, offline, stale, never_contacted (or the deprecated active, paused)', 'status=offline'),
  paused: honoured('paused or not', 'paused=true'),
  'tag_list[]': honoured('runners with every given tag', 'tag_list[]=docker'),
  version_prefix: honoured('a manager’s version starts with it', 'version_prefix=16'),
};

const projectListFilters: Record<string, ParameterEntry> = {
  archived: honoured('archived or not (`archived` in the data set)', 'archived=true'),
  id_after: honoured('ids above it', 'id_after=1'),
  id_before: honoured('ids below it', 'id_before=3'),
  membership: honoured(
    'projects the caller is a member of (directly or through a group)',
    'membership=true',
    'maintainer-token',
  ),
  min_access_level: honoured(
    'projects where the caller has at least that access level',
    'min_access_level=40',
    'maintainer-token',
  ),
  order_by: honoured(
    'id, name, path, created_at, updated_at or last_activity_at (updated_at: the last activity)',
    'order_by=name&sort=asc',
  ),
  owned: honoured('projects the caller owns', 'owned=true', 'maintainer-token'),
  search: honoured('name, path or description contains the text', 'search=tool'),
  simple: honoured('the simple view', 'simple=true'),
  sort: honoured('asc or desc (default desc)', 'sort=asc'),
  starred: honoured('projects the caller starred (`starred_by` in the data set)', 'starred=true', 'developer-token'),
  statistics: PROJECT_STATISTICS,
  updated_after: honoured(
    'last updated (last active) after it',
    'updated_after=2025-03-11T10:00:10Z&order_by=updated_at',
  ),
  updated_before: honoured(
    'last updated (last active) before it',
    'updated_before=2025-03-11T10:00:10Z&order_by=updated_at',
  ),
  visibility: honoured('public, internal or private', 'visibility=internal'),
  with_custom_attributes: honoured(
    "administrators: adds each project's `custom_attributes` (from the data set) to the answer",
    'with_custom_attributes=true',
  ),
};

/** The merge request filters both lists document (`scope` widens the global list to every visible one). */
const mergeRequestFilters = (scope: string): Record<string, ParameterEntry> => ({
  'approved_by_ids[]': honoured('approved by every given user', `${scope}approved_by_ids[]=2`),
  approved_by_ids: honoured('`None`: without approvals; `Any`: with one', `${scope}approved_by_ids=None`),
  'approver_ids[]': honoured(
    'every given user is an eligible approver (`approver_ids` and the project’s approval rules)',
    `${scope}approver_ids[]=2`,
  ),
  approver_ids: honoured('`None`: without eligible approvers; `Any`: with some', `${scope}approver_ids=None`),
  approved: honoured('`yes`: has an approval; `no`: has none', `${scope}approved=yes`),
  assignee_id: honoured('assigned to that user (None, Any)', `${scope}assignee_id=4`),
  author_id: honoured('created by that user', `${scope}author_id=3`),
  author_username: honoured('created by that user', `${scope}author_username=mia`),
  created_after: honoured('created at or after it', `${scope}created_after=2025-03-04T00:00:00Z`),
  created_before: honoured('created at or before it', `${scope}created_before=2025-03-04T00:00:00Z`),
  updated_after: honoured('updated at or after it', `${scope}updated_after=2025-03-07T00:00:00Z`),
  updated_before: honoured('updated at or before it', `${scope}updated_before=2025-03-07T00:00:00Z`),
  environment: honoured(
    'deployed to that environment (`deployments` in the data set)',
    `${scope}environment=production`,
  ),
  in: honoured('where `search` looks: title, description or both', `${scope}search=form&in=title`),
  labels: honoured('has every given label (None, Any)', `${scope}labels=docs`),
  merge_user_id: honoured('merged by that user', `${scope}merge_user_id=3`),
  merge_user_username: honoured('merged by that user', `${scope}merge_user_username=mia`),
  milestone: honoured(
    'has the milestone of that title (None, Any; `milestones` in the data set)',
    `${scope}milestone=v1.1`,
  ),
  my_reaction_emoji: honoured(
    'the caller reacted with that emoji (None, Any; `award_emoji` in the data set)',
    `${scope}my_reaction_emoji=thumbsup`,
  ),
  'not[labels]': honoured('has none of the given labels', `${scope}not[labels]=docs`),
  'not[milestone]': honoured('has not the milestone of that title', `${scope}not[milestone]=v1.1`),
  'not[author_id]': honoured('not created by that user', `${scope}not[author_id]=4`),
  'not[author_username]': honoured('not created by that user', `${scope}not[author_username]=dev`),
  'not[assignee_id]': honoured('not assigned to that user', `${scope}not[assignee_id]=4`),
  'not[assignee_username]': honoured('not assigned to that user', `${scope}not[assignee_username]=dev`),
  'not[reviewer_id]': honoured('that user is not a reviewer', `${scope}not[reviewer_id]=3`),
  'not[reviewer_username]': honoured('that user is not a reviewer', `${scope}not[reviewer_username]=mia`),
  'not[my_reaction_emoji]': honoured(
    'the caller did not react with that emoji',
    `${scope}not[my_reaction_emoji]=thumbsup`,
  ),
  order_by: honoured('created_at, title or updated_at', `${scope}order_by=title`),
});

/** The tables, by operationId. */
export const parameterTables: Record<string, ParameterTable> = {
  'jobs/list-project-jobs': { path: '/projects/1/jobs', token: 'developer-token', parameters: { 'scope[]': jobScope } },
  'jobs/list-pipeline-jobs': {
    path: '/projects/1/pipelines/12/jobs',
    token: 'developer-token',
    parameters: {
      include_retried: honoured('lists retried jobs too (`retried` in the data set)', 'include_retried=true'),
      'scope[]': jobScope,
    },
  },
  'jobs/list-pipeline-bridges': {
    path: '/projects/1/pipelines/12/bridges',
    token: 'developer-token',
    parameters: { 'scope[]': honoured('keeps the trigger jobs in one of the given statuses', 'scope[]=manual') },
  },
  'bulk-imports/list-migrations': {
    path: '/bulk_imports',
    token: 'developer-token',
    parameters: bulkImportFilters(''),
  },
  'bulk-imports/list-all-entities': {
    path: '/bulk_imports/entities',
    token: 'developer-token',
    parameters: bulkImportFilters(''),
  },
  'bulk-imports/list-migration-entities': {
    path: '/bulk_imports/1/entities',
    token: 'developer-token',
    parameters: bulkImportFilters(''),
  },
  'repository/get-file': {
    path: '/projects/1/repository/files/README.md',
    parameters: { ref: honoured('the branch, tag or commit read (required)', 'ref=v1.0.0') },
  },
  'repository/get-file-metadata': {
    path: '/projects/1/repository/files/README.md',
    parameters: { ref: honoured('the branch, tag or commit read (required)', 'ref=v1.0.0') },
  },
  'repository/get-file-blame': {
    path: '/projects/1/repository/files/README.md/blame',
    parameters: {
      ref: honoured('the branch, tag or commit read (required)', 'ref=v1.0.0'),
      'range[start]': honoured('first line blamed', 'ref=main&range[start]=3&range[end]=4'),
      'range[end]': honoured('last line blamed', 'ref=main&range[start]=1&range[end]=1'),
    },
  },
  'repository/get-file-blame-metadata': {
    path: '/projects/1/repository/files/README.md/blame',
    parameters: {
      ref: honoured('the branch, tag or commit read (required)', 'ref=v1.0.0'),
      'range[start]': ignored('HEAD answers the file’s headers, which do not depend on the blamed range'),
      'range[end]': ignored('HEAD answers the file’s headers, which do not depend on the blamed range'),
    },
  },
  'repository/get-raw-file': {
    path: '/projects/1/repository/files/README.md/raw',
    parameters: {
      ref: honoured('the branch, tag or commit read (default: the default branch)', 'ref=v1.0.0'),
      lfs: ignored('the fake stores no Git LFS objects: every file is its own content'),
    },
  },
  'repository/get-raw-file-metadata': {
    path: '/projects/1/repository/files/README.md/raw',
    parameters: {
      ref: honoured('the branch, tag or commit read (default: the default branch)', 'ref=v1.0.0'),
      lfs: ignored('the fake stores no Git LFS objects: every file is its own content'),
    },
  },
  'repository/list-tree': {
    path: '/projects/1/repository/tree',
    parameters: {
      path: honoured('the folder listed', 'path=src'),
      ref: honoured('the branch, tag or commit listed', 'ref=v1.0.0'),
      recursive: honoured('lists sub-folders’ entries too', 'recursive=true'),
      pagination: ignored('keyset is the tree’s only pagination: the fake pages by keyset whether or not it is sent'),
      page_token: honoured(
        'the entry after which the page starts: the next link’s cursor (by path), or an entry id',
        'pagination=keyset&page_token=b6d45415793d13350a9171a96cf67c2637b8d8b0',
      ),
    },
  },
  'repository/download-archive': {
    path: '/projects/1/repository/archive',
    parameters: {
      sha: honoured('the commit, branch or tag archived', 'sha=v1.0.0'),
      path: honoured('only this folder is archived', 'path=src'),
    },
  },
  'repository/download-archive-in-format': {
    path: '/projects/1/repository/archive.zip',
    parameters: {
      sha: honoured('the commit, branch or tag archived', 'sha=v1.0.0'),
      path: honoured('only this folder is archived', 'path=src'),
    },
  },
  'repository/compare': {
    path: '/projects/1/repository/compare',
    token: 'developer-token',
    parameters: {
      from: honoured('the start of the comparison (required)', 'from=v1.0.0&to=main'),
      to: honoured('the end of the comparison (required)', 'from=v1.0.0&to=main'),
      from_project_id: honoured('the project `from` is read in', 'from=main&to=main&from_project_id=3&straight=true'),
      straight: honoured('diffs against `from` itself, not the merge base', 'from=main&to=v1.0.0&straight=true'),
      unidiff: honoured('diffs with their `--- a/…` and `+++ b/…` header lines', 'from=v1.0.0&to=main&unidiff=true'),
    },
  },
  'repository/list-contributors': {
    path: '/projects/1/repository/contributors',
    parameters: {
      order_by: honoured('name, email or commits (default commits)', 'order_by=name'),
      sort: honoured('asc (default) or desc', 'sort=desc'),
    },
  },
  'repository/get-merge-base': {
    path: '/projects/1/repository/merge_base',
    parameters: { 'refs[]': honoured('the refs whose merge base is answered (required)', 'refs[]=main&refs[]=v1.0.0') },
  },
  'repository/get-changelog': {
    path: '/projects/1/repository/changelog',
    token: 'developer-token',
    parameters: {
      version: honoured('the version the notes are headed with (required)', 'version=1.2.0'),
      branch: honoured(
        'the branch the commits are read from (default: the default branch)',
        'version=1.2.0&branch=no-such-branch',
        'developer-token',
        400,
      ),
      config_file: ignored(
        'the fake reads no changelog configuration: it groups by the trailer with the default template',
      ),
      date: honoured('the date of the heading', 'version=1.2.0&date=2025-01-01T00:00:00Z'),
      file: ignored('GET answers the notes only: `file` is where `POST` commits them'),
      from: honoured(
        'the commit after which commits are read (default: the last stable tag)',
        'version=1.2.0&from=v1.1.0-rc.1',
      ),
    },
  },
  'users/list-users': {
    path: '/users',
    token: 'admin-token',
    parameters: {
      username: honoured('exact, case-insensitive', 'username=MIA'),
      search: honoured('name, username or e-mail contains it', 'search=mia'),
      active: honoured('only `true` filters: users who are not blocked', 'active=true'),
      external: honoured('only `true` filters: external users', 'external=true'),
      exclude_external: honoured('leaves out external users', 'exclude_external=true'),
      blocked: honoured('only `true` filters: blocked users', 'blocked=true'),
      created_after: honoured('created at or after it', 'created_after=2025-01-01T00:00:00Z&order_by=id'),
      created_before: honoured('created at or before it', 'created_before=2025-01-01T00:00:00Z'),
      exclude_internal: honoured('leaves out the alert and support bots', 'exclude_internal=true'),
      without_project_bots: honoured('leaves out project bots', 'without_project_bots=true'),
      extern_uid: honoured(
        'administrators: users with an identity of this uid (of `provider` when given)',
        'extern_uid=uid%3Dmia%2Cou%3Dpeople%2Cdc%3Dexample%2Cdc%3Dcom',
      ),
      provider: honoured('administrators: users with an identity of this provider', 'provider=ldapmain'),
      order_by: honoured(
        'administrators: id, name, username, created_at or updated_at (default id; the fake keeps no update time: updated_at is created_at)',
        'order_by=name',
      ),
      sort: honoured('administrators: asc or desc (default desc)', 'sort=asc'),
      two_factor: honoured('administrators: enabled or disabled', 'two_factor=enabled'),
      without_projects: honoured('administrators: users who are members of no project', 'without_projects=true'),
      admins: honoured('administrators: administrators only', 'admins=true'),
      auditors: honoured('administrators: auditors only (`is_auditor` in the data set)', 'auditors=true'),
      saml_provider_id: honoured('administrators: users with an identity of that SAML provider', 'saml_provider_id=1'),
      skip_ldap: honoured('administrators: leaves out users with an LDAP identity', 'skip_ldap=true'),
      custom_attributes: honoured(
        'administrators: users with every given custom attribute',
        'custom_attributes[team]=backend',
      ),
      with_custom_attributes: honoured(
        "administrators: adds each user's `custom_attributes` (from the data set) to the answer",
        'with_custom_attributes=true',
      ),
    },
  },
  'users/get-user': {
    path: '/users/3',
    token: 'admin-token',
    parameters: { with_custom_attributes: CUSTOM_ATTRIBUTES },
  },
  'users/list-activities': {
    path: '/user/activities',
    token: 'admin-token',
    parameters: { from: honoured('active on or after that day (default: six months ago)', 'from=2025-03-05') },
  },
  'users/list-memberships': {
    path: '/users/4/memberships',
    token: 'admin-token',
    parameters: { type: honoured('Project or Namespace memberships only', 'type=Project') },
  },
  'groups/list-groups': {
    path: '/groups',
    token: 'admin-token',
    parameters: {
      ...groupListFilters('developer-token'),
      visibility: honoured('public, internal or private', 'visibility=private'),
      top_level_only: honoured('groups without a parent', 'top_level_only=true'),
      repository_storage: honoured(
        'administrators: groups on that storage (`repository_storage` in the data set, default `default`)',
        'repository_storage=nfs-02',
      ),
      custom_attributes: honoured(
        'administrators: groups with every given custom attribute',
        'custom_attributes[tier]=gold',
      ),
    },
  },
  'groups/list-subgroups': {
    path: '/groups/1/subgroups',
    token: 'owner-token',
    parameters: groupListFilters('outsider-token'),
  },
  'groups/list-descendant-groups': {
    path: '/groups/1/descendant_groups',
    token: 'owner-token',
    parameters: groupListFilters('outsider-token'),
  },
  'groups/list-projects': {
    path: '/groups/1/projects',
    token: 'admin-token',
    parameters: {
      archived: projectListFilters.archived!,
      visibility: honoured('public, internal or private', 'visibility=private'),
      order_by: honoured(
        'id, name, path, created_at, updated_at, similarity, star_count or last_activity_at',
        'order_by=last_activity_at&sort=asc&include_subgroups=true',
      ),
      sort: projectListFilters.sort!,
      search: honoured('name, path or description contains the text', 'search=secret'),
      simple: honoured('`true`: the simple view of each project', 'simple=true'),
      owned: honoured('projects the caller owns', 'owned=true&include_subgroups=true', 'maintainer-token'),
      starred: honoured(
        'projects the caller starred (`starred_by` in the data set)',
        'starred=true',
        'developer-token',
      ),
      topic: honoured('projects with every given topic (comma-separated)', 'topic=web'),
      with_issues_enabled: honoured('projects with issues enabled', 'with_issues_enabled=true&include_subgroups=true'),
      with_merge_requests_enabled: honoured(
        'projects with merge requests enabled',
        'with_merge_requests_enabled=true&include_subgroups=true',
      ),
      with_shared: {
        ...honoured(
          '`false` leaves out the projects shared with the group (`shared_with_group_ids` in the data set)',
          'with_shared=false',
        ),
        path: '/groups/3/projects',
      },
      include_subgroups: honoured('the subgroups’ projects too', 'include_subgroups=true'),
      min_access_level: honoured(
        'projects where the caller has at least that access level',
        'min_access_level=50&include_subgroups=true',
        'maintainer-token',
      ),
      with_custom_attributes: projectListFilters.with_custom_attributes!,
      with_security_reports: honoured(
        'projects with security scan results (the dependency lists of the data set come from dependency scanning)',
        'with_security_reports=true&include_subgroups=true',
      ),
    },
  },
  'badges/list-group-badges': {
    path: '/groups/1/badges',
    token: 'owner-token',
    parameters: { name: honoured('the badge name (case-sensitive)', 'name=Coverage') },
  },
  'badges/render-group-badge': {
    path: '/groups/1/badges/render',
    token: 'owner-token',
    parameters: {
      link_url: honoured('rendered with the placeholders (required)', 'link_url=%25%7Bproject_path%7D&image_url=x'),
      image_url: honoured('rendered with the placeholders (required)', 'link_url=x&image_url=%25%7Bproject_id%7D'),
    },
  },
  'members/list-group-members': { path: '/groups/3/members', token: 'owner-token', parameters: memberFilters(false) },
  'members/list-project-members': {
    path: '/projects/1/members',
    token: 'developer-token',
    parameters: memberFilters(false),
  },
  'members/list-all-group-members': {
    path: '/groups/3/members/all',
    token: 'owner-token',
    parameters: memberFilters(true),
  },
  'members/list-all-project-members': {
    path: '/projects/1/members/all',
    token: 'developer-token',
    parameters: memberFilters(true),
  },
  'members/list-billable-members': {
    path: '/groups/1/billable_members',
    token: 'owner-token',
    parameters: {
      search: honoured('name, username or public e-mail contains it', 'search=mia'),
      sort: honoured(
        'access_level_asc/desc, name_asc/desc, last_joined, oldest_joined, sign-in and activity',
        'sort=name_desc',
      ),
    },
  },
  'invitations/list-group-invitations': {
    path: '/groups/1/invitations',
    token: 'owner-token',
    parameters: { query: honoured('the invited e-mail', 'query=new.hire%40example.com') },
  },
  'invitations/list-project-invitations': {
    path: '/projects/1/invitations',
    token: 'maintainer-token',
    parameters: { query: honoured('the invited e-mail', 'query=designer%40example.com') },
  },
  'runners/list-runners': { path: '/runners', token: 'admin-token', parameters: runnerFilters },
  'runners/list-all-runners': { path: '/runners/all', token: 'admin-token', parameters: runnerFilters },
  'runners/list-runner-jobs': {
    path: '/runners/1/jobs',
    token: 'admin-token',
    parameters: {
      system_id: honoured('jobs run by that runner manager', 'system_id=s_1b2c3d4e5f60'),
      status: honoured('jobs in that status', 'status=success'),
      order_by: honoured('`id`, the only order (required with `sort`)', 'order_by=id&sort=asc'),
      sort: honoured('asc or desc (default desc)', 'order_by=id&sort=asc'),
    },
  },
  'runners/list-project-runners': {
    path: '/projects/1/runners',
    token: 'maintainer-token',
    parameters: {
      scope: honoured('active, paused, online, offline, specific or shared', 'scope=paused'),
      type: honoured('instance_type, group_type or project_type', 'type=project_type'),
    },
    undocumented: { twin: 'runners/list-all-runners', names: ['status', 'paused', 'tag_list[]'] },
  },
  'runners/list-group-runners': {
    path: '/groups/1/runners',
    token: 'owner-token',
    parameters: {},
    undocumented: { twin: 'runners/list-all-runners', names: ['type', 'status', 'paused', 'tag_list[]'] },
  },
  'projects/list-projects': {
    path: '/projects',
    token: 'admin-token',
    parameters: {
      ...projectListFilters,
      imported: honoured('projects created by an import', 'imported=true'),
      include_hidden: ignored('the fake keeps no hidden projects'),
      include_pending_delete: ignored('the fake deletes no projects: none is pending deletion'),
      last_activity_after: honoured('last active after it', 'last_activity_after=2025-03-11T10:00:10Z'),
      last_activity_before: honoured('last active before it', 'last_activity_before=2025-03-11T10:00:10Z'),
      repository_checksum_failed: ignored('the fake verifies no repository checksums'),
      repository_storage: honoured(
        'administrators: projects on that storage (`repository_storage` in the data set, default `default`)',
        'repository_storage=nfs-02',
      ),
      search_namespaces: honoured('`search` also matches the namespace path', 'search=sub&search_namespaces=true'),
      topic_id: honoured(
        'projects with the topic of that id (`topics` in the data set, ids by first use)',
        'topic_id=1',
      ),
      topic: honoured('projects with every given topic (comma-separated)', 'topic=web'),
      wiki_checksum_failed: ignored('the fake verifies no wiki checksums'),
      with_issues_enabled: honoured('projects with issues enabled', 'with_issues_enabled=true'),
      with_merge_requests_enabled: honoured('projects with merge requests enabled', 'with_merge_requests_enabled=true'),
      with_programming_language: honoured(
        'projects whose files are mostly in that language (by file extension)',
        'with_programming_language=JavaScript',
      ),
      custom_attributes: honoured('projects with every given custom attribute', 'custom_attributes[tier]=gold'),
    },
  },
  'projects/list-user-projects': {
    path: '/users/4/projects',
    token: 'admin-token',
    parameters: {
      archived: projectListFilters.archived!,
      id_after: honoured('ids above it', 'id_after=4'),
      id_before: honoured('ids below it', 'id_before=5'),
      membership: honoured('projects the caller is a member of', 'membership=true', 'maintainer-token'),
      min_access_level: honoured(
        'projects where the caller has at least that access level',
        'min_access_level=30',
        'maintainer-token',
      ),
      order_by: projectListFilters.order_by!,
      owned: honoured('projects the caller owns', 'owned=true', 'maintainer-token'),
      search: honoured('name, path or description contains the text', 'search=dot'),
      simple: honoured('the simple view', 'simple=true'),
      sort: honoured('asc or desc (default desc)', 'sort=asc'),
      starred: projectListFilters.starred!,
      statistics: PROJECT_STATISTICS,
      updated_after: honoured(
        'last updated (last active) after it',
        'updated_after=2025-03-11T10:00:04.500Z&order_by=updated_at',
      ),
      updated_before: honoured(
        'last updated (last active) before it',
        'updated_before=2025-03-11T10:00:04.500Z&order_by=updated_at',
      ),
      visibility: honoured('public, internal or private', 'visibility=private'),
      with_custom_attributes: projectListFilters.with_custom_attributes!,
    },
  },
  'merge-requests/list-merge-requests': {
    path: '/merge_requests',
    token: 'admin-token',
    parameters: {
      ...mergeRequestFilters('scope=all&'),
      deployed_after: honoured(
        'deployed after it (`deployments` in the data set)',
        'scope=all&deployed_after=2025-03-09T13:30:00Z',
      ),
      deployed_before: honoured('deployed before it', 'scope=all&deployed_before=2025-03-09T13:30:00Z'),
      reviewer_id: honoured('that user is a reviewer (None, Any)', 'scope=all&reviewer_id=3'),
      reviewer_username: honoured('that user is a reviewer', 'scope=all&reviewer_username=mia'),
      scope: honoured('created_by_me (default), assigned_to_me or all', 'scope=all'),
      search: honoured('title or description contains it', 'scope=all&search=login'),
      sort: honoured('asc or desc (default desc)', 'scope=all&sort=asc'),
      source_branch: honoured('that source branch', 'scope=all&source_branch=deps'),
      target_branch: honoured('that target branch', 'scope=all&target_branch=other'),
      state: honoured('opened, closed, locked, merged or all', 'scope=all&state=merged'),
      view: honoured('`simple`: the reduced record', 'scope=all&view=simple'),
      with_labels_details: honoured(
        'labels as objects with colour and description (`labels` in the data set; others have the default colour #6699cc)',
        'scope=all&with_labels_details=true',
      ),
      with_merge_status_recheck: ignored('the fake computes `merge_status` on every read: there is nothing to recheck'),
      wip: honoured('yes (drafts only) or no', 'scope=all&wip=yes'),
    },
  },
  'merge-requests/list-project-merge-requests': {
    path: '/projects/1/merge_requests',
    token: 'developer-token',
    parameters: {
      ...mergeRequestFilters(''),
      'iids[]': honoured('the given iids only', 'iids[]=2&iids[]=3'),
      view: honoured('`simple`: the reduced record', 'view=simple'),
    },
    undocumented: {
      twin: 'merge-requests/list-merge-requests',
      names: ['reviewer_id', 'reviewer_username', 'search', 'sort', 'source_branch', 'target_branch', 'state', 'wip'],
    },
  },
  'application/get-plan-limits': {
    path: '/application/plan_limits',
    token: 'admin-token',
    parameters: { plan_name: honoured('the plan read (default `default`)', 'plan_name=premium') },
  },
  'dependencies/list-project-dependencies': {
    path: '/projects/1/dependencies',
    token: 'developer-token',
    parameters: { 'package_manager[]': honoured('the given package managers only', 'package_manager[]=npm') },
  },
};

/**
 * The filters `names` of an operation that does not document them, read from the URL and checked as `twin` (an
 * operation that documents them) checks them: `{ values }` coerced as the twin coerces them, or the twin's 400 answer.
 */
export function twinQuery(
  request: FastifyRequest,
  twin: string,
  names: string[],
): { values: Record<string, unknown> } | { status: 400; body: Record<string, unknown> } {
  const route = routes.find((r) => r.id === twin)!;
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  let all: Record<string, unknown>;
  try {
    all = parseQuery(at < 0 ? '' : url.slice(at + 1), route.query);
  } catch {
    all = {};
  }
  // A name the twin reads, or its plain form (`tag_list` for `tag_list[]`), which the twin reads as the Service does.
  const sent: Record<string, unknown> = {};
  for (const key of Object.keys(all)) if (names.includes(key) || names.includes(`${key}[]`)) sent[key] = all[key];
  if (Object.keys(sent).length === 0) return { values: {} };
  const input = normalizeInput(
    { method: 'GET', shape: route.input, params: {}, query: sent, body: undefined },
    new Tolerances(20),
  );
  const check = validateRequest(twin as never, { params: {}, query: input.query, headers: {} });
  if (!check.valid) return { status: 400, body: errorBody(400, undefined, check.problems) };
  return { values: check.value.query };
}

/** The tables as docs/fake.md lists them (one Markdown table, by operation). */
export function parameterTablesMarkdown(): string {
  const rows = Object.entries(parameterTables)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .flatMap(([id, table]) =>
      Object.entries(table.parameters).map(([name, entry]) =>
        'honoured' in entry
          ? `| \`${id}\` | \`${name}\` | honoured | ${entry.honoured} |`
          : `| \`${id}\` | \`${name}\` | ignored | ${entry.ignored} |`,
      ),
    );
  const { honoured: kept, total } = parameterCounts();
  const twins = Object.entries(parameterTables)
    .filter(([, table]) => table.undocumented)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([id, table]) =>
        `- \`${id}\` also reads ${table.undocumented!.names.map((n) => `\`${n}\``).join(', ')}, validated as \`${table.undocumented!.twin}\` validates them (its 400 for a bad value).`,
    );
  return [
    'Filters the Service reads beyond what an operation documents are applied only after the same validation as the',
    'operation that documents them:',
    '',
    ...twins,
    '',
    `${kept} of the ${total} documented query parameters of the operations the fake implements are honoured; the others`,
    'are accepted and ignored for the reason given. `sudo`, `page`, `per_page` and the credentials are left out (handled',
    'for every operation). `packages/fake/test/parameters.test.ts` checks this table against the document and the code, and shows',
    "each honoured parameter's effect on the default data set.",
    '',
    '| Operation | Parameter | | What the fake does |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** How many documented parameters the tables list, and how many of them are honoured. */
export function parameterCounts(): { honoured: number; total: number } {
  const entries = Object.values(parameterTables).flatMap((t) => Object.values(t.parameters));
  return { honoured: entries.filter((e) => 'honoured' in e).length, total: entries.length };
}
