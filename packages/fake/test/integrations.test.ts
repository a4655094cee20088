/**
 * The fake's project integrations through the generated client, with responses validated: set up → read → disable
 * (reset) → not listed any more; required parameters per kind (400); Maintainer access; secrets never answered.
 */
import { describe, expect, it } from 'vitest';
import { failure, status, useFake } from '../../../test/support/fake.ts';

const { fake, as } = useFake();
const project = { id: 'my-group/my-project' };

describe('the custom issue tracker', () => {
  it('listed active → read → disabled (settings reset) → not listed → set up again', async () => {
    const api = as('maintainer-token');
    const listed = await api.integrations.listIntegrations({ path: project });
    expect(listed).toEqual([
      expect.objectContaining({
        id: 1,
        slug: 'custom-issue-tracker',
        title: 'Custom issue tracker',
        active: true,
        push_events: true,
        issues_events: true,
        job_events: false,
      }),
    ]);
    expect(await api.integrations.getCustomIssueTracker({ path: project })).toMatchObject({
      id: 1,
      active: true,
      properties: { project_url: 'https://issues.example.com/projects/my-project' },
    });

    await api.integrations.disableCustomIssueTracker({ path: project });
    const reset = await api.integrations.getCustomIssueTracker({ path: project });
    expect(reset).toMatchObject({ id: 1, active: false, push_events: false, properties: {} });
    expect(await api.integrations.listIntegrations({ path: project })).toEqual([]);

    const urls = {
      new_issue_url: 'https://t.example/new',
      issues_url: 'https://t.example/:id',
      project_url: 'https://t.example/p',
    };
    const setUp = await api.integrations.setUpCustomIssueTracker({ path: project, body: urls });
    expect(setUp).toMatchObject({ id: 1, slug: 'custom-issue-tracker', active: true, properties: urls });
    expect((await api.integrations.listIntegrations({ path: project })).map((i) => [i.slug, i.active])).toEqual([
      ['custom-issue-tracker', true],
    ]);
    // The same integration by the slug path.
    expect(await api.integrations.getIntegration({ path: { ...project, slug: 'custom-issue-tracker' } })).toMatchObject(
      { id: 1, properties: urls },
    );
  });

  it('requires the three URLs (400)', async () => {
    const api = as('maintainer-token');
    expect(
      await status(
        api.integrations.setUpCustomIssueTracker({
          path: project,
          body: { issues_url: 'https://t.example/:id', project_url: 'https://t.example/p' } as never,
        }),
      ),
    ).toBe(400);
    expect(
      await status(
        api.integrations.setUpCustomIssueTracker({
          path: project,
          body: { new_issue_url: ' ', issues_url: 'https://t.example/:id', project_url: 'https://t.example/p' },
        }),
      ),
    ).toBe(400);
    expect(
      await status(
        api.integrations.setUpIntegration({
          path: { ...project, slug: 'custom-issue-tracker' },
          body: { issues_url: 'https://t.example/:id' },
        }),
      ),
    ).toBe(400);
  });
});

describe('integrations by slug', () => {
  it('chat notifications: set up → read (events and channels) → change → disable → read inactive', async () => {
    const api = as('owner-token');
    const slug = { ...project, slug: 'chat-notifications' };
    const never = await failure(api.integrations.getIntegration({ path: slug }));
    expect(never).toMatchObject({ status: 404, body: { message: '404 Integration Not Found' } });
    const missing = await failure(api.integrations.setUpIntegration({ path: slug, body: { push_events: true } }));
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      message: '400 Bad request - webhook is missing',
      errors: [{ in: 'body', field: 'webhook', problem: 'webhook is missing' }],
    });

    const created = await api.integrations.setUpIntegration({
      path: slug,
      body: {
        webhook: 'https://chat.example/hook',
        push_events: true,
        push_channel: '#builds',
        branches_to_be_notified: 'all',
      },
    });
    expect(created).toMatchObject({
      id: 2,
      slug: 'chat-notifications',
      active: true,
      push_events: true,
      pipeline_events: false,
      properties: { webhook: 'https://chat.example/hook', push_channel: '#builds', branches_to_be_notified: 'all' },
    });
    const changed = await api.integrations.setUpIntegration({
      path: slug,
      body: { webhook: 'https://chat.example/hook2', pipeline_events: true },
    });
    expect(changed).toMatchObject({
      id: 2,
      push_events: true,
      pipeline_events: true,
      properties: { webhook: 'https://chat.example/hook2', push_channel: '#builds' },
    });
    expect(
      (await api.integrations.listIntegrations({ path: project })).map((i) => [i.id, i.slug, i.pipeline_events]),
    ).toEqual([
      [1, 'custom-issue-tracker', false],
      [2, 'chat-notifications', true],
    ]);

    await api.integrations.disableIntegration({ path: slug });
    expect(await api.integrations.getIntegration({ path: slug })).toMatchObject({
      id: 2,
      active: false,
      push_events: false,
      properties: {},
    });
    expect((await api.integrations.listIntegrations({ path: project })).map((i) => i.slug)).toEqual([
      'custom-issue-tracker',
    ]);
  });

  it.each([
    [
      'mobile-store-connector',
      {
        store_issuer_id: 'i',
        store_key_id: 'k',
        store_private_key_file_name: 'key.p8',
        store_private_key: 'PRIVATE',
        store_protected_refs: true,
      },
      { store_issuer_id: 'i', store_key_id: 'k', store_private_key_file_name: 'key.p8' },
      ['store_private_key'],
    ],
    ['task-tracker', { api_key: 'KEY', restrict_to_branch: 'main' }, {}, ['api_key']],
    ['token-subdomain', { token: 'T', subdomain: 'team', room: '42' }, {}, ['token']],
    [
      'build-server',
      { server_url: 'https://ci.example', build_key: 'PROJ-PLAN', username: 'ci', password: 'hunter2' },
      {},
      ['password'],
    ],
    [
      'issue-tracker',
      { new_issue_url: 'https://t/new', issues_url: 'https://t/:id', project_url: 'https://t/p' },
      {},
      [],
    ],
    ['short-issue-tracker', { issues_url: 'https://t/:id', project_url: 'https://t/p' }, {}, []],
    ['pipeline-notifier', { token: 'T', project_url: 'https://n/p', push_events: true }, {}, ['token']],
    ['wiki-workspace', { confluence_url: 'https://team.wiki.example/wiki' }, {}, []],
    [
      'monitoring',
      { api_key: 'K', api_url: 'https://m.example', mon_env: 'prod', mon_tags: 'team:ci\nregion:eu' },
      {},
      ['api_key'],
    ],
    [
      'test-generation',
      { gen_license_key: 'L', gen_access_token_name: 'n', gen_access_token_secret: 'S' },
      { gen_access_token_name: 'n' },
      ['gen_license_key', 'gen_access_token_secret'],
    ],
    ['chat-notifications', { webhook: 'https://chat.example/hook' }, {}, []],
  ] as const)(
    '%s: set up with its required parameters, secrets never answered; each required one missing is a 400',
    async (slug, params, shown, secrets) => {
      const api = as('maintainer-token');
      const path = { ...project, slug };
      const given = params as Record<string, unknown>;
      for (const read of [
        await api.integrations.setUpIntegration({ path, body: given }),
        await api.integrations.getIntegration({ path }),
      ]) {
        expect(read).toMatchObject({ slug, active: true, properties: shown });
        const properties = (read as typeof read & { properties: Record<string, unknown> }).properties;
        for (const secret of secrets) expect(secret in properties).toBe(false);
        for (const [key, value] of Object.entries(given))
          if (!(secrets as readonly string[]).includes(key) && typeof value === 'string')
            expect(properties[key]).toBe(value);
      }
      // Every required parameter is required on each setup: dropping any string one is refused (the optional ones are not).
      const optional = new Set([
        'restrict_to_branch',
        'subdomain',
        'room',
        'api_url',
        'mon_env',
        'mon_tags',
        'store_protected_refs',
      ]);
      for (const key of Object.keys(given).filter((k) => !optional.has(k) && typeof given[k] === 'string')) {
        const { [key]: _dropped, ...rest } = given;
        expect(await status(api.integrations.setUpIntegration({ path, body: rest }))).toBe(400);
      }
    },
  );

  it('a vendor prefix must be the same across the parameters of its kind', async () => {
    const body = { apple_issuer_id: 'i', apple_key_id: 'k', apple_private_key_file_name: 'f', google_private_key: 'P' };
    const refused = await failure(
      as('maintainer-token').integrations.setUpIntegration({
        path: { ...project, slug: 'mobile-store-connector' },
        body,
      }),
    );
    expect(refused.status).toBe(400);
    expect((refused.body as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual([
      '<vendor>_issuer_id',
      '<vendor>_key_id',
      '<vendor>_private_key_file_name',
      '<vendor>_private_key',
    ]);
  });

  it('a slug of no documented kind takes any parameters; before it is set up it is not found', async () => {
    const api = as('maintainer-token');
    const path = { ...project, slug: 'homegrown' };
    expect(await status(api.integrations.getIntegration({ path }))).toBe(404);
    expect(await status(api.integrations.disableIntegration({ path }))).toBe(404);
    expect(
      await api.integrations.setUpIntegration({ path, body: { anything: 'goes', token: 'hidden' } }),
    ).toMatchObject({ title: 'Homegrown', active: true, properties: { anything: 'goes' } });
    expect(JSON.stringify(await api.integrations.getIntegration({ path }))).not.toContain('hidden');
    await api.integrations.disableIntegration({ path });
    expect(await api.integrations.getIntegration({ path })).toMatchObject({ active: false, properties: {} });
  });

  it('paginates the active integrations', async () => {
    const api = as('maintainer-token');
    for (const slug of ['a-one', 'a-two', 'a-three'])
      await api.integrations.setUpIntegration({ path: { ...project, slug }, body: {} });
    const page = await api.integrations.listIntegrations.withResponse({
      path: project,
      query: { per_page: 3, page: 2 },
    });
    expect(page.data.map((i) => i.slug)).toEqual(['a-three']);
    expect(page.pagination).toMatchObject({ page: 2, total: 4, totalPages: 2, prevPage: 1 });
  });
});

describe('access', () => {
  const calls = (token?: string) => {
    const api = as(token);
    const slug = { ...project, slug: 'chat-notifications' };
    return [
      () => api.integrations.listIntegrations({ path: project }),
      () => api.integrations.getIntegration({ path: slug }),
      () => api.integrations.setUpIntegration({ path: slug, body: { webhook: 'https://chat.example/hook' } }),
      () => api.integrations.disableIntegration({ path: slug }),
      () => api.integrations.getCustomIssueTracker({ path: project }),
      () =>
        api.integrations.setUpCustomIssueTracker({
          path: project,
          body: { new_issue_url: 'a', issues_url: 'b', project_url: 'c' },
        }),
      () => api.integrations.disableCustomIssueTracker({ path: project }),
    ];
  };

  it.each([
    ['developer-token', 403],
    ['reporter-token', 403],
    ['guest-token', 403],
    ['outsider-token', 403], // the project is public: readable, not maintainable
    [undefined, 401],
  ] as const)('%s: %i on every integration operation, and nothing changes', async (token, expected) => {
    for (const call of calls(token)) expect(await status(call())).toBe(expected);
    expect(fake.state().integrations).toEqual(fake.state().integrations?.filter((i) => i.id === 1 && i.active));
  });

  it('a private project the caller cannot read is 404; Owners and administrators may', async () => {
    expect(await status(as('outsider-token').integrations.listIntegrations({ path: { id: 'my-group/secret' } }))).toBe(
      404,
    );
    expect(await status(as('developer-token').integrations.listIntegrations({ path: { id: 'my-group/secret' } }))).toBe(
      403,
    );
    expect(await as('admin-token').integrations.listIntegrations({ path: { id: 'my-group/secret' } })).toEqual([]);
    expect(await as('owner-token').integrations.listIntegrations({ path: { id: 'my-group/secret' } })).toEqual([]);
    expect(await status(as('admin-token').integrations.listIntegrations({ path: { id: 999 } }))).toBe(404);
  });
});
