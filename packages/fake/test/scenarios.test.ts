/**
 * The stateful fake (issue 12) driven through the generated client as a team would chain calls. The fake runs with
 * `validateResponses: true`, so any answer outside the contract would be a 500 and fail these tests.
 */
import { describe, expect, it } from 'vitest';
import { createServiceApi } from '@service-api/client';
import { defaultData, startFake, type FakeData } from '../src/index.ts';
import { failure, useFake } from '../../../test/support/fake.ts';

const { fake, as } = useFake();
const PROJECT = 'my-group/my-project';

describe('merge requests', () => {
  it('create → list → merge with a wrong sha (409) → merge → reopen refused', async () => {
    const dev = as('developer-token');
    // One open merge request per source and target branch: !1 (feature/login → main) is closed first.
    await dev.mergeRequests.updateMergeRequest({
      path: { id: PROJECT, merge_request_iid: 1 },
      body: { state_event: 'close' },
    });
    const created = await dev.mergeRequests.createMergeRequest({
      path: { id: PROJECT },
      body: { source_branch: 'feature/login', target_branch: 'main', title: 'Add login page', labels: 'frontend,ui' },
    });
    expect(created).toMatchObject({
      title: 'Add login page',
      state: 'opened',
      iid: 7,
      project_id: 1,
      labels: ['frontend', 'ui'],
      merge_user: null,
      merged_at: null,
      merge_commit_sha: null,
    });
    expect(created.author?.username).toBe('dev');
    expect(created.sha).toMatch(/^[0-9a-f]{40}$/);

    const listed = await dev.mergeRequests.listProjectMergeRequests({ path: { id: PROJECT }, query: { labels: 'ui' } });
    expect(listed.map((m) => m.iid)).toEqual([7]);

    const conflict = await failure(
      dev.mergeRequests.merge({ path: { id: PROJECT, merge_request_iid: 7 }, body: { sha: '0'.repeat(40) } }),
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ message: 'SHA does not match HEAD of source branch' });
    expect(fake.state().merge_requests.find((m) => m.iid === 7 && m.project_id === 1)?.state).toBe('opened');

    const merged = await as('maintainer-token').mergeRequests.merge({
      path: { id: PROJECT, merge_request_iid: 7 },
      body: { sha: created.sha! },
    });
    expect(merged).toMatchObject({ state: 'merged', merge_user: { username: 'mia' } });
    expect(merged.merged_at).toEqual(expect.any(String));
    expect(merged.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    // The merge commit is the new head of main and carries the source branch's file.
    const file = await dev.repository.getFile({
      path: { id: PROJECT, file_path: 'changes/feature-login.md' },
      query: { ref: 'main' },
    });
    expect(file.commit_id).toBe(merged.merge_commit_sha);

    const reopen = await failure(
      dev.mergeRequests.updateMergeRequest({
        path: { id: PROJECT, merge_request_iid: 7 },
        body: { state_event: 'reopen' },
      }),
    );
    expect(reopen.status).toBe(400);
    const again = await failure(dev.mergeRequests.merge({ path: { id: PROJECT, merge_request_iid: 7 }, body: {} }));
    expect(again.status).toBe(405);
  });

  it('close sets closed_by and closed_at, reopen opens; merge fields stay empty', async () => {
    const dev = as('developer-token');
    const closed = await dev.mergeRequests.updateMergeRequest({
      path: { id: 1, merge_request_iid: 1 },
      body: { state_event: 'close' },
    });
    expect(closed).toMatchObject({
      state: 'closed',
      closed_by: { username: 'dev' },
      merged_at: null,
      merge_user: null,
    });
    expect(closed.closed_at).toEqual(expect.any(String));
    const reopened = await dev.mergeRequests.updateMergeRequest({
      path: { id: 1, merge_request_iid: 1 },
      body: { state_event: 'reopen' },
    });
    expect(reopened.state).toBe('opened');
  });

  it('merge_when_pipeline_succeeds stays opened; conflicts and drafts are 405; merge without Developer is 401', async () => {
    const dev = as('developer-token');
    const waiting = await dev.mergeRequests.merge({
      path: { id: 1, merge_request_iid: 1 },
      body: { merge_when_pipeline_succeeds: true },
    });
    expect(waiting).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, merged_at: null });
    for (const iid of [5, 6])
      expect(
        (await failure(dev.mergeRequests.merge({ path: { id: 1, merge_request_iid: iid }, body: {} }))).status,
      ).toBe(405);
    expect(
      (await failure(as('reporter-token').mergeRequests.merge({ path: { id: 1, merge_request_iid: 1 }, body: {} })))
        .status,
    ).toBe(401);
  });

  it('update without an attribute is 400; delete is for owners and administrators only', async () => {
    const update = await failure(
      as('developer-token').mergeRequests.updateMergeRequest({
        path: { id: 1, merge_request_iid: 1 },
        body: {} as never,
      }),
    );
    expect(update.status).toBe(400);
    expect(
      (
        await failure(
          as('maintainer-token').mergeRequests.deleteMergeRequest({ path: { id: 1, merge_request_iid: 1 } }),
        )
      ).status,
    ).toBe(403);
    await as('owner-token').mergeRequests.deleteMergeRequest({ path: { id: 1, merge_request_iid: 1 } });
    await as('admin-token').mergeRequests.deleteMergeRequest({ path: { id: 1, merge_request_iid: 2 } });
    expect(
      fake
        .state()
        .merge_requests.filter((m) => m.project_id === 1)
        .map((m) => m.iid),
    ).toEqual([3, 4, 5, 6]);
  });

  it('filters the list by state (also on the project list), author, labels None/Any, not[labels], view=simple and paginates', async () => {
    const dev = as('developer-token');
    const byState = await dev.mergeRequests.listProjectMergeRequests({
      path: { id: PROJECT },
      extra: { query: { state: 'merged' } },
    });
    expect(byState.map((m) => m.iid)).toEqual([3]);
    const unlabeled = await dev.mergeRequests.listProjectMergeRequests({
      path: { id: PROJECT },
      query: { labels: 'None' },
    });
    expect(unlabeled.map((m) => m.iid).sort()).toEqual([2, 4, 5]);
    const notFrontend = await dev.mergeRequests.listProjectMergeRequests({
      path: { id: PROJECT },
      query: { labels: 'Any', 'not[labels]': 'frontend' },
    });
    expect(notFrontend.map((m) => m.iid).sort()).toEqual([3, 6]);
    const mine = await dev.mergeRequests.listMergeRequests.simple({ query: { scope: 'all', author_username: 'mia' } });
    expect(mine.map((m) => m.iid).sort()).toEqual([4, 6]);
    expect(Object.keys(mine[0]!).sort()).toEqual([
      'created_at',
      'description',
      'id',
      'iid',
      'project_id',
      'state',
      'title',
      'updated_at',
      'web_url',
    ]);
    const { data, pagination, headers } = await dev.mergeRequests.listProjectMergeRequests.withResponse({
      path: { id: PROJECT },
      query: { per_page: 4, page: 2 },
    });
    expect(data).toHaveLength(2);
    expect(pagination).toMatchObject({ page: 2, perPage: 4, total: 6, totalPages: 2 });
    expect(headers).toBeDefined();
  });
});

describe('jobs', () => {
  it('filters by scope[], sorts by id descending and answers 404 for unknown jobs and projects', async () => {
    const dev = as('developer-token');
    const jobs = await dev.jobs.listProjectJobs({ path: { id: PROJECT }, query: { 'scope[]': ['failed', 'running'] } });
    expect(jobs.map((j) => [j.id, j.status])).toEqual([
      [103, 'running'],
      [102, 'failed'],
    ]);
    const job = await dev.jobs.getProjectJob({ path: { id: 1, job_id: 102 } });
    expect(job).toMatchObject({ id: 102, status: 'failed', failure_reason: 'script_failure' });
    expect((await failure(dev.jobs.getProjectJob({ path: { id: 1, job_id: 123456 } }))).status).toBe(404);
    expect((await failure(dev.jobs.getProjectJob({ path: { id: 999999, job_id: 102 } }))).status).toBe(404);
  });

  it('a job token reads its running job', async () => {
    const ci = createServiceApi({ host: fake.url, auth: { jobToken: 'job-token' } });
    expect(await ci.jobs.getTokenJob()).toMatchObject({ id: 103, status: 'running' });
  });
});

describe('repository files', () => {
  it('a written file reads the same by GET, HEAD and raw; update and delete change it; /../ and empty commits are 400', async () => {
    const dev = as('developer-token');
    const content = 'hello fake\nsecond line\n';
    expect(
      await dev.repository.createFile({
        path: { id: PROJECT, file_path: 'docs/new file.md' },
        body: { branch: 'main', commit_message: 'Add a file', content },
      }),
    ).toEqual({ file_path: 'docs/new file.md', branch: 'main' });

    const file = await dev.repository.getFile({
      path: { id: PROJECT, file_path: 'docs/new file.md' },
      query: { ref: 'main' },
    });
    expect(Buffer.from(file.content, 'base64').toString()).toBe(content);
    expect(file.size).toBe(Buffer.byteLength(content));
    expect(file.blob_id).toMatch(/^[0-9a-f]{40}$/);
    const head = await dev.repository.getFileMetadata({
      path: { id: PROJECT, file_path: 'docs/new file.md' },
      query: { ref: 'main' },
    });
    expect(head).toMatchObject({
      'X-Service-Size': file.size,
      'X-Service-Blob-Id': file.blob_id,
      'X-Service-Commit-Id': file.commit_id,
      'X-Service-Content-Sha256': file.content_sha256,
    });
    const raw = await dev.repository.getRawFile({
      path: { id: PROJECT, file_path: 'docs/new file.md' },
      query: { ref: 'main' },
    });
    expect(await raw.text()).toBe(content);
    const blob = await dev.repository.getBlob({ path: { id: PROJECT, sha: file.blob_id } });
    expect(blob).toMatchObject({ size: file.size, content: file.content });

    const empty = await failure(
      dev.repository.updateFile({
        path: { id: PROJECT, file_path: 'docs/new file.md' },
        body: { branch: 'main', commit_message: 'Nothing', content },
      }),
    );
    expect(empty.status).toBe(400);
    const outsideRepository = await failure(
      dev.repository.createFile({
        path: { id: PROJECT, file_path: 'docs/../../etc/passwd' },
        body: { branch: 'main', commit_message: 'x', content: 'x' },
      }),
    );
    expect(outsideRepository.status).toBe(400);

    await dev.repository.updateFile({
      path: { id: PROJECT, file_path: 'docs/new file.md' },
      body: {
        branch: 'main',
        commit_message: 'Change',
        content: Buffer.from('binary\u0000').toString('base64'),
        encoding: 'base64',
        last_commit_id: file.last_commit_id,
      },
    });
    const changed = await dev.repository.getRawFile({ path: { id: PROJECT, file_path: 'docs/new file.md' } });
    expect(Buffer.from(await changed.arrayBuffer()).toString()).toBe('binary\u0000');
    const stale = await failure(
      dev.repository.updateFile({
        path: { id: PROJECT, file_path: 'docs/new file.md' },
        body: { branch: 'main', commit_message: 'Stale', content: 'x', last_commit_id: file.last_commit_id },
      }),
    );
    expect(stale.status).toBe(400);

    const staleDelete = await failure(
      dev.repository.deleteFile({
        path: { id: PROJECT, file_path: 'docs/new file.md' },
        body: { branch: 'main', commit_message: 'Stale', last_commit_id: file.last_commit_id },
      }),
    );
    expect(staleDelete).toMatchObject({
      status: 400,
      body: {
        message: expect.stringContaining(
          'You are attempting to delete a file that has changed since you started editing it.',
        ),
      },
    });
    await dev.repository.deleteFile({
      path: { id: PROJECT, file_path: 'docs/new file.md' },
      body: { branch: 'main', commit_message: 'Remove' },
    });
    const missing = await failure(
      dev.repository.deleteFile({
        path: { id: PROJECT, file_path: 'docs/new file.md' },
        body: { branch: 'main', commit_message: 'Again' },
      }),
    );
    expect(missing).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining("A file with this name doesn't exist") },
    });
    expect(
      (
        await failure(
          dev.repository.getFile({ path: { id: PROJECT, file_path: 'docs/new file.md' }, query: { ref: 'main' } }),
        )
      ).status,
    ).toBe(404);
    // The old commit still has it.
    const old = await dev.repository.getFile({
      path: { id: PROJECT, file_path: 'docs/new file.md' },
      query: { ref: file.commit_id },
    });
    expect(old.blob_id).toBe(file.blob_id);
  });

  it('anonymous callers read public repositories, not private ones, and cannot write', async () => {
    const anonymous = createServiceApi({ host: fake.url });
    const readme = await anonymous.repository.getFile({
      path: { id: PROJECT, file_path: 'README.md' },
      query: { ref: 'main' },
    });
    expect(Buffer.from(readme.content, 'base64').toString()).toContain('# My Project');
    expect(
      (
        await failure(
          anonymous.repository.getFile({
            path: { id: 'my-group/secret', file_path: 'README.md' },
            query: { ref: 'main' },
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await failure(
          anonymous.repository.createFile({
            path: { id: PROJECT, file_path: 'x.md' },
            body: { branch: 'main', commit_message: 'x', content: 'x' },
          }),
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await failure(
          as('reporter-token').repository.createFile({
            path: { id: PROJECT, file_path: 'x.md' },
            body: { branch: 'main', commit_message: 'x', content: 'x' },
          }),
        )
      ).status,
    ).toBe(403);
  });
});

describe('pagination over a real collection', () => {
  it('pages through 250 jobs to the end with Link, x-page, x-next-page and x-total', async () => {
    const data: FakeData = defaultData();
    data.jobs = Array.from({ length: 250 }, (_, i) => ({
      id: i + 1,
      project_id: 1,
      pipeline_id: 11,
      name: `job-${i + 1}`,
      stage: 'test',
      status: i % 2 ? 'success' : 'failed',
      user_id: 4,
    }));
    const big = await startFake({ data, validateResponses: true });
    try {
      const api = createServiceApi({ host: big.url, auth: { privateToken: 'developer-token' } });
      const first = await api.jobs.listProjectJobs.withResponse({ path: { id: PROJECT }, query: { per_page: 100 } });
      expect(first.pagination).toMatchObject({ page: 1, nextPage: 2, total: 250, totalPages: 3 });
      expect(first.rawHeaders.get('link')).toContain('rel="next"');
      expect(first.rawHeaders.get('link')).toContain('rel="last"');
      const all = await api.jobs.listProjectJobs.all({ path: { id: PROJECT }, query: { per_page: 100 } });
      expect(all).toHaveLength(250);
      expect(all.map((j) => j.id)).toEqual(Array.from({ length: 250 }, (_, i) => 250 - i));
      const last = await api.jobs.listProjectJobs.withResponse({
        path: { id: PROJECT },
        query: { per_page: 100, page: 3 },
      });
      expect(last.data).toHaveLength(50);
      expect(last.rawHeaders.get('x-next-page')).toBe('');
      expect(last.rawHeaders.get('link')).not.toContain('rel="next"');
      const failed = await api.jobs.listProjectJobs.all({
        path: { id: PROJECT },
        query: { 'scope[]': ['failed'], per_page: 100 },
      });
      expect(failed).toHaveLength(125);
    } finally {
      await big.close();
    }
  });
});

describe('authentication, sudo and administrator-only endpoints', () => {
  it('accepts every way of sending a credential and refuses a missing or unknown one with 401', async () => {
    const path = `${fake.url}/api/v4/projects/1/merge_requests`;
    const ok = [
      fetch(path, { headers: { 'PRIVATE-TOKEN': 'developer-token' } }),
      fetch(`${path}?private_token=developer-token`),
      fetch(path, { headers: { Authorization: 'Bearer oauth-token' } }),
      fetch(`${path}?access_token=oauth-token`),
      fetch(path, { headers: { Authorization: 'Bearer developer-token' } }),
      fetch(path, { headers: { cookie: '_service_session=session-cookie' } }),
      fetch(path, { headers: { 'PRIVATE-TOKEN': 'impersonation-token' } }),
    ];
    for (const response of await Promise.all(ok)) expect(response.status).toBe(200);
    const job = [
      fetch(`${fake.url}/api/v4/job`, { headers: { 'JOB-TOKEN': 'job-token' } }),
      fetch(`${fake.url}/api/v4/job?job_token=job-token`),
      fetch(`${fake.url}/api/v4/job`, { headers: { Authorization: 'Bearer job-token' } }),
    ];
    for (const response of await Promise.all(job)) expect(response.status).toBe(200);
    const refused = [
      fetch(path),
      fetch(path, { headers: { 'PRIVATE-TOKEN': 'nope' } }),
      fetch(path, { headers: { 'PRIVATE-TOKEN': 'oauth-token' } }),
      fetch(path, { headers: { 'JOB-TOKEN': 'job-token' } }),
    ];
    for (const response of await Promise.all(refused)) expect(response.status).toBe(401);
  });

  it('sudo: 403 for a non-administrator, 403 without the sudo scope, 404 for an unknown user, else acts as the user', async () => {
    const call = (token: string, sudo: string) =>
      as(token, { sudo }).mergeRequests.listMergeRequests({ query: { scope: 'created_by_me' } });
    const notAdmin = await failure(call('developer-token', 'mia'));
    expect([notAdmin.status, notAdmin.body]).toEqual([403, { message: '403 Forbidden - Must be admin to use sudo' }]);
    const noScope = await failure(call('admin-token', 'mia'));
    expect(noScope.status).toBe(403);
    expect(noScope.body).toMatchObject({ error: 'insufficient_scope', scope: 'sudo' });
    const unknown = await failure(call('admin-sudo-token', 'ghost'));
    expect([unknown.status, unknown.body]).toEqual([
      404,
      { message: "404 User with ID or username 'ghost' Not Found" },
    ]);
    const asMia = await call('admin-sudo-token', 'MIA');
    expect(asMia.every((m) => m.author?.username === 'mia')).toBe(true);
    expect(asMia.length).toBe(2);
  });

  it('administrator-only endpoints answer 403 to others; plan limits keep what is written', async () => {
    expect((await failure(as('owner-token').application.getPlanLimits())).status).toBe(403);
    const updated = await as('admin-token').application.updatePlanLimits({
      body: { plan_name: 'default', ci_active_jobs: 7 },
    });
    expect(updated.ci_active_jobs).toBe(7);
    expect((await as('admin-token').application.getPlanLimits()).ci_active_jobs).toBe(7);
  });
});

describe('state', () => {
  it('reset() and POST /__fake/reset restore the data set; GET /__fake/state dumps it', async () => {
    const dev = as('developer-token');
    await dev.mergeRequests.createMergeRequest({
      path: { id: 1 },
      body: { source_branch: 'feature/login', target_branch: 'feature/reset', title: 'Temporary' },
    });
    expect(fake.state().merge_requests).toHaveLength(8);
    fake.reset();
    expect(fake.state().merge_requests).toHaveLength(7);
    await dev.mergeRequests.createMergeRequest({
      path: { id: 1 },
      body: { source_branch: 'feature/login', target_branch: 'feature/reset', title: 'Temporary' },
    });
    expect((await fetch(`${fake.url}/__fake/reset`, { method: 'POST' })).status).toBe(200);
    const state = (await (await fetch(`${fake.url}/__fake/state`)).json()) as FakeData;
    expect(state.merge_requests).toHaveLength(7);
    expect(state).toEqual(fake.state());
  });

  it('ids and timestamps are deterministic', async () => {
    const run = async () => {
      fake.reset();
      const mr = await as('developer-token').mergeRequests.createMergeRequest({
        path: { id: 1 },
        body: { source_branch: 'feature/login', target_branch: 'feature/reset', title: 'Same' },
      });
      return [mr.id, mr.iid, mr.created_at, mr.sha];
    };
    expect(await run()).toEqual(await run());
  });
});

describe('tree and members', () => {
  it('lists the tree with keyset pagination to the end, and sees a new file', async () => {
    const dev = as('developer-token');
    await dev.repository.createFile({
      path: { id: PROJECT, file_path: 'src/lib/util.js' },
      body: { branch: 'main', commit_message: 'Add util', content: 'export {};\n' },
    });
    const top = await dev.repository.listTree({ path: { id: PROJECT } });
    expect(top.map((e) => [e.type, e.path])).toEqual([
      ['tree', 'scripts'],
      ['tree', 'src'],
      ['blob', 'README.md'],
    ]);
    const all = await dev.repository.listTree.all({
      path: { id: PROJECT },
      query: { recursive: true, per_page: 2, pagination: 'keyset' },
    });
    expect(all.filter((e) => e.type === 'blob').map((e) => e.path)).toContain('src/lib/util.js');
    expect(new Set(all.map((e) => e.path)).size).toBe(all.length);
    const script = all.find((e) => e.path === 'scripts/run.sh');
    expect(script?.mode).toBe('100755');
  });

  it('lists direct members and, under /all, inherited members at their highest level', async () => {
    const dev = as('developer-token');
    const direct = await dev.members.listProjectMembers({ path: { id: PROJECT } });
    expect(direct.map((m) => [m.username, m.access_level])).toEqual([
      ['mia', 40],
      ['dev', 30],
      ['rita', 20],
      ['gus', 10],
    ]);
    const all = await dev.members.listAllProjectMembers({ path: { id: PROJECT } });
    expect(all.map((m) => [m.username, m.access_level])).toEqual([
      ['olivia', 50],
      ['mia', 40],
      ['dev', 30],
      ['rita', 20],
      ['gus', 10],
    ]);
    expect((await dev.members.getInheritedProjectMember({ path: { id: PROJECT, user_id: 2 } })).access_level).toBe(50);
    expect((await failure(dev.members.getProjectMember({ path: { id: PROJECT, user_id: 2 } }))).status).toBe(404);
    const subgroup = await dev.members.listAllGroupMembers({ path: { id: 'my-group/sub' } });
    expect(subgroup.map((m) => m.username)).toEqual(['olivia']);
    expect(
      (await failure(as('outsider-token').members.listProjectMembers({ path: { id: 'my-group/secret' } }))).status,
    ).toBe(404);
  });
});
