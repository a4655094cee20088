/** Application settings, dependencies and product analytics on the fake, through the generated client. */
import { describe, expect, it } from 'vitest';
import { defaultData } from '../src/index.ts';
import { failure, useFake } from '../../../test/support/fake.ts';

// Gus is also a Guest of the private project 2: he sees the project but not its repository.
const data = defaultData();
data.projects.find((p) => p.id === 2)!.members.push({ user_id: 6, access_level: 10 });
const { fake, as, send } = useFake({ data });

/** A raw JSON request, for bodies the typed client would not send. */
async function put(path: string, body: unknown, token = 'admin-token') {
  const response = await send(path, { method: 'PUT', token, json: body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('application settings', () => {
  it('starts from the stated defaults and keeps every change', async () => {
    const admin = as('admin-token').application;
    const settings = await admin.getSettings();
    expect(settings).toMatchObject({
      id: 1,
      created_at: '2025-03-11T10:00:00.000Z',
      max_export_size: 0,
      max_import_size: 0,
      wiki_page_max_content_bytes: 52428800,
      user_defaults_to_private_profile: false,
      allow_runner_registration_token: true,
      time_tracking_limit_to_hours: false,
      asciidoc_max_includes: 32,
      delete_inactive_projects: false,
      inactive_projects_delete_after_months: 2,
      inactive_projects_min_size_mb: 0,
      inactive_projects_send_warning_email_after_months: 1,
    });
    // signup_enabled is a field of the settings object the request body does not type: it is written too.
    expect((await put('/application/settings', { signup_enabled: false })).body).toMatchObject({
      signup_enabled: false,
    });
    // Sent raw: the generated body type intersects the settings with the string-only analytics key pattern, so the
    // typed client accepts only string settings (reported; not this file's to fix).
    const changed = (
      await put('/application/settings', {
        wiki_page_max_content_bytes: 2048,
        email_restrictions_enabled: true,
        email_restrictions: '@example\\.com$',
      })
    ).body as typeof settings;
    expect(changed).toMatchObject({
      wiki_page_max_content_bytes: 2048,
      email_restrictions_enabled: true,
      email_restrictions: '@example\\.com$',
      signup_enabled: false,
      created_at: settings.created_at,
    });
    expect(changed.updated_at > settings.updated_at).toBe(true);
    expect(await admin.getSettings()).toEqual(changed);
    expect(fake.state().application_settings).toMatchObject({ wiki_page_max_content_bytes: 2048 });
    // Unknown names are ignored, as the Service ignores unknown parameters; prototype keys reach nothing.
    const ignored = await put('/application/settings', {
      no_such_setting: 1,
      constructor: { x: 1 },
      id: 99,
      created_at: '2000-01-01T00:00:00.000Z',
    });
    expect(ignored.status).toBe(200);
    expect(ignored.body).not.toHaveProperty('no_such_setting');
    expect(ignored.body).toMatchObject({ id: 1, created_at: settings.created_at });
    expect(Object.hasOwn(ignored.body, 'constructor')).toBe(false);
    const poisoned = await send('/application/settings', {
      method: 'PUT',
      token: 'admin-token',
      headers: { 'content-type': 'application/json' },
      body: '{"__proto__": {"polluted": true}}',
    });
    expect(poisoned.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers 400 with a message when an enabled setting lacks what it requires, and changes nothing', async () => {
    const before = await as('admin-token').application.getSettings();
    const cases: [Record<string, unknown>, string][] = [
      [{ email_restrictions_enabled: true }, 'email_restrictions'],
      [
        { throttle_unauthenticated_api_enabled: true, throttle_unauthenticated_api_period_in_seconds: 60 },
        'throttle_unauthenticated_api_requests_per_period',
      ],
      [
        { throttle_unauthenticated_packages_api_enabled: true },
        'throttle_unauthenticated_packages_api_period_in_seconds',
      ],
      [{ throttle_unauthenticated_web_enabled: true }, 'throttle_unauthenticated_web_requests_per_period'],
      [{ unique_ips_limit_enabled: true, unique_ips_limit_time_window: 3600 }, 'unique_ips_limit_per_user'],
      [{ require_two_factor_authentication: true }, 'two_factor_grace_period'],
    ];
    for (const [body, missing] of cases) {
      const response = await put('/application/settings', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(response.body), JSON.stringify(body)).toContain(missing);
    }
    // The rule holds on the result: enabling is refused while the required setting is empty.
    expect(await put('/application/settings', { email_restrictions_enabled: true, email_restrictions: '' })).toEqual({
      status: 400,
      body: { message: '400 Bad request - email_restrictions_enabled requires email_restrictions' },
    });
    // A wrong type for a field of the settings object is a 400 too (the body types them as the settings object does).
    expect(await put('/application/settings', { signup_enabled: 'maybe' })).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - body field signup_enabled must be boolean' },
    });
    const both = await put('/application/settings', { repository_storages_weighted: [1], default_projects_limit: 1.5 });
    expect([both.status, JSON.stringify(both.body)]).toEqual([
      400,
      expect.stringMatching(/default_projects_limit must be integer.*repository_storages_weighted must be object/),
    ]);
    expect(await as('admin-token').application.getSettings()).toEqual(before);
    expect(
      (await put('/application/settings', { signup_enabled: false, default_projects_limit: 7 })).body,
    ).toMatchObject({ signup_enabled: false, default_projects_limit: 7 });
    const ok = await put('/application/settings', {
      require_two_factor_authentication: true,
      two_factor_grace_period: 48,
    });
    expect(ok.body).toMatchObject({ require_two_factor_authentication: true, two_factor_grace_period: 48 });
    // Disabling needs nothing.
    expect((await put('/application/settings', { unique_ips_limit_enabled: false })).status).toBe(200);
  });

  it('is for administrators only (403), and needs a token (401)', async () => {
    for (const token of ['owner-token', 'developer-token']) {
      expect(await failure(as(token).application.getSettings())).toEqual({
        status: 403,
        body: { message: '403 Forbidden' },
      });
      expect(
        (await failure(as(token).application.updateSettings({ body: { after_sign_up_text: 'Welcome' } }))).status,
      ).toBe(403);
    }
    expect((await failure(as().application.getSettings())).status).toBe(401);
    // An administrator acting as a user through sudo has the user's permissions.
    const sudo = as('admin-sudo-token', { sudo: 'dev' });
    expect((await failure(sudo.application.getSettings())).status).toBe(403);
  });
});

describe('dependencies', () => {
  it('lists a project’s dependencies with the package_manager filter and pagination', async () => {
    const dev = as('developer-token').dependencies;
    const all = await dev.listProjectDependencies({ path: { id: 'my-group/my-project' } });
    expect(all.map((d) => [d.name, d.package_manager])).toEqual([
      ['express', 'npm'],
      ['lodash', 'yarn'],
      ['rails', 'bundler'],
    ]);
    expect(all[0]).toEqual({
      name: 'express',
      version: '4.18.2',
      package_manager: 'npm',
      dependency_file_path: 'package-lock.json',
      licenses: [{ name: 'MIT', url: 'https://spdx.org/licenses/MIT.html' }],
      vulnerabilities: [
        {
          id: 1,
          name: 'CVE-2024-29041',
          severity: 'medium',
          url: 'https://service.example/my-group/my-project/-/security/vulnerabilities/1',
        },
      ],
    });
    expect(
      (await dev.listProjectDependencies({ path: { id: 1 }, query: { 'package_manager[]': ['yarn', 'bundler'] } })).map(
        (d) => d.name,
      ),
    ).toEqual(['lodash', 'rails']);
    expect(await dev.listProjectDependencies({ path: { id: 1 }, query: { 'package_manager[]': ['go'] } })).toEqual([]);
    const page = await dev.listProjectDependencies.withResponse({ path: { id: 1 }, query: { per_page: 2, page: 2 } });
    expect(page.data.map((d) => d.name)).toEqual(['rails']);
    expect(page.pagination).toMatchObject({ page: 2, perPage: 2, total: 3, totalPages: 2 });
  });

  it('shows vulnerabilities to Developers and up only; 403 without repository access; 404 unseen; 401 anonymous', async () => {
    expect(
      (await as('reporter-token').dependencies.listProjectDependencies({ path: { id: 1 } })).every(
        (d) => !('vulnerabilities' in d),
      ),
    ).toBe(true);
    expect(
      (await as('outsider-token').dependencies.listProjectDependencies({ path: { id: 1 } })).every(
        (d) => !('vulnerabilities' in d),
      ),
    ).toBe(true);
    expect(
      (await as('developer-token').dependencies.listProjectDependencies({ path: { id: 2 } })).map((d) => d.name),
    ).toEqual(['requests']);
    expect(await failure(as('guest-token').dependencies.listProjectDependencies({ path: { id: 2 } }))).toEqual({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await failure(as('outsider-token').dependencies.listProjectDependencies({ path: { id: 2 } }))).toEqual({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
    expect((await failure(as().dependencies.listProjectDependencies({ path: { id: 1 } }))).status).toBe(401);
  });
});

describe('product analytics', () => {
  const query = {
    query: {
      measures: ['TrackedEvents.count'],
      dimensions: ['TrackedEvents.docPath'],
      timeDimensions: [{ dimension: 'TrackedEvents.utcTime', granularity: 'day' }],
      limit: 10,
    },
    queryType: 'multi',
  };

  it('needs the query engine settings first (404 saying so), then loads, dry-runs and describes', async () => {
    const dev = as('developer-token').productAnalytics;
    const unset = await failure(dev.loadQuery({ path: { id: 1 }, body: query }));
    expect(unset).toEqual({
      status: 404,
      body: { message: '404 Not Found - the analytics query engine base URL and key application settings are not set' },
    });
    expect((await failure(dev.getMeta({ path: { id: 1 } }))).status).toBe(404);
    // A base URL alone is not enough.
    await as('admin-token').application.updateSettings({ body: { cube_api_base_url: 'https://cube.example' } });
    expect((await failure(dev.dryRunQuery({ path: { id: 1 }, body: query }))).status).toBe(404);
    await as('admin-token').application.updateSettings({ body: { cube_api_key: 'secret' } });

    expect(await dev.loadQuery({ path: { id: 1 }, body: query })).toEqual({ query: query.query, data: [] });
    expect(await dev.dryRunQuery({ path: { id: 1 }, body: query })).toEqual({ query: query.query, queryType: 'multi' });
    expect(await dev.getMeta({ path: { id: 1 } })).toEqual({
      members: [
        'TrackedEvents.count',
        'TrackedEvents.utcTime',
        'TrackedEvents.docPath',
        'Sessions.count',
        'Sessions.startAt',
      ],
    });
    const bad = await failure(
      dev.loadQuery({
        path: { id: 1 },
        body: {
          query: { measures: ['count'], timeDimensions: [{ dimension: 'Sessions.startAt' }, { dimension: 'utcTime' }] },
        },
      }),
    );
    expect(bad).toEqual({
      status: 400,
      body: { message: '400 Bad request - members need the TrackedEvents. or Sessions. prefix: count, utcTime' },
    });
    expect((await failure(as('outsider-token').productAnalytics.getMeta({ path: { id: 2 } }))).status).toBe(404);
    expect((await failure(as().productAnalytics.getMeta({ path: { id: 1 } }))).status).toBe(401);
  });
});
