/**
 * The data set the fake starts with when none is given: an administrator (tokens with and without `sudo`), one user
 * per access level, an outsider, a job token bound to a running job, an OAuth token, a session and an impersonation
 * token; a group with a subgroup; public, internal and private projects with files; pipelines and jobs in every
 * status; merge requests in every state; runners of every type and several statuses (some jobs bound to them), trigger
 * jobs and Kubernetes agents; a token with `create_runner`, a revoked and an expired token.
 */
import type { FakeData, FakeJob } from './data.ts';

const planLimits = {
  ci_pipeline_size: 0, ci_active_jobs: 0, ci_project_subscriptions: 2, ci_pipeline_schedules: 10, ci_needs_size_limit: 50,
  ci_registered_group_runners: 1000, ci_registered_project_runners: 1000, conan_max_file_size: 3221225472,
  enforcement_limit: 0, generic_packages_max_file_size: 5368709120, helm_max_file_size: 5242880, notification_limit: 0,
  maven_max_file_size: 3221225472, npm_max_file_size: 524288000, nuget_max_file_size: 524288000, pypi_max_file_size: 3221225472,
  terraform_module_max_file_size: 1073741824, storage_size_limit: 0,
};

/** Jobs picked by runners (and the runner manager that ran them). */
const jobRunners: Record<number, { runner_id: number; runner_system_id: string }> = {
  101: { runner_id: 1, runner_system_id: 's_0a1b2c3d4e5f' },
  102: { runner_id: 1, runner_system_id: 's_1b2c3d4e5f60' },
  103: { runner_id: 5, runner_system_id: 's_4e5f60718293' },
  105: { runner_id: 3, runner_system_id: 's_3d4e5f607182' },
  110: { runner_id: 1, runner_system_id: 's_0a1b2c3d4e5f' },
};

const jobStatuses: FakeJob['status'][] = ['success', 'failed', 'running', 'pending', 'canceled', 'manual', 'skipped', 'created', 'waiting_for_resource'];

export function defaultData(): FakeData {
  return {
    now: '2025-03-11T10:00:00.000Z',
    users: [
      { id: 1, username: 'root', name: 'Administrator', email: 'root@example.com', is_admin: true, two_factor_enabled: true, last_activity_on: '2025-03-10' },
      { id: 2, username: 'olivia', name: 'Olivia Owner', email: 'olivia@example.com', two_factor_enabled: true, last_activity_on: '2025-03-03' },
      { id: 3, username: 'mia', name: 'Mia Maintainer', email: 'mia@example.com', two_factor_enabled: true, last_activity_on: '2024-12-20' },
      { id: 4, username: 'dev', name: 'Dev Developer', email: 'dev@example.com', last_activity_on: '2025-03-07' },
      { id: 5, username: 'rita', name: 'Rita Reporter', email: 'rita@example.com', last_activity_on: '2024-06-01' },
      { id: 6, username: 'gus', name: 'Gus Guest', email: 'gus@example.com', private_profile: true, last_activity_on: '2025-02-14' },
      { id: 7, username: 'nobody', name: 'No Member', email: 'nobody@example.com', last_activity_on: null },
    ],
    tokens: [
      { token: 'admin-sudo-token', kind: 'personal', user_id: 1, scopes: ['api', 'sudo'] },
      { token: 'admin-token', kind: 'personal', user_id: 1, scopes: ['api'] },
      { token: 'owner-token', kind: 'personal', user_id: 2, scopes: ['api'] },
      { token: 'maintainer-token', kind: 'personal', user_id: 3, scopes: ['api'] },
      { token: 'developer-token', kind: 'personal', user_id: 4, scopes: ['api', 'sudo'] },
      { token: 'reporter-token', kind: 'personal', user_id: 5, scopes: ['read_api'] },
      { token: 'guest-token', kind: 'personal', user_id: 6, scopes: ['api'] },
      { token: 'outsider-token', kind: 'personal', user_id: 7, scopes: ['api'] },
      { token: 'oauth-token', kind: 'oauth', user_id: 4, scopes: ['api'] },
      { token: 'impersonation-token', kind: 'impersonation', user_id: 4, scopes: ['api'], id: 1, name: 'Support session', created_at: '2025-03-01T08:00:00.000Z', expires_at: '2025-12-31' },
      { token: 'session-cookie', kind: 'session', user_id: 4 },
      { token: 'job-token', kind: 'job', user_id: 4, job_id: 103 },
      { token: 'runner-creator-token', kind: 'personal', user_id: 2, scopes: ['create_runner'], id: 2, name: 'Runner setup', created_at: '2025-03-01T08:00:00.000Z', expires_at: '2025-12-31' },
      { token: 'revoked-token', kind: 'personal', user_id: 4, scopes: ['api'], id: 3, name: 'Old laptop', created_at: '2025-01-01T08:00:00.000Z', expires_at: '2025-12-31', revoked: true },
      { token: 'expired-token', kind: 'personal', user_id: 4, scopes: ['api'], id: 4, name: 'Last year', created_at: '2024-01-01T08:00:00.000Z', expires_at: '2024-12-31' },
    ],
    groups: [
      { id: 1, name: 'My Group', path: 'my-group', parent_id: null, visibility: 'public', members: [{ user_id: 2, access_level: 50 }] },
      { id: 2, name: 'Sub', path: 'sub', parent_id: 1, visibility: 'public', members: [] },
    ],
    projects: [
      {
        id: 1, name: 'My Project', path: 'my-project', namespace_id: 1, visibility: 'public', default_branch: 'main', description: 'A public project', previous_paths: ['my-group/old-project'],
        members: [{ user_id: 3, access_level: 40 }, { user_id: 4, access_level: 30 }, { user_id: 5, access_level: 20 }, { user_id: 6, access_level: 10 }],
        files: {
          'README.md': '# My Project\n\nA public project.\n',
          'src/index.js': 'export const answer = 42;\n',
          'scripts/run.sh': { content: Buffer.from('#!/bin/sh\necho run\n').toString('base64'), execute_filemode: true },
        },
      },
      {
        id: 2, name: 'Secret', path: 'secret', namespace_id: 1, visibility: 'private', default_branch: 'main', description: null,
        members: [{ user_id: 4, access_level: 30 }],
        files: { 'README.md': '# Secret\n' },
      },
      {
        id: 3, name: 'Tools', path: 'tools', namespace_id: 2, visibility: 'internal', default_branch: 'main',
        members: [{ user_id: 3, access_level: 40 }],
        files: { 'tool.txt': 'a tool\n' },
      },
    ],
    pipelines: [
      { id: 11, project_id: 1, ref: 'main', sha: '', status: 'failed' },
      { id: 12, project_id: 1, ref: 'main', sha: '', status: 'running' },
      { id: 13, project_id: 3, ref: 'main', sha: '', status: 'success' },
      { id: 14, project_id: 2, ref: 'main', sha: '', status: 'success' },
      { id: 15, project_id: 3, ref: 'main', sha: '', status: 'created' },
    ],
    jobs: [...jobStatuses.map((status, index) => ({
      id: 101 + index,
      project_id: 1,
      pipeline_id: index < 2 ? 11 : 12,
      name: `${status}-job`,
      stage: index % 2 === 0 ? 'test' : 'build',
      status,
      user_id: 4,
      ...(status === 'failed' ? { failure_reason: 'script_failure' } : {}),
      ...jobRunners[101 + index],
    })), { id: 110, project_id: 2, pipeline_id: 14, name: 'secret-job', stage: 'test', status: 'success' as const, user_id: 4, ...jobRunners[110] }],
    merge_requests: [
      { id: 1001, iid: 1, project_id: 1, title: 'Add login page', description: 'Login form', state: 'opened', author_id: 4, source_branch: 'feature/login', target_branch: 'main', labels: ['frontend'], assignee_ids: [4], reviewer_ids: [3] },
      { id: 1002, iid: 2, project_id: 1, title: 'Try another layout', state: 'closed', author_id: 4, source_branch: 'feature/layout', target_branch: 'main', closed_by_id: 3, closed_at: '2025-03-10T09:00:00.000Z' },
      { id: 1003, iid: 3, project_id: 1, title: 'Fix typo', state: 'merged', author_id: 5, source_branch: 'fix/typo', target_branch: 'main', labels: ['docs'], merge_user_id: 3, merged_at: '2025-03-09T12:00:00.000Z', merge_commit_sha: 'f'.repeat(40) },
      { id: 1004, iid: 4, project_id: 1, title: 'Bump dependencies', state: 'locked', author_id: 3, source_branch: 'deps', target_branch: 'main' },
      { id: 1005, iid: 5, project_id: 1, title: 'Draft: Reset password flow', state: 'opened', author_id: 4, source_branch: 'feature/reset', target_branch: 'main', draft: true },
      { id: 1006, iid: 6, project_id: 1, title: 'Rewrite the parser', state: 'opened', author_id: 3, source_branch: 'feature/parser', target_branch: 'main', has_conflicts: true, labels: ['backend'] },
      { id: 1007, iid: 1, project_id: 2, title: 'Secret change', state: 'opened', author_id: 4, source_branch: 'feature/secret', target_branch: 'main' },
    ],
    plan_limits: { default: { ...planLimits } },
    // Badges and dependencies (fake-badges)
    group_badges: [
      { id: 1, group_id: 1, name: 'Pipeline', link_url: 'https://service.example/%{project_path}/-/commits/%{default_branch}', image_url: 'https://service.example/%{project_path}/badges/%{default_branch}/pipeline.svg' },
      { id: 2, group_id: 1, name: 'Coverage', link_url: 'https://service.example/%{project_path}/-/jobs', image_url: 'https://service.example/%{project_path}/badges/%{default_branch}/coverage.svg' },
    ],
    dependencies: [
      { project_id: 1, name: 'express', version: '4.18.2', package_manager: 'npm', dependency_file_path: 'package-lock.json', licenses: [{ name: 'MIT', url: 'https://spdx.org/licenses/MIT.html' }], vulnerabilities: [{ id: 1, name: 'CVE-2024-29041', severity: 'medium', url: 'https://service.example/my-group/my-project/-/security/vulnerabilities/1' }] },
      { project_id: 1, name: 'lodash', version: '4.17.21', package_manager: 'yarn', dependency_file_path: 'yarn.lock', licenses: [{ name: 'MIT', url: 'https://spdx.org/licenses/MIT.html' }], vulnerabilities: [] },
      { project_id: 1, name: 'rails', version: '7.1.3', package_manager: 'bundler', dependency_file_path: 'Gemfile.lock', licenses: [{ name: 'MIT', url: null }], vulnerabilities: [] },
      { project_id: 2, name: 'requests', version: '2.31.0', package_manager: 'pip', dependency_file_path: 'requirements.txt', licenses: [{ name: 'Apache-2.0', url: null }], vulnerabilities: [] },
    ],
    runners: [
      { id: 1, runner_type: 'instance_type', description: 'Shared Linux runner', name: 'shared-linux', status: 'online', tag_list: ['docker', 'linux'], run_untagged: true, access_level: 'not_protected', maximum_timeout: 3600, contacted_at: '2025-03-11T09:59:00.000Z', managers: [{ system_id: 's_0a1b2c3d4e5f', version: '17.9.1' }, { system_id: 's_1b2c3d4e5f60', version: '17.8.3' }] },
      { id: 2, runner_type: 'instance_type', description: 'Shared Windows runner', name: 'shared-windows', status: 'offline', paused: true, tag_list: ['windows'], access_level: 'not_protected', contacted_at: '2025-02-01T12:00:00.000Z', maintenance_note: 'Paused while the image is rebuilt', managers: [{ system_id: 's_2c3d4e5f6071', version: '17.6.0' }] },
      { id: 3, runner_type: 'group_type', group_id: 1, description: 'My Group runner', name: 'group-docker', status: 'online', tag_list: ['docker'], access_level: 'ref_protected', contacted_at: '2025-03-11T09:58:00.000Z', creator_id: 2, managers: [{ system_id: 's_3d4e5f607182', version: '17.9.0' }] },
      { id: 4, runner_type: 'group_type', group_id: 2, description: 'Sub runner', name: null, status: 'stale', tag_list: [], access_level: 'not_protected', contacted_at: '2024-11-02T08:00:00.000Z', creator_id: 2, managers: [] },
      { id: 5, runner_type: 'project_type', project_ids: [1], description: 'My Project runner', name: 'project-ruby', status: 'online', tag_list: ['linux', 'ruby'], access_level: 'not_protected', maximum_timeout: 1800, contacted_at: '2025-03-11T09:57:00.000Z', creator_id: 3, managers: [{ system_id: 's_4e5f60718293', version: '17.9.1' }] },
      { id: 6, runner_type: 'project_type', project_ids: [2], description: 'Secret runner', name: null, status: 'never_contacted', tag_list: ['secret'], access_level: 'ref_protected', contacted_at: null, creator_id: 1, managers: [] },
      { id: 7, runner_type: 'project_type', project_ids: [3, 1], description: 'Tools runner', name: 'tools', status: 'offline', paused: true, tag_list: ['linux'], access_level: 'not_protected', contacted_at: '2025-03-01T10:00:00.000Z', creator_id: 3, managers: [{ system_id: 's_5f6071829304', version: '16.11.2' }] },
    ],
    bridges: [
      { id: 201, project_id: 1, pipeline_id: 12, name: 'deploy-tools', stage: 'deploy', status: 'success', user_id: 4, downstream_pipeline_id: 13 },
      { id: 202, project_id: 1, pipeline_id: 12, name: 'trigger-docs', stage: 'deploy', status: 'manual', user_id: 4, downstream_pipeline_id: 15 },
    ],
    cluster_agents: [
      { id: 1, name: 'production', config_project_id: 3, authorized_project_ids: [1] },
      { id: 2, name: 'review-apps', config_project_id: 1 },
      { id: 3, name: 'secret-cluster', config_project_id: 2 },
    ],
    // Imports, direct transfer and integrations: one migration of Dev's (a group imported, a project failed),
    // the custom issue tracker active on My Project, and one slug per documented kind of integration.
    bulk_imports: [{ id: 1, user_id: 4, status: 'finished', source_type: 'service', source_url: 'https://source.example', created_at: '2025-03-10T08:00:00.000Z', updated_at: '2025-03-10T08:05:00.000Z' }],
    bulk_import_entities: [
      { id: 1, bulk_import_id: 1, source_type: 'group_entity', source_full_path: 'source-group/sub', destination_slug: 'sub', destination_namespace: 'my-group', migrate_projects: false, status: 'finished', parent_id: null, namespace_id: 2, project_id: null, created_at: '2025-03-10T08:00:00.000Z', updated_at: '2025-03-10T08:04:00.000Z', failures: [], stats: { labels: { source: 3, fetched: 3, imported: 3 }, milestones: { source: 1, fetched: 1, imported: 1 } } },
      {
        id: 2, bulk_import_id: 1, source_type: 'project_entity', source_full_path: 'source-group/legacy-app', destination_slug: 'legacy-app', destination_namespace: 'my-group/sub', migrate_projects: false, status: 'failed', parent_id: null, namespace_id: 2, project_id: null, created_at: '2025-03-10T08:00:00.000Z', updated_at: '2025-03-10T08:05:00.000Z',
        failures: [{ relation: 'issues', step: 'extractor', exception_message: 'Error!', exception_class: 'StandardError', correlation_id_value: '06289e4b064329a69de7bb2d7a1b5a97', created_at: '2025-03-10T08:05:00.000Z', pipeline_class: 'IssuesPipeline', pipeline_step: 'extractor', source_url: 'https://source.example/source-group/legacy-app/-/issues/7', source_title: 'Broken import of the issue tracker' }],
        stats: { issues: { source: 12, fetched: 4, imported: 0 } },
      },
    ],
    integrations: [{ id: 1, project_id: 1, slug: 'custom-issue-tracker', title: 'Custom issue tracker', active: true, properties: { new_issue_url: 'https://issues.example.com/issues/new', issues_url: 'https://issues.example.com/issues/:id', project_url: 'https://issues.example.com/projects/my-project', push_events: true, issues_events: true }, created_at: '2025-03-10T09:30:00.000Z', updated_at: '2025-03-10T09:30:00.000Z' }],
    integration_kinds: {
      'mobile-store-connector': { title: 'Mobile store connector', kind: 'mobile_store_connector' },
      'task-tracker': { title: 'Task tracker', kind: 'task_tracker' },
      'token-subdomain': { title: 'Token and subdomain', kind: 'token_subdomain' },
      'build-server': { title: 'Build server', kind: 'build_server' },
      'issue-tracker': { title: 'Issue tracker', kind: 'issue_tracker' },
      'short-issue-tracker': { title: 'Short issue tracker', kind: 'short_issue_tracker' },
      'pipeline-notifier': { title: 'Pipeline notifier', kind: 'pipeline_notifier' },
      'wiki-workspace': { title: 'Wiki workspace', kind: 'wiki_workspace' },
      monitoring: { title: 'Monitoring', kind: 'monitoring' },
      'test-generation': { title: 'Test generation', kind: 'test_generation' },
      'chat-notifications': { title: 'Chat notifications', kind: 'chat_notifications' },
    },
    // Groups: a hook, an LDAP and a SAML link on my-group; no share, no push rule (fake-groups).
    group_hooks: [{ id: 1, group_id: 1, url: 'https://hooks.example.com/my-group', name: 'CI notifier', push_events: true, merge_requests_events: true, enable_ssl_verification: true, token: 'hook-secret', created_at: '2025-03-01T09:00:00.000Z' }],
    ldap_group_links: [{ group_id: 1, cn: 'developers', group_access: 30, provider: 'ldapmain' }],
    saml_group_links: [{ group_id: 1, name: 'Engineering', access_level: 30 }],
    // README.md of My Project changed by three authors after the initial commit (blame, compare, contributors),
    // with `Changelog` trailers and the tags v1.0.0 and v1.1.0-rc.1 (changelog).
    repository_history: [{
      project_id: 1,
      commits: [
        { author_id: 3, message: 'Document usage\n\nChangelog: added', files: { 'README.md': '# My Project\n\nA public project.\n\n## Usage\n\nRun scripts/run.sh.\n' }, tag: 'v1.0.0' },
        { author_id: 4, message: 'Fix the usage command\n\nChangelog: fixed', files: { 'README.md': '# My Project\n\nA public project.\n\n## Usage\n\nRun `sh scripts/run.sh`.\n' }, tag: 'v1.1.0-rc.1' },
        { author_id: 2, message: 'State the license', files: { 'README.md': '# My Project\n\nA public project.\n\n## Usage\n\nRun `sh scripts/run.sh`.\n\n## License\n\nMIT\n' } },
      ],
    }],
  };
}
