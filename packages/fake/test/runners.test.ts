/** The fake's runners, pipeline bridges and allowed agents through the generated client, responses validated. */
import { describe, expect, it } from 'vitest';
import { defaultData } from '../src/index.ts';
import { publishedDocument, queryRule } from '../../../test/support/documents.ts';
import { failure, messageOf, useFake, withFake } from '../../../test/support/fake.ts';

const { fake, as, client, url } = useFake();
const ids = (items: { id?: unknown }[]) => items.map((i) => i.id);

describe('runner creation', () => {
  it('needs create_runner; owners create group and project runners, administrators instance runners; the token is shown once', async () => {
    const scope = await failure(
      as('owner-token').runners.createUserRunner({ body: { runner_type: 'group_type', group_id: 1 } }),
    );
    expect(scope).toEqual({
      status: 403,
      body: {
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'create_runner',
      },
    });
    const owner = as('runner-creator-token');
    expect((await failure(owner.runners.createUserRunner({ body: { runner_type: 'instance_type' } }))).status).toBe(
      403,
    );
    expect(
      (await failure(owner.runners.createUserRunner({ body: { runner_type: 'group_type' } as never }))).status,
    ).toBe(400);
    expect(
      (await failure(owner.runners.createUserRunner({ body: { runner_type: 'group_type', group_id: 999 } }))).status,
    ).toBe(404);
    expect(
      (await failure(owner.runners.createUserRunner({ body: { runner_type: 'project_type', project_id: 999 } })))
        .status,
    ).toBe(404);
    expect(
      (
        await failure(
          owner.runners.createUserRunner({
            body: { runner_type: 'group_type', group_id: 1, maintenance_note: 'x'.repeat(1025) },
          }),
        )
      ).status,
    ).toBe(400);

    const group = await owner.runners.createUserRunner({
      body: {
        runner_type: 'group_type',
        group_id: 1,
        description: 'New group runner',
        tag_list: ['gpu', 'gpu'],
        maintenance_note: 'n'.repeat(1024),
      },
    });
    expect(group).toEqual({ id: 8, token: expect.stringMatching(/^[0-9a-f]{24}$/), token_expires_at: null });
    const project = await owner.runners.createUserRunner({
      body: {
        runner_type: 'project_type',
        project_id: 1,
        paused: true,
        access_level: 'ref_protected',
        maximum_timeout: 600,
      },
    });
    expect(project.id).toBe(9);
    expect(project.token).not.toBe(group.token);

    const details = await owner.runners.getRunner({ path: { id: 8 } });
    expect(details).toMatchObject({
      id: 8,
      runner_type: 'group_type',
      is_shared: false,
      description: 'New group runner',
      status: 'never_contacted',
      online: false,
      contacted_at: null,
      paused: false,
      tag_list: ['gpu'],
      projects: [],
      access_level: 'not_protected',
      maximum_timeout: null,
      ip_address: null,
      version: null,
    });
    expect(await owner.runners.getRunner({ path: { id: 9 } })).toMatchObject({
      paused: true,
      active: false,
      access_level: 'ref_protected',
      maximum_timeout: 600,
      projects: [{ id: 1, path_with_namespace: 'my-group/my-project', name_with_namespace: 'My Group / My Project' }],
    });
    // Later reads never show the token: not the details, not the lists, not the state.
    const everything = JSON.stringify([
      details,
      await owner.runners.listRunners(),
      await as('admin-token').runners.listAllRunners({ query: { per_page: 100 } }),
      fake.state(),
    ]);
    expect(everything).not.toContain(group.token);
    expect(everything).not.toContain(project.token);
    expect(ids(await owner.runners.listRunners({ query: { per_page: 100 } }))).toEqual([3, 4, 5, 6, 7, 8, 9]);

    // A maintainer is not an owner; an administrator with create_runner creates instance runners.
    const admin = as('admin-token').users;
    const mia = await admin.createUserPersonalAccessToken({
      path: { user_id: 3 },
      body: { name: 'runners', scopes: ['create_runner'] },
    });
    expect(
      (await failure(as(mia.token).runners.createUserRunner({ body: { runner_type: 'project_type', project_id: 1 } })))
        .status,
    ).toBe(403);
    const root = await admin.createUserPersonalAccessToken({
      path: { user_id: 1 },
      body: { name: 'runners', scopes: ['create_runner'] },
    });
    const instance = await as(root.token).runners.createUserRunner({
      body: { runner_type: 'instance_type', run_untagged: false },
    });
    expect(await as('outsider-token').runners.getRunner({ path: { id: instance.id } })).toMatchObject({
      runner_type: 'instance_type',
      is_shared: true,
    });
  });
});

describe('restricted runner registration', () => {
  it('owners create only the runner types the instance allows (valid_runner_registrars); administrators any', async () => {
    const data = defaultData();
    data.application_settings = { valid_runner_registrars: ['project'] };
    await withFake(data, async (other) => {
      const owner = other('runner-creator-token').runners;
      expect((await failure(owner.createUserRunner({ body: { runner_type: 'group_type', group_id: 1 } }))).status).toBe(
        403,
      );
      expect((await owner.createUserRunner({ body: { runner_type: 'project_type', project_id: 2 } })).id).toBe(8);
      data.tokens.push({ token: 'root-runner-token', kind: 'personal', user_id: 1, scopes: ['create_runner'] });
    });
    await withFake({ ...data, application_settings: { valid_runner_registrars: [] } }, async (none) => {
      const owner = none('runner-creator-token').runners;
      expect(
        (await failure(owner.createUserRunner({ body: { runner_type: 'project_type', project_id: 2 } }))).status,
      ).toBe(403);
      const root = none('root-runner-token').runners;
      expect((await root.createUserRunner({ body: { runner_type: 'group_type', group_id: 1 } })).id).toBe(8);
    });
  });
});

describe('runner lists', () => {
  it("the caller's runners (those they maintain) and all runners (administrators) with every filter, paginated", async () => {
    expect(ids(await as('maintainer-token').runners.listRunners())).toEqual([5, 7]);
    expect(await as('developer-token').runners.listRunners()).toEqual([]);
    expect(ids(await as('maintainer-token').runners.listRunners({ query: { paused: true } }))).toEqual([7]);
    expect((await failure(as('owner-token').runners.listAllRunners())).status).toBe(403);

    const all = (query: Record<string, unknown>) => as('admin-token').runners.listAllRunners({ query }).then(ids);
    const table: [Record<string, unknown>, number[]][] = [
      [{}, [1, 2, 3, 4, 5, 6, 7]],
      [{ type: 'instance_type' }, [1, 2]],
      [{ type: 'group_type' }, [3, 4]],
      [{ status: 'online' }, [1, 3, 5]],
      [{ status: 'offline' }, [2, 7]],
      [{ status: 'stale' }, [4]],
      [{ status: 'never_contacted' }, [6]],
      [{ status: 'paused' }, [2, 7]],
      [{ status: 'active' }, [1, 3, 4, 5, 6]],
      [{ paused: false }, [1, 3, 4, 5, 6]],
      [{ 'tag_list[]': ['docker', 'linux'] }, [1]],
      [{ 'tag_list[]': ['linux'] }, [1, 5, 7]],
      [{ scope: 'shared' }, [1, 2]],
      [{ scope: 'specific' }, [3, 4, 5, 6, 7]],
      [{ scope: 'online', type: 'project_type' }, [5]],
      [{ version_prefix: '17.9' }, [1, 3, 5]],
      [{ version_prefix: '16.' }, [7]],
    ];
    for (const [query, expected] of table) expect([query, await all(query)]).toEqual([query, expected]);
    expect((await failure(all({ status: 'sleeping' }))).status).toBe(400);

    const page = await as('admin-token').runners.listAllRunners.withResponse({ query: { per_page: 3, page: 2 } });
    expect(ids(page.data)).toEqual([4, 5, 6]);
    expect([page.pagination.total, page.pagination.totalPages, page.pagination.nextPage]).toEqual([7, 3, 3]);
    expect(page.headers.Link).toContain('rel="next"');
    expect(ids(await as('admin-token').runners.listAllRunners.all({ query: { per_page: 2 } }))).toEqual([
      1, 2, 3, 4, 5, 6, 7,
    ]);
  });

  it('project runners: its own, its groups’ and the instance’s, for Maintainers; group runners with the ancestors’', async () => {
    const mia = as('maintainer-token').runners;
    expect(ids(await mia.listProjectRunners({ path: { id: 1 } }))).toEqual([1, 2, 3, 5, 7]);
    expect(ids(await mia.listProjectRunners({ path: { id: 'my-group/sub/tools' } }))).toEqual([1, 2, 3, 4, 7]);
    expect(ids(await mia.listProjectRunners({ path: { id: 1 }, query: { type: 'project_type' } }))).toEqual([5, 7]);
    expect(ids(await mia.listProjectRunners({ path: { id: 1 }, query: { scope: 'online' } }))).toEqual([1, 3, 5]);
    expect(ids(await mia.listProjectRunners({ path: { id: 1 }, extra: { query: { paused: 'true' } } }))).toEqual([
      2, 7,
    ]);
    expect(
      ids(await mia.listProjectRunners({ path: { id: 1 }, extra: { query: { tag_list: 'linux,ruby' } } })),
    ).toEqual([5]);
    expect((await failure(as('developer-token').runners.listProjectRunners({ path: { id: 1 } }))).status).toBe(403);
    expect((await failure(as('outsider-token').runners.listProjectRunners({ path: { id: 2 } }))).status).toBe(404);

    const owner = as('owner-token').runners;
    expect(ids(await owner.listGroupRunners({ path: { id: 1 } }))).toEqual([3]);
    expect(ids(await owner.listGroupRunners({ path: { id: 'my-group/sub' } }))).toEqual([3, 4]);
    expect(ids(await owner.listGroupRunners({ path: { id: 2 }, extra: { query: { status: 'stale' } } }))).toEqual([4]);
    expect((await failure(as('developer-token').runners.listGroupRunners({ path: { id: 1 } }))).status).toBe(403);
    expect((await failure(owner.listGroupRunners({ path: { id: 999 } }))).status).toBe(404);
  });
});

describe('one runner', () => {
  it('instance runners for everyone, others from Maintainer up; update → get → list reflect it', async () => {
    expect(await as('outsider-token').runners.getRunner({ path: { id: 1 } })).toMatchObject({
      id: 1,
      runner_type: 'instance_type',
      is_shared: true,
      online: true,
      status: 'online',
      tag_list: ['docker', 'linux'],
      version: '',
      architecture: '',
      projects: [],
    });
    expect((await failure(as('developer-token').runners.getRunner({ path: { id: 5 } }))).status).toBe(403);
    expect(await failure(as('developer-token').runners.getRunner({ path: { id: 999 } }))).toEqual({
      status: 404,
      body: { message: '404 Runner Not Found' },
    });
    expect(await as('admin-token').runners.getRunner({ path: { id: 6 } })).toMatchObject({
      status: 'never_contacted',
      contacted_at: null,
    });
    expect((await as('maintainer-token').runners.getRunner({ path: { id: 7 } })).projects?.map((p) => p.id)).toEqual([
      3, 1,
    ]);

    const mia = as('maintainer-token').runners;
    const updated = await mia.updateRunner({
      path: { id: 5 },
      body: {
        paused: true,
        tag_list: ['linux'],
        description: 'Ruby builds',
        maintenance_note: 'Disk full',
        maximum_timeout: 7200,
        access_level: 'ref_protected',
        run_untagged: false,
        locked: true,
      },
    });
    expect(updated).toMatchObject({
      id: 5,
      paused: true,
      active: false,
      tag_list: ['linux'],
      description: 'Ruby builds',
      maintenance_note: 'Disk full',
      maximum_timeout: 7200,
      access_level: 'ref_protected',
    });
    expect(await mia.getRunner({ path: { id: 5 } })).toEqual(updated);
    expect(ids(await mia.listRunners({ query: { paused: true } }))).toEqual([5, 7]);
    expect((await mia.updateRunner({ path: { id: 7 }, body: { active: true } })).paused).toBe(false);
    expect(
      (await failure(mia.updateRunner({ path: { id: 5 }, body: { maintenance_note: 'x'.repeat(1025) } }))).status,
    ).toBe(400);
    expect((await failure(mia.updateRunner({ path: { id: 1 }, body: { paused: true } }))).status).toBe(403);
    expect(
      (await failure(as('developer-token').runners.updateRunner({ path: { id: 5 }, body: { paused: false } }))).status,
    ).toBe(403);
    expect((await failure(mia.updateRunner({ path: { id: 999 }, body: { paused: false } }))).status).toBe(404);
    expect((await as('admin-token').runners.updateRunner({ path: { id: 1 }, body: { paused: true } })).paused).toBe(
      true,
    );
  });

  it('jobs of a runner and of one manager: only projects where the caller is Reporter, filters and order', async () => {
    const jobs = (token: string, query: Record<string, unknown> = {}) =>
      as(token)
        .runners.listRunnerJobs({ path: { id: 1 }, query })
        .then(ids);
    expect(await jobs('admin-token')).toEqual([110, 102, 101]);
    expect(await jobs('reporter-token')).toEqual([102, 101]); // job 110 is in the private project
    expect(await jobs('outsider-token')).toEqual([]);
    expect(await jobs('reporter-token', { status: 'failed' })).toEqual([102]);
    expect(await jobs('reporter-token', { system_id: 's_0a1b2c3d4e5f' })).toEqual([101]);
    expect(await jobs('reporter-token', { order_by: 'id', sort: 'asc' })).toEqual([101, 102]);
    const noOrder = await failure(jobs('reporter-token', { sort: 'asc' }));
    expect([noOrder.status, messageOf(noOrder.body)]).toEqual([
      400,
      `400 Bad request - query parameters break a rule: ${queryRule(publishedDocument(), 'runners/list-runner-jobs', 'sort', 'order_by')}`,
    ]);
    const [job] = await as('reporter-token').runners.listRunnerJobs({ path: { id: 1 }, query: { status: 'success' } });
    expect(job).toMatchObject({
      id: 101,
      status: 'success',
      runner: { id: 1, runner_type: 'instance_type', is_shared: true },
    });
    expect(ids(await as('maintainer-token').runners.listRunnerJobs({ path: { id: 5 } }))).toEqual([103]);
    expect((await failure(as('developer-token').runners.listRunnerJobs({ path: { id: 5 } }))).status).toBe(403);

    const manager = (token: string, id: number, system_id: string) =>
      as(token).runners.listRunnerManagerJobs({ path: { id, system_id } });
    expect(ids(await manager('admin-token', 1, 's_0a1b2c3d4e5f'))).toEqual([110, 101]);
    expect(ids(await manager('reporter-token', 1, 's_1b2c3d4e5f60'))).toEqual([102]);
    expect((await failure(manager('admin-token', 1, 's_unknown'))).status).toBe(404);
    expect((await failure(manager('developer-token', 5, 's_4e5f60718293'))).status).toBe(403);
    expect((await failure(manager('admin-token', 999, 's_4e5f60718293'))).status).toBe(404);
  });

  it('a job record names the runner that picked it', async () => {
    const dev = as('developer-token').jobs;
    expect((await dev.getProjectJob({ path: { id: 1, job_id: 103 } })).runner).toMatchObject({
      id: 5,
      runner_type: 'project_type',
      description: 'My Project runner',
      online: true,
      paused: false,
    });
    expect((await dev.getProjectJob({ path: { id: 1, job_id: 104 } })).runner).toBeNull();
  });
});

describe('pipeline bridges and allowed agents', () => {
  it('lists the trigger jobs of a pipeline with their downstream pipeline; scope[] filters; 404 for others', async () => {
    const dev = as('developer-token').jobs;
    const bridges = await dev.listPipelineBridges({ path: { id: 'my-group/my-project', pipeline_id: 12 } });
    expect(ids(bridges)).toEqual([202, 201]);
    expect(bridges[1]).toMatchObject({
      id: 201,
      name: 'deploy-tools',
      stage: 'deploy',
      status: 'success',
      pipeline: {
        id: 12,
        project_id: 1,
        status: 'running',
        web_url: 'https://service.example/my-group/my-project/-/pipelines/12',
      },
    });
    expect(bridges[1]?.downstream_pipeline).toMatchObject({
      id: 13,
      ref: 'main',
      status: 'success',
      web_url: 'https://service.example/my-group/sub/tools/-/pipelines/13',
    });
    expect(bridges[0]?.downstream_pipeline).toMatchObject({ id: 15, ref: 'main', status: 'created' });
    for (const field of ['runner', 'artifacts', 'artifacts_expire_at', 'tag_list', 'failure_reason'])
      expect(bridges[0]).not.toHaveProperty(field);
    expect(
      ids(
        await dev.listPipelineBridges({ path: { id: 1, pipeline_id: 12 }, query: { 'scope[]': ['manual', 'failed'] } }),
      ),
    ).toEqual([202]);
    expect(await dev.listPipelineBridges({ path: { id: 1, pipeline_id: 11 } })).toEqual([]);
    expect(await failure(dev.listPipelineBridges({ path: { id: 1, pipeline_id: 13 } }))).toEqual({
      status: 404,
      body: { message: '404 Pipeline Not Found' },
    });
    expect(
      (await failure(as('outsider-token').jobs.listPipelineBridges({ path: { id: 2, pipeline_id: 14 } }))).status,
    ).toBe(404);
    const page = await dev.listPipelineBridges.withResponse({
      path: { id: 1, pipeline_id: 12 },
      query: { per_page: 1 },
    });
    expect([ids(page.data), page.pagination.nextPage]).toEqual([[202], 2]);
  });

  it('allowed agents: the job token only, with the agents its project may use', async () => {
    const ci = client({ auth: { jobToken: 'job-token' } });
    expect(await ci.jobs.getAllowedAgents()).toEqual({
      allowed_agents: [
        {
          id: 1,
          config_project: {
            id: 3,
            description: null,
            name: 'Tools',
            name_with_namespace: 'My Group / Sub / Tools',
            path: 'tools',
            path_with_namespace: 'my-group/sub/tools',
            created_at: '2025-03-11T10:00:00.000Z',
          },
        },
        {
          id: 2,
          config_project: {
            id: 1,
            description: 'A public project',
            name: 'My Project',
            name_with_namespace: 'My Group / My Project',
            path: 'my-project',
            path_with_namespace: 'my-group/my-project',
            created_at: '2025-03-11T10:00:00.000Z',
          },
        },
      ],
      job: { id: 103 },
      pipeline: { id: 12 },
      project: { id: 1, groups: [{ id: 1 }] },
      user: {
        id: 4,
        name: 'Dev Developer',
        username: 'dev',
        state: 'active',
        avatar_url: null,
        web_url: 'https://service.example/dev',
      },
    });
    const query = await fetch(url('/job/allowed_agents?job_token=job-token'));
    expect(query.status).toBe(200);
    // A personal or OAuth token sent as Bearer is not a job token.
    expect((await failure(client({ auth: { oauthToken: 'developer-token' } }).jobs.getAllowedAgents())).status).toBe(
      401,
    );
    expect((await failure(client({ auth: { oauthToken: 'oauth-token' } }).jobs.getAllowedAgents())).status).toBe(401);
    expect((await failure(as('developer-token').jobs.getAllowedAgents())).status).toBe(401);
  });
});
