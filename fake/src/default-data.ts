/**
 * The data set the fake starts with when none is given: an administrator (tokens with and without `sudo`), one user
 * per access level, an outsider, a job token bound to a running job, an OAuth token, a session and an impersonation
 * token; a group with a subgroup; public, internal and private projects with files; pipelines and jobs in every
 * status; merge requests in every state.
 */
import type { FakeData, FakeJob } from './data.ts';

const planLimits = {
  ci_pipeline_size: 0, ci_active_jobs: 0, ci_project_subscriptions: 2, ci_pipeline_schedules: 10, ci_needs_size_limit: 50,
  ci_registered_group_runners: 1000, ci_registered_project_runners: 1000, conan_max_file_size: 3221225472,
  enforcement_limit: 0, generic_packages_max_file_size: 5368709120, helm_max_file_size: 5242880, notification_limit: 0,
  maven_max_file_size: 3221225472, npm_max_file_size: 524288000, nuget_max_file_size: 524288000, pypi_max_file_size: 3221225472,
  terraform_module_max_file_size: 1073741824, storage_size_limit: 0,
};

const jobStatuses: FakeJob['status'][] = ['success', 'failed', 'running', 'pending', 'canceled', 'manual', 'skipped', 'created', 'waiting_for_resource'];

export function defaultData(): FakeData {
  return {
    now: '2025-03-11T10:00:00.000Z',
    users: [
      { id: 1, username: 'root', name: 'Administrator', email: 'root@example.com', is_admin: true },
      { id: 2, username: 'olivia', name: 'Olivia Owner', email: 'olivia@example.com' },
      { id: 3, username: 'mia', name: 'Mia Maintainer', email: 'mia@example.com' },
      { id: 4, username: 'dev', name: 'Dev Developer', email: 'dev@example.com' },
      { id: 5, username: 'rita', name: 'Rita Reporter', email: 'rita@example.com' },
      { id: 6, username: 'gus', name: 'Gus Guest', email: 'gus@example.com' },
      { id: 7, username: 'nobody', name: 'No Member', email: 'nobody@example.com' },
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
      { token: 'impersonation-token', kind: 'impersonation', user_id: 4, scopes: ['api'] },
      { token: 'session-cookie', kind: 'session', user_id: 4 },
      { token: 'job-token', kind: 'job', user_id: 4, job_id: 103 },
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
    ],
    jobs: jobStatuses.map((status, index) => ({
      id: 101 + index,
      project_id: 1,
      pipeline_id: index < 2 ? 11 : 12,
      name: `${status}-job`,
      stage: index % 2 === 0 ? 'test' : 'build',
      status,
      user_id: 4,
      ...(status === 'failed' ? { failure_reason: 'script_failure' } : {}),
    })),
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
