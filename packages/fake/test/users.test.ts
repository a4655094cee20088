/** The fake's users and tokens through the generated client, with responses validated against the contract. */
import { describe, expect, it } from 'vitest';
import { defaultData } from '../src/index.ts';
import { failure, messageOf, useFake, withFake } from '../../../test/support/fake.ts';

const { fake, as, send } = useFake();

const newUser = {
  email: 'alice@example.com',
  username: 'alice',
  name: 'Alice Smith',
  password: 'correct horse battery',
};

describe('users', () => {
  it('an anonymous caller lists users and gets the public view; the single-user read needs a signed-in caller', async () => {
    const anonymous = await send('/users?username=dev');
    expect(anonymous.status).toBe(200);
    const users = (await anonymous.json()) as Record<string, unknown>[];
    expect(users.length).toBeGreaterThan(0);
    for (const user of users) expect(user).not.toHaveProperty('is_admin');
    expect((await send(`/users/${users[0]!.id}`)).status).toBe(401);
    expect((await send('/users', { token: 'no-such-token' })).status).toBe(401);
  });

  it('create (administrators only) → get in both views → list; invalid and taken attributes refused, undocumented identity attributes derived', async () => {
    const admin = as('admin-token');
    expect((await failure(as('owner-token').users.createUser({ body: newUser }))).status).toBe(403);
    expect((await failure(admin.users.createUser({ body: { ...newUser, email: 'not-an-email' } }))).status).toBe(400);
    // Neither password nor reset_password nor force_random_password: the schema's rule.
    expect(
      (
        await failure(
          admin.users.createUser({ body: { email: 'bob@example.com', username: 'bob', name: 'Bob' } as never }),
        )
      ).status,
    ).toBe(400);

    const created = (await admin.users.createUser({ body: { ...newUser, bio: 'Hi', organization: 'ACME' } })) as Record<
      string,
      unknown
    >;
    expect(created).toMatchObject({
      id: 10,
      username: 'alice',
      name: 'Alice Smith',
      state: 'active',
      email: 'alice@example.com',
      bio: 'Hi',
      organization: 'ACME',
      is_admin: false,
      two_factor_enabled: false,
      private_profile: false,
    });
    expect(created.created_by).toMatchObject({ id: 1, username: 'root' });
    expect(created).not.toHaveProperty('password');
    expect(
      (
        (await admin.users.createUser({
          body: { email: 'carol@example.com', username: 'carol', name: 'Carol', reset_password: true },
        })) as { bio: string }
      ).bio,
    ).toBe('');

    const taken = await failure(
      admin.users.createUser({ body: { ...newUser, username: 'ALICE', email: 'other@example.com' } }),
    );
    expect([taken.status, taken.body]).toEqual([409, { message: 'Username has already been taken' }]);
    const mail = await failure(
      admin.users.createUser({ body: { ...newUser, username: 'alice2', email: 'Alice@Example.com' } }),
    );
    expect([mail.status, mail.body]).toEqual([409, { message: 'Email has already been taken' }]);

    const byAdmin = await admin.users.getUser({ path: { id: 10 } });
    expect(byAdmin).toMatchObject({ id: 10, email: 'alice@example.com', is_admin: false, bio: 'Hi' });
    const byUser = await as('developer-token').users.getUser({ path: { id: 10 } });
    expect(byUser).toMatchObject({
      id: 10,
      username: 'alice',
      bio: 'Hi',
      organization: 'ACME',
      followers: 0,
      bot: false,
    });
    expect(byUser).not.toHaveProperty('email');
    expect(byUser).not.toHaveProperty('is_admin');
    expect((await admin.users.listUsers({ query: { username: 'alice' } })).map((u) => u.id)).toEqual([10]);
    expect(await failure(admin.users.getUser({ path: { id: 999 } }))).toEqual({
      status: 404,
      body: { message: '404 User Not Found' },
    });
    expect(fake.state().users.find((u) => u.id === 10)).not.toHaveProperty('password');

    // The documented example body (only the password rules are documented): identity attributes are derived.
    const derived = (await admin.users.createUser({
      body: { password: 'Correct-Horse-Battery-42', private_profile: false, bio: 'Backend developer' },
    })) as Record<string, unknown>;
    expect(derived).toMatchObject({
      id: 12,
      username: 'user12',
      name: 'user12',
      email: 'user12@users.service.example',
      bio: 'Backend developer',
    });
  });

  it('an e-mail or username of a megabyte is refused at once (no backtracking check)', async () => {
    const admin = as('admin-token');
    // The fake runs in this process: its CPU, not the wall clock, shows the work (a backtracking check takes minutes).
    const cpu = process.cpuUsage();
    const dots = await failure(admin.users.createUser({ body: { ...newUser, email: `a@${'.'.repeat(1_000_000)} ` } }));
    const name = await failure(admin.users.createUser({ body: { ...newUser, username: `${'a'.repeat(1_000_000)}!` } }));
    expect([dots.status, name.status, messageOf(dots.body), messageOf(name.body)]).toEqual([
      400,
      400,
      '400 Bad request - email is invalid',
      '400 Bad request - username is invalid',
    ]);
    const { user, system } = process.cpuUsage(cpu);
    expect((user + system) / 1e6).toBeLessThan(5);
  });

  it('new users take the instance defaults for private profiles and external users', async () => {
    const data = defaultData();
    data.application_settings = { user_defaults_to_private_profile: true, user_default_external: true };
    await withFake(data, async (other) => {
      const admin = other('admin-token').users;
      expect(await admin.createUser({ body: newUser })).toMatchObject({ private_profile: true, external: true });
      expect(
        await admin.createUser({
          body: { ...newUser, username: 'bob', email: 'bob@example.com', private_profile: false },
        }),
      ).toMatchObject({ private_profile: false, external: true });
    });
  });

  it('activities: oldest first, from six months ago by default, private profiles for administrators only, paginated', async () => {
    const admin = await as('admin-token').users.listActivities();
    // gus has a private profile; rita was last active more than six months ago; nobody never; the caller is active today.
    expect(admin.map((a) => [a.username, a.last_activity_on])).toEqual([
      ['mia', '2024-12-20'],
      ['gus', '2025-02-14'],
      ['olivia', '2025-03-03'],
      ['dev', '2025-03-07'],
      ['root', '2025-03-11'],
    ]);
    const dev = as('developer-token').users;
    expect((await dev.listActivities()).map((a) => a.username)).toEqual(['mia', 'olivia', 'root', 'dev']);
    expect((await dev.listActivities({ query: { from: '2025-03-05' } })).map((a) => a.username)).toEqual([
      'root',
      'dev',
    ]);
    expect((await dev.listActivities({ query: { from: '2024-01-01' } })).map((a) => a.username)).toEqual([
      'rita',
      'mia',
      'olivia',
      'root',
      'dev',
    ]);
    const page = await dev.listActivities.withResponse({ query: { per_page: 3, page: 2 } });
    expect(page.data.map((a) => a.username)).toEqual(['dev']);
    expect([page.pagination.page, page.pagination.total, page.pagination.nextPage]).toEqual([2, 4, undefined]);
    expect(page.headers.Link).toContain('rel="first"');
    expect((await failure(dev.listActivities({ query: { from: 'yesterday' } }))).status).toBe(400);
  });

  it('disable two-factor: administrators only, not for administrators themselves, 400 when not enabled, then disabled', async () => {
    const admin = as('admin-token').users;
    expect((await failure(as('owner-token').users.disableTwoFactor({ path: { id: 3 } }))).status).toBe(403);
    expect((await failure(admin.disableTwoFactor({ path: { id: 999 } }))).status).toBe(404);
    expect((await failure(admin.disableTwoFactor({ path: { id: 1 } }))).status).toBe(403);
    expect(await admin.getUser({ path: { id: 3 } })).toMatchObject({ two_factor_enabled: true });
    await admin.disableTwoFactor({ path: { id: 3 } });
    expect(await admin.getUser({ path: { id: 3 } })).toMatchObject({ two_factor_enabled: false });
    const again = await failure(admin.disableTwoFactor({ path: { id: 3 } }));
    expect(again).toEqual({
      status: 400,
      body: { message: '400 Bad request - Two-factor authentication is not enabled for this user' },
    });
    expect((await failure(admin.disableTwoFactor({ path: { id: 4 } }))).status).toBe(400);
  });

  it('avatar: stored and reflected in avatar_url everywhere; above 200 KiB or not a file is 400', async () => {
    const dev = as('developer-token');
    expect((await dev.users.getUser({ path: { id: 4 } })).avatar_url).toBeNull();
    const image = new File([new Uint8Array(1024).fill(7)], 'me.png', { type: 'image/png' });
    const { avatar_url } = await dev.users.uploadAvatar({ body: { avatar: image } });
    expect(avatar_url).toBe('https://service.example/uploads/-/system/user/avatar/4/me.png');
    expect((await as('admin-token').users.getUser({ path: { id: 4 } })).avatar_url).toBe(avatar_url);
    expect((await dev.members.getProjectMember({ path: { id: 1, user_id: 4 } })).avatar_url).toBe(avatar_url);
    expect((await dev.users.listUsers({ query: { username: 'dev' } }))[0]?.avatar_url).toBe(avatar_url);
    expect(Buffer.from(fake.state().users.find((u) => u.id === 4)!.avatar!.content, 'base64')).toEqual(
      Buffer.alloc(1024, 7),
    );
    expect(
      (await dev.users.uploadAvatar({ body: { avatar: new File([new Uint8Array(204800)], 'max.png') } })).avatar_url,
    ).toMatch(/\/max\.png$/);
    const big = await failure(
      dev.users.uploadAvatar({ body: { avatar: new File([new Uint8Array(204801)], 'big.png') } }),
    );
    expect(big.status).toBe(400);
    expect(String(messageOf(big.body))).toMatch(/avatar is too big/);
    const form = new FormData();
    form.set('avatar', 'not a file');
    const text = await send('/user/avatar', { method: 'PUT', token: 'developer-token', body: form });
    expect([text.status, ((await text.json()) as { message: string }).message]).toEqual([
      400,
      '400 Bad request - body field avatar must be a file',
    ]);
  });
});

describe('tokens', () => {
  it('impersonation: create (token shown once) → authenticates → get without the secret → revoke → 401', async () => {
    const admin = as('admin-token').users;
    expect(
      (
        await failure(
          as('owner-token').users.createImpersonationToken({
            path: { user_id: 5 },
            body: { name: 'x', expires_at: '2025-12-31', scopes: ['api'] },
          }),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await failure(
          admin.createImpersonationToken({
            path: { user_id: 999 },
            body: { name: 'x', expires_at: '2025-12-31', scopes: ['api'] },
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await failure(
          admin.createImpersonationToken({
            path: { user_id: 5 },
            body: { name: 'x', expires_at: '2025-12-31', scopes: ['sudo' as 'api'] },
          }),
        )
      ).status,
    ).toBe(400);

    const created = await admin.createImpersonationToken({
      path: { user_id: 5 },
      body: { name: 'Debug', expires_at: '2025-06-30', scopes: ['api', 'read_user'] },
    });
    expect(created).toMatchObject({
      id: 5,
      name: 'Debug',
      user_id: 5,
      scopes: ['api', 'read_user'],
      active: true,
      revoked: false,
      impersonation: true,
      expires_at: '2025-06-30',
    });
    expect(created.token).toMatch(/^[0-9a-f]{20}$/);
    // The token is rita's credential now: she is not an administrator.
    const rita = as(created.token);
    expect(await rita.users.getUser({ path: { id: 1 } })).not.toHaveProperty('email');
    expect((await failure(rita.users.createUser({ body: newUser }))).status).toBe(403);
    expect((await rita.users.createPersonalAccessToken({ body: { name: 'k8s', scopes: ['k8s_proxy'] } })).user_id).toBe(
      5,
    );

    const read = await admin.getImpersonationToken({ path: { user_id: 5, impersonation_token_id: created.id } });
    const { token: _secret, ...record } = created;
    expect(read).toEqual(record);
    expect(read).not.toHaveProperty('token');
    expect(
      (await failure(admin.getImpersonationToken({ path: { user_id: 4, impersonation_token_id: created.id } }))).status,
    ).toBe(404);
    expect(await failure(admin.getImpersonationToken({ path: { user_id: 5, impersonation_token_id: 999 } }))).toEqual({
      status: 404,
      body: { message: '404 Impersonation Token Not Found' },
    });
    expect(
      (
        await failure(
          as('owner-token').users.getImpersonationToken({ path: { user_id: 5, impersonation_token_id: created.id } }),
        )
      ).status,
    ).toBe(403);
    // The data set's impersonation token (id 1, the developer's).
    expect(await admin.getImpersonationToken({ path: { user_id: 4, impersonation_token_id: 1 } })).toMatchObject({
      name: 'Support session',
      active: true,
      impersonation: true,
    });

    expect(
      (
        await failure(
          as('owner-token').users.revokeImpersonationToken({
            path: { user_id: 5, impersonation_token_id: created.id },
          }),
        )
      ).status,
    ).toBe(403);
    await admin.revokeImpersonationToken({ path: { user_id: 5, impersonation_token_id: created.id } });
    expect(
      await admin.getImpersonationToken({ path: { user_id: 5, impersonation_token_id: created.id } }),
    ).toMatchObject({ revoked: true, active: false });
    expect(await failure(rita.users.getUser({ path: { id: 1 } }))).toEqual({
      status: 401,
      body: { message: '401 Unauthorized' },
    });
    expect(
      (await failure(admin.revokeImpersonationToken({ path: { user_id: 5, impersonation_token_id: 999 } }))).status,
    ).toBe(404);
  });

  it.each([
    ['a date', '2026-07-01', '2026-07-01'],
    ['an extended date-time (as SDKs send it)', '2026-07-02T00:00:00.000Z', '2026-07-02'],
    ['a basic ISO 8601 date-time', '20260703T120000Z', '2026-07-03'],
  ])('impersonation: an expiry sent as %s expires on its day', async (_form, sent, day) => {
    const created = await as('admin-token').users.createImpersonationToken({
      path: { user_id: 5 },
      body: { name: 'SDK', expires_at: sent, scopes: ['api'] },
    });
    expect(created.expires_at).toBe(day);
  });

  it('personal access tokens: an administrator creates one for a user (default lifetime), the caller a k8s_proxy one', async () => {
    const admin = as('admin-token').users;
    expect(
      (
        await failure(
          as('owner-token').users.createUserPersonalAccessToken({
            path: { user_id: 5 },
            body: { name: 'ci', scopes: ['api'] },
          }),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await failure(
          admin.createUserPersonalAccessToken({ path: { user_id: 999 }, body: { name: 'ci', scopes: ['api'] } }),
        )
      ).status,
    ).toBe(404);
    const pat = await admin.createUserPersonalAccessToken({
      path: { user_id: 3 },
      body: { name: 'ci', scopes: ['api', 'read_repository'] },
    });
    expect(pat).toMatchObject({
      name: 'ci',
      user_id: 3,
      scopes: ['api', 'read_repository'],
      active: true,
      revoked: false,
      expires_at: '2026-03-11',
    });
    expect(pat).not.toHaveProperty('impersonation');
    // mia's token: her runners are those of the projects she maintains.
    expect((await as(pat.token).runners.listRunners()).map((r) => r.id)).toEqual([5, 7]);
    const dated = await admin.createUserPersonalAccessToken({
      path: { user_id: 3 },
      body: { name: 'short', scopes: ['read_api'], expires_at: '2025-04-01' },
    });
    expect(dated.expires_at).toBe('2025-04-01');
    expect(dated.token).not.toBe(pat.token);

    const own = as('developer-token').users;
    expect(
      (await failure(own.createPersonalAccessToken({ body: { name: 'x', scopes: ['api' as 'k8s_proxy'] } }))).status,
    ).toBe(400);
    expect((await failure(own.createPersonalAccessToken({ body: { scopes: ['k8s_proxy'] } as never }))).status).toBe(
      400,
    );
    const k8s = await own.createPersonalAccessToken({ body: { name: 'k8s', scopes: ['k8s_proxy'] } });
    expect(k8s).toMatchObject({
      name: 'k8s',
      user_id: 4,
      scopes: ['k8s_proxy'],
      expires_at: '2025-03-11',
      active: true,
    });
    expect(
      (await own.createPersonalAccessToken({ body: { name: 'long', scopes: ['k8s_proxy'], expires_at: '2030-01-01' } }))
        .expires_at,
    ).toBe('2026-03-11');
    expect(
      (
        await own.createPersonalAccessToken({
          body: { name: 'short', scopes: ['k8s_proxy'], expires_at: '2025-03-20' },
        })
      ).expires_at,
    ).toBe('2025-03-20');
    // The secret is kept as a credential, never shown again.
    expect(fake.state().tokens.filter((t) => t.user_id === 4 && t.name === 'k8s')).toEqual([
      expect.objectContaining({ token: k8s.token, kind: 'personal', revoked: false }),
    ]);
  });

  it('revoked and expired tokens of the data set do not authenticate', async () => {
    for (const token of ['revoked-token', 'expired-token']) {
      expect(await failure(as(token).users.getUser({ path: { id: 4 } }))).toEqual({
        status: 401,
        body: { message: '401 Unauthorized' },
      });
    }
    expect((await as('developer-token').users.getUser({ path: { id: 4 } })).username).toBe('dev');
  });
});
