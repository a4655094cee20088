/**
 * One call of @gitbeaker/rest per operation of the contract that it supports, as a team would write it. `exact`
 * marks the calls whose request is in the contract's exact form (they must pass in strict mode too); the others
 * send a form the Service tolerates (a string boolean, a query-string write, an extra parameter).
 * Not listed: operations gitbeaker 43.8.0 has no method for (dependencies, group approval rules, S3 and relation
 * imports, …), the HEAD operations, and `GET /job`, whose method throws before sending because it looks for the
 * `job-token` header in a place its own `jobToken` option never fills.
 */
import { gzipSync } from 'node:zlib';
import type { Gitlab } from '@gitbeaker/rest';

type Api = InstanceType<typeof Gitlab<false>>;

/** The records the calls name: any value for the mock; for the fake, records of its default data set. */
export interface CallIds {
  /** A project by id or path; `numericProject` where the operation takes only the numeric id. */
  project: number | string;
  numericProject: number;
  /** The namespace imports go to, by id or path, and its full path. */
  namespace: number | string;
  namespacePath: string;
  pipeline: number;
  /** A pipeline with bridge jobs. */
  bridgePipeline: number;
  job: number;
  migration: number;
  entity: number;
  /** A file on the default branch, its blob id, and a branch other than the default one. */
  file: string;
  blob: string;
  branch: string;
  user: number;
  impersonationToken: number;
  /** A user with two-factor authentication enabled. */
  twoFactorUser: number;
  group: number;
  hook: number;
  /** `sharingGroup` is shared with `sharedGroup`. */
  sharingGroup: number;
  sharedGroup: number;
  badge: number;
  /** A direct member of `group`, and one of `project`. */
  groupMember: number;
  projectMember: number;
  runner: number;
  integration: string;
  /** An opened, mergeable merge request (updated, then merged), and another one (deleted). */
  mergeRequest: number;
  deletedMergeRequest: number;
  approvalRule: number;
}

export const mockIds: CallIds = {
  project: 42,
  numericProject: 42,
  namespace: 5,
  namespacePath: 'ns',
  pipeline: 5,
  bridgePipeline: 5,
  job: 7,
  migration: 1,
  entity: 2,
  file: 'app/models/user.rb',
  blob: '7d70e02340bac451f281cecf0a980907974bd8be',
  branch: 'feature',
  user: 1,
  impersonationToken: 2,
  twoFactorUser: 1,
  group: 5,
  hook: 1,
  sharingGroup: 5,
  sharedGroup: 6,
  badge: 1,
  groupMember: 1,
  projectMember: 1,
  runner: 3,
  integration: 'slack',
  mergeRequest: 2,
  deletedMergeRequest: 2,
  approvalRule: 1,
};

/** The records of the fake's default data set the calls name; `blob` is the README's blob id (read from the fake). */
export function fakeIds(blob: string): CallIds {
  return {
    project: 'my-group/my-project',
    numericProject: 1,
    namespace: 'my-group',
    namespacePath: 'my-group',
    pipeline: 11,
    bridgePipeline: 12,
    job: 101,
    migration: 1,
    entity: 2,
    file: 'README.md',
    blob,
    branch: 'feature/login',
    user: 4,
    impersonationToken: 1,
    twoFactorUser: 3,
    group: 1,
    hook: 1,
    sharingGroup: 2,
    sharedGroup: 1,
    badge: 1,
    groupMember: 2,
    projectMember: 3,
    runner: 3,
    integration: 'chat-notifications',
    mergeRequest: 1,
    deletedMergeRequest: 2,
    approvalRule: 1,
  };
}

/**
 * The fake's token for an operation, where its administrator's (`admin-token`) is not the one: runner creation takes
 * a token with the create_runner scope (the group owner's); migration 1 is Dev's, read by its owner.
 */
export const fakeTokens: Record<string, string> = {
  'runners/create-user-runner': 'runner-creator-token',
  ...Object.fromEntries(
    ['get-migration', 'list-migration-entities', 'get-migration-entity', 'get-entity-failures'].map((id) => [
      `bulk-imports/${id}`,
      'developer-token',
    ]),
  ),
};

export interface ClientCall {
  operationId: string;
  call: (api: Api, ids: CallIds) => Promise<unknown>;
  /** Why strict mode refuses it: the client's departure from the exact form. Absent: exact. */
  tolerated?: string;
}

/** An export file: a gzipped empty tar archive. */
const file = () => new Blob([new Uint8Array(gzipSync(new Uint8Array(1024)))], { type: 'application/gzip' });

/** Polls the export status until it is finished (at most ten times), as a team does before downloading. */
async function exportFinished(api: Api, ids: CallIds): Promise<void> {
  for (let i = 0; i < 10; i += 1)
    if ((await api.ProjectImportExports.showExportStatus(ids.project)).export_status === 'finished') return;
}

export const gitbeakerCalls: ClientCall[] = [
  {
    operationId: 'jobs/list-project-jobs',
    call: (api, ids) => api.Jobs.all(ids.project, { scope: 'failed' as never }),
    tolerated: 'sends scope=failed for scope[]',
  },
  {
    operationId: 'jobs/list-pipeline-jobs',
    call: (api, ids) => api.Jobs.all(ids.project, { pipelineId: ids.pipeline }),
  },
  {
    operationId: 'jobs/list-pipeline-bridges',
    call: (api, ids) => api.Jobs.allPipelineBridges(ids.project, ids.bridgePipeline),
  },
  { operationId: 'jobs/get-project-job', call: (api, ids) => api.Jobs.show(ids.project, ids.job) },
  {
    operationId: 'project-import-export/export-project',
    call: (api, ids) =>
      api.ProjectImportExports.scheduleExport(ids.project, {
        url: 'https://service.example/upload',
        http_method: 'PUT',
      } as never),
  },
  {
    operationId: 'project-import-export/get-export-status',
    call: (api, ids) => api.ProjectImportExports.showExportStatus(ids.project),
  },
  {
    operationId: 'project-import-export/download-export',
    call: (api, ids) => exportFinished(api, ids).then(() => api.ProjectImportExports.download(ids.project)),
  },
  {
    operationId: 'project-import-export/import-project',
    call: (api, ids) =>
      api.ProjectImportExports.import({ content: file(), filename: 'export.tar.gz' }, 'imported', {
        namespace: ids.namespace,
      }),
  },
  {
    operationId: 'project-import-export/import-project-from-url',
    call: (api, ids) =>
      api.ProjectImportExports.importRemote('https://service.example/export.tar.gz', 'imported-from-url', {
        namespace: ids.namespace,
      }),
  },
  {
    operationId: 'project-import-export/get-import-status',
    call: (api, ids) => api.ProjectImportExports.showImportStatus(ids.project),
  },
  {
    operationId: 'bulk-imports/create-migration',
    call: (api, ids) =>
      api.Migrations.create({ url: 'https://source.example', access_token: 'token' }, [
        {
          source_type: 'group_entity',
          source_full_path: 'src',
          destination_slug: 'dst',
          destination_namespace: ids.namespacePath,
        },
      ] as never),
  },
  { operationId: 'bulk-imports/list-migrations', call: (api) => api.Migrations.all() },
  { operationId: 'bulk-imports/list-all-entities', call: (api) => api.Migrations.allEntities() },
  { operationId: 'bulk-imports/get-migration', call: (api, ids) => api.Migrations.show(ids.migration) },
  {
    operationId: 'bulk-imports/list-migration-entities',
    call: (api, ids) => api.Migrations.allEntities({ bulkImportId: ids.migration }),
  },
  {
    operationId: 'bulk-imports/get-migration-entity',
    call: (api, ids) => api.Migrations.showEntity(ids.migration, ids.entity),
  },
  { operationId: 'repository/get-file', call: (api, ids) => api.RepositoryFiles.show(ids.project, ids.file, 'main') },
  {
    operationId: 'repository/create-file',
    call: (api, ids) => api.RepositoryFiles.create(ids.project, 'app/new.rb', 'main', 'puts 1', 'Add file'),
  },
  {
    operationId: 'repository/update-file',
    call: (api, ids) => api.RepositoryFiles.edit(ids.project, 'app/new.rb', 'main', 'puts 2', 'Update file'),
  },
  {
    operationId: 'repository/delete-file',
    call: (api, ids) => api.RepositoryFiles.remove(ids.project, 'app/new.rb', 'main', 'Remove file'),
  },
  {
    operationId: 'repository/get-file-blame',
    call: (api, ids) => api.RepositoryFiles.allFileBlames(ids.project, ids.file, 'main'),
  },
  {
    operationId: 'repository/get-raw-file',
    call: (api, ids) => api.RepositoryFiles.showRaw(ids.project, ids.file, 'main'),
  },
  {
    operationId: 'repository/list-tree',
    call: (api, ids) => api.Repositories.allRepositoryTrees(ids.project, { recursive: true }),
  },
  { operationId: 'repository/get-blob', call: (api, ids) => api.Repositories.showBlob(ids.project, ids.blob) },
  { operationId: 'repository/get-raw-blob', call: (api, ids) => api.Repositories.showBlobRaw(ids.project, ids.blob) },
  {
    operationId: 'repository/download-archive-in-format',
    call: (api, ids) => api.Repositories.showArchive(ids.project, { fileType: 'zip' }),
  },
  { operationId: 'repository/compare', call: (api, ids) => api.Repositories.compare(ids.project, 'main', ids.branch) },
  { operationId: 'repository/list-contributors', call: (api, ids) => api.Repositories.allContributors(ids.project) },
  {
    operationId: 'repository/get-merge-base',
    call: (api, ids) => api.Repositories.mergeBase(ids.project, ['main', ids.branch]),
  },
  {
    operationId: 'repository/create-changelog',
    call: (api, ids) => api.Repositories.editChangelog(ids.project, '1.1.0'),
  },
  { operationId: 'repository/get-changelog', call: (api, ids) => api.Repositories.showChangelog(ids.project, '1.1.0') },
  { operationId: 'users/list-users', call: (api) => api.Users.all({ active: true }) },
  {
    operationId: 'users/create-user',
    call: (api) =>
      api.Users.create({ email: 'jdoe@example.com', name: 'J Doe', username: 'jdoe', password: 'secret-password' }),
  },
  { operationId: 'users/get-user', call: (api, ids) => api.Users.show(ids.user) },
  {
    operationId: 'users/get-impersonation-token',
    call: (api, ids) => api.UserImpersonationTokens.show(ids.user, ids.impersonationToken),
  },
  {
    operationId: 'users/revoke-impersonation-token',
    call: (api, ids) => api.UserImpersonationTokens.revoke(ids.user, ids.impersonationToken),
  },
  {
    operationId: 'users/create-impersonation-token',
    call: (api, ids) => api.UserImpersonationTokens.create(ids.user, 'token', ['api'], { expiresAt: '2026-12-31' }),
  },
  {
    operationId: 'users/create-user-personal-access-token',
    call: (api, ids) => api.Users.createPersonalAccessToken(ids.user, 'token', ['api']),
  },
  { operationId: 'users/list-activities', call: (api) => api.Users.allActivities() },
  { operationId: 'users/list-memberships', call: (api, ids) => api.Users.allMemberships(ids.user) },
  { operationId: 'users/disable-two-factor', call: (api, ids) => api.Users.disableTwoFactor(ids.twoFactorUser) },
  {
    operationId: 'runners/create-user-runner',
    call: (api, ids) => api.Users.createCIRunner('group_type', { groupId: ids.group }),
  },
  { operationId: 'groups/list-groups', call: (api) => api.Groups.all({ allAvailable: true }) },
  { operationId: 'groups/list-subgroups', call: (api, ids) => api.Groups.allSubgroups(ids.group) },
  { operationId: 'groups/list-descendant-groups', call: (api, ids) => api.Groups.allDescendantGroups(ids.group, {}) },
  { operationId: 'groups/list-projects', call: (api, ids) => api.Groups.allProjects(ids.group) },
  {
    operationId: 'groups/update-hook',
    call: (api, ids) => api.GroupHooks.edit(ids.group, ids.hook, 'https://hooks.example/h'),
  },
  { operationId: 'groups/delete-hook', call: (api, ids) => api.GroupHooks.remove(ids.group, ids.hook) },
  { operationId: 'groups/sync-ldap', call: (api, ids) => api.GroupLDAPLinks.sync(ids.group) },
  {
    operationId: 'groups/create-ldap-group-link',
    call: (api, ids) => api.GroupLDAPLinks.add(ids.group, 40, 'ldapmain', { cn: 'maintainers' }),
  },
  {
    operationId: 'groups/delete-ldap-group-link',
    call: (api, ids) => api.GroupLDAPLinks.remove(ids.group, 'ldapmain', { cn: 'developers' }),
  },
  { operationId: 'groups/list-saml-group-links', call: (api, ids) => api.GroupSAMLLinks.all(ids.group, {}) },
  {
    operationId: 'groups/create-saml-group-link',
    call: (api, ids) => api.GroupSAMLLinks.create(ids.group, 'saml-developers', 30),
  },
  {
    operationId: 'groups/get-saml-group-link',
    call: (api, ids) => api.GroupSAMLLinks.show(ids.group, 'saml-developers', {}),
  },
  {
    operationId: 'groups/delete-saml-group-link',
    call: (api, ids) => api.GroupSAMLLinks.remove(ids.group, 'saml-developers'),
  },
  { operationId: 'groups/share', call: (api, ids) => api.Groups.share(ids.sharingGroup, ids.sharedGroup, 30, {}) },
  { operationId: 'groups/unshare', call: (api, ids) => api.Groups.unshare(ids.sharingGroup, ids.sharedGroup, {}) },
  {
    operationId: 'groups/create-push-rule',
    call: (api, ids) => api.GroupPushRules.create(ids.group, { memberCheck: true }),
  },
  { operationId: 'groups/get-push-rule', call: (api, ids) => api.GroupPushRules.show(ids.group) },
  {
    operationId: 'groups/update-push-rule',
    call: (api, ids) => api.GroupPushRules.edit(ids.group, { memberCheck: false }),
  },
  { operationId: 'badges/list-group-badges', call: (api, ids) => api.GroupBadges.all(ids.group) },
  {
    operationId: 'badges/create-group-badge',
    call: (api, ids) =>
      api.GroupBadges.add(ids.group, 'https://service.example/%{project_path}', 'https://service.example/badge.svg'),
  },
  { operationId: 'badges/get-group-badge', call: (api, ids) => api.GroupBadges.show(ids.group, ids.badge) },
  {
    operationId: 'badges/update-group-badge',
    call: (api, ids) => api.GroupBadges.edit(ids.group, ids.badge, { name: 'coverage' }),
  },
  { operationId: 'badges/delete-group-badge', call: (api, ids) => api.GroupBadges.remove(ids.group, ids.badge) },
  {
    operationId: 'badges/render-group-badge',
    call: (api, ids) =>
      api.GroupBadges.preview(
        ids.group,
        'https://service.example/%{project_path}',
        'https://service.example/badge.svg',
      ),
  },
  { operationId: 'members/list-group-members', call: (api, ids) => api.GroupMembers.all(ids.group) },
  { operationId: 'members/list-project-members', call: (api, ids) => api.ProjectMembers.all(ids.project) },
  {
    operationId: 'members/list-all-group-members',
    call: (api, ids) => api.GroupMembers.all(ids.group, { includeInherited: true }),
  },
  {
    operationId: 'members/list-all-project-members',
    call: (api, ids) => api.ProjectMembers.all(ids.project, { includeInherited: true }),
  },
  { operationId: 'members/get-group-member', call: (api, ids) => api.GroupMembers.show(ids.group, ids.groupMember) },
  {
    operationId: 'members/get-project-member',
    call: (api, ids) => api.ProjectMembers.show(ids.project, ids.projectMember),
  },
  {
    operationId: 'members/get-inherited-group-member',
    call: (api, ids) => api.GroupMembers.show(ids.group, ids.groupMember, { includeInherited: true }),
  },
  {
    operationId: 'members/get-inherited-project-member',
    call: (api, ids) => api.ProjectMembers.show(ids.project, ids.groupMember, { includeInherited: true }),
  },
  { operationId: 'members/list-billable-members', call: (api, ids) => api.GroupMembers.allBillable(ids.group) },
  {
    operationId: 'members/list-billable-member-memberships',
    call: (api, ids) => api.GroupMembers.allBillableMemberships(ids.group, ids.groupMember),
  },
  {
    operationId: 'invitations/create-group-invitation',
    call: (api, ids) => api.GroupInvitations.add(ids.group, 30, { email: 'new@example.com' }),
  },
  { operationId: 'invitations/list-group-invitations', call: (api, ids) => api.GroupInvitations.all(ids.group) },
  {
    operationId: 'invitations/create-project-invitation',
    call: (api, ids) => api.ProjectInvitations.add(ids.project, 30, { email: 'new@example.com' }),
  },
  { operationId: 'invitations/list-project-invitations', call: (api, ids) => api.ProjectInvitations.all(ids.project) },
  {
    operationId: 'invitations/update-group-invitation',
    call: (api, ids) => api.GroupInvitations.edit(ids.group, 'new@example.com', { accessLevel: 40 }),
  },
  {
    operationId: 'invitations/delete-group-invitation',
    call: (api, ids) => api.GroupInvitations.remove(ids.group, 'new@example.com'),
  },
  {
    operationId: 'invitations/update-project-invitation',
    call: (api, ids) => api.ProjectInvitations.edit(ids.project, 'new@example.com', { accessLevel: 40 }),
  },
  {
    operationId: 'invitations/delete-project-invitation',
    call: (api, ids) => api.ProjectInvitations.remove(ids.project, 'new@example.com'),
  },
  { operationId: 'runners/list-runners', call: (api) => api.Runners.all({ owned: true }) },
  { operationId: 'runners/list-all-runners', call: (api) => api.Runners.all() },
  { operationId: 'runners/get-runner', call: (api, ids) => api.Runners.show(ids.runner) },
  { operationId: 'runners/update-runner', call: (api, ids) => api.Runners.edit(ids.runner, { description: 'runner' }) },
  { operationId: 'runners/list-runner-jobs', call: (api, ids) => api.Runners.allJobs(ids.runner) },
  { operationId: 'runners/list-project-runners', call: (api, ids) => api.Runners.all({ projectId: ids.project }) },
  { operationId: 'runners/list-group-runners', call: (api, ids) => api.Runners.all({ groupId: ids.group }) },
  { operationId: 'integrations/list-integrations', call: (api, ids) => api.Integrations.all(ids.project) },
  {
    operationId: 'integrations/set-up-integration',
    call: (api, ids) =>
      api.Integrations.edit(
        ids.project,
        ids.integration as never,
        { webhook: 'https://hooks.example/s', username: 'bot' } as never,
      ),
  },
  {
    operationId: 'integrations/get-integration',
    call: (api, ids) => api.Integrations.show(ids.project, ids.integration as never),
  },
  {
    operationId: 'integrations/disable-integration',
    call: (api, ids) => api.Integrations.disable(ids.project, ids.integration as never),
  },
  { operationId: 'projects/list-projects', call: (api) => api.Projects.all({ membership: true }) },
  { operationId: 'projects/list-user-projects', call: (api, ids) => api.Users.allProjects(ids.user) },
  { operationId: 'merge-requests/list-merge-requests', call: (api) => api.MergeRequests.all({ state: 'opened' }) },
  {
    operationId: 'merge-requests/list-project-merge-requests',
    call: (api, ids) => api.MergeRequests.all({ projectId: ids.project, state: 'opened' }),
    tolerated: 'sends state, which the project list does not document',
  },
  {
    operationId: 'merge-requests/create-merge-request',
    call: (api, ids) =>
      api.MergeRequests.create(ids.project, 'feature/login', 'feature/reset', 'Add login page', {
        removeSourceBranch: true,
      }),
  },
  {
    operationId: 'merge-requests/update-merge-request',
    call: (api, ids) => api.MergeRequests.edit(ids.project, ids.mergeRequest, { title: 'New title' }),
  },
  {
    operationId: 'merge-requests/delete-merge-request',
    call: (api, ids) => api.MergeRequests.remove(ids.project, ids.deletedMergeRequest),
  },
  {
    operationId: 'merge-requests/merge',
    call: (api, ids) => api.MergeRequests.merge(ids.project, ids.mergeRequest, { squash: true }),
  },
  {
    operationId: 'approvals/get-project-approval-settings',
    call: (api, ids) => api.MergeRequestApprovals.showConfiguration(ids.project),
  },
  {
    operationId: 'approvals/update-project-approval-settings',
    call: (api, ids) => api.MergeRequestApprovals.editConfiguration(ids.project, { resetApprovalsOnPush: true }),
  },
  {
    operationId: 'approvals/list-project-approval-rules',
    call: (api, ids) => api.MergeRequestApprovals.allApprovalRules(ids.project),
  },
  {
    operationId: 'approvals/create-project-approval-rule',
    call: (api, ids) => api.MergeRequestApprovals.createApprovalRule(ids.project, 'security', 1),
  },
  {
    operationId: 'approvals/get-project-approval-rule',
    call: (api, ids) => api.MergeRequestApprovals.showApprovalRule(ids.project, ids.approvalRule),
  },
  { operationId: 'application/get-settings', call: (api) => api.ApplicationSettings.show() },
  {
    operationId: 'application/update-settings',
    call: (api) =>
      api.ApplicationSettings.edit({
        signupEnabled: false,
        cubeApiBaseUrl: 'https://cube.example',
        cubeApiKey: 'secret',
      } as never),
  },
  { operationId: 'application/get-plan-limits', call: (api) => api.ApplicationPlanLimits.show() },
  {
    operationId: 'application/update-plan-limits',
    call: (api) => api.ApplicationPlanLimits.edit('default', { ciPipelineSize: 100 } as never),
    tolerated: 'sends plan_name and the limits in the query string',
  },
  {
    operationId: 'product-analytics/load-query',
    call: (api, ids) =>
      api.ProductAnalytics.load(ids.numericProject, {
        queryType: 'query',
        query: { measures: ['TrackedEvents.count'] },
      } as never),
    tolerated: 'snake-cases queryType into query_type, an unknown field',
  },
  {
    operationId: 'product-analytics/dry-run-query',
    call: (api, ids) =>
      api.ProductAnalytics.dryRun(ids.numericProject, {
        queryType: 'query',
        query: { measures: ['TrackedEvents.count'] },
      } as never),
    tolerated: 'snake-cases queryType into query_type, an unknown field',
  },
  {
    operationId: 'product-analytics/get-meta',
    call: (api, ids) => api.ProductAnalytics.showMetadata(ids.numericProject),
  },
  {
    operationId: 'error-tracking/create-client-key',
    call: (api, ids) => api.ErrorTrackingClientKeys.create(ids.project),
  },
  { operationId: 'error-tracking/list-client-keys', call: (api, ids) => api.ErrorTrackingClientKeys.all(ids.project) },
];
