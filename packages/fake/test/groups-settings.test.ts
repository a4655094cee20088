/**
 * The fake's group settings through the generated client, responses validated: hooks, push rules, LDAP and SAML links,
 * LDAP sync, and sharing a group with another (whose members then reach the group's private projects).
 */
import { describe, expect, it } from 'vitest';
import { defaultData } from '../src/index.ts';
import { failure, messageOf, status, useFake, type ServiceApi } from '../../../test/support/fake.ts';

/** The status of a refused call, and its body's message. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; message: unknown }> {
  const { status, body } = await failure(call);
  return { status, message: messageOf(body) };
}

const data = defaultData();
// A private group owned by the owner, a public team group whose only member is the outsider (a developer there), and a
// private crew group whose only member is the guest (a maintainer there).
data.groups.push({
  id: 3,
  name: 'Hidden',
  path: 'hidden',
  parent_id: null,
  visibility: 'private',
  members: [{ user_id: 2, access_level: 50 }],
});
data.groups.push({
  id: 4,
  name: 'Team',
  path: 'team',
  parent_id: null,
  visibility: 'public',
  members: [{ user_id: 7, access_level: 30 }],
});
data.groups.push({
  id: 5,
  name: 'Crew',
  path: 'crew',
  parent_id: null,
  visibility: 'private',
  members: [{ user_id: 6, access_level: 40 }],
});
const { fake, as, send } = useFake({ data });

describe('who may change a group', () => {
  const calls = {
    'update a hook': (api: ServiceApi, id: number) =>
      api.groups.updateHook({ path: { id, hook_id: 1 }, body: { url: 'https://hooks.example.com/x' } }),
    'read the push rule': (api: ServiceApi, id: number) => api.groups.getPushRule({ path: { id } }),
    'list LDAP links': (api: ServiceApi, id: number) => api.groups.listLdapGroupLinks({ path: { id } }),
    'sync with LDAP': (api: ServiceApi, id: number) => api.groups.syncLdap({ path: { id } }),
    'list SAML links': (api: ServiceApi, id: number) => api.groups.listSamlGroupLinks({ path: { id } }),
    'share the group': (api: ServiceApi, id: number) =>
      api.groups.share({ path: { id }, body: { group_id: 4, group_access: 10 } }),
  };
  it.each(Object.entries(calls))(
    '%s: 401 anonymous, 403 below Owner, 404 for a group the caller cannot see or that does not exist',
    async (_name, call) => {
      expect(await status(call(as(), 1))).toBe(401);
      for (const token of ['maintainer-token', 'developer-token', 'outsider-token'])
        expect(await status(call(as(token), 1))).toBe(403);
      expect(await refusal(call(as('outsider-token'), 3))).toEqual({ status: 404, message: '404 Group Not Found' });
      expect(await status(call(as('admin-token'), 999))).toBe(404);
    },
  );
});

describe('group hooks', () => {
  it('update changes the hook and never returns the token, which a new url clears; delete removes it, then 404', async () => {
    const api = as('owner-token');
    const hookOf = () => fake.state().group_hooks?.find((h) => h.id === 1);
    expect(hookOf()?.token).toBe('hook-secret');

    const same = await api.groups.updateHook({
      path: { id: 'my-group', hook_id: 1 },
      body: { url: 'https://hooks.example.com/my-group', tag_push_events: true, name: 'Tags too' },
    });
    expect(same).toMatchObject({
      id: 1,
      url: 'https://hooks.example.com/my-group',
      name: 'Tags too',
      push_events: true,
      tag_push_events: true,
    });
    expect('token' in same).toBe(false);
    expect(hookOf()?.token).toBe('hook-secret'); // same url: the secret stays

    const moved = await api.groups.updateHook({
      path: { id: 1, hook_id: 1 },
      body: { url: 'https://ci.example.com/hook', push_events: false },
    });
    expect(moved).toMatchObject({ url: 'https://ci.example.com/hook', push_events: false, name: 'Tags too' });
    expect('token' in moved).toBe(false);
    expect(hookOf()?.token).toBeNull(); // a new url without a token resets it

    await api.groups.updateHook({
      path: { id: 1, hook_id: 1 },
      body: { url: 'https://ci.example.com/hook', token: 'new-secret' },
    });
    expect(hookOf()?.token).toBe('new-secret');

    expect(
      await status(api.groups.updateHook({ path: { id: 1, hook_id: 1 }, body: { name: 'no url' } as never })),
    ).toBe(400);
    expect(
      await refusal(api.groups.updateHook({ path: { id: 1, hook_id: 2 }, body: { url: 'https://x.example.com' } })),
    ).toEqual({ status: 404, message: '404 Hook Not Found' });
    expect(
      await refusal(api.groups.updateHook({ path: { id: 2, hook_id: 1 }, body: { url: 'https://x.example.com' } })),
    ).toEqual({ status: 404, message: '404 Hook Not Found' }); // another group's hook

    expect(await status(as('developer-token').groups.deleteHook({ path: { id: 1, hook_id: 1 } }))).toBe(403);
    const removed = await api.groups.deleteHook.withResponse({ path: { id: 1, hook_id: 1 } });
    expect(removed.status).toBe(204);
    expect(fake.state().group_hooks).toEqual([]);
    expect(await status(api.groups.deleteHook({ path: { id: 1, hook_id: 1 } }))).toBe(404); // nothing further happens
  });
});

describe('group push rule', () => {
  it('none → 404; create with defaults (201); create again 409; get; update with the documented and the further attributes', async () => {
    const api = as('owner-token');
    const group = { path: { id: 'my-group' } };
    expect(await refusal(api.groups.getPushRule(group))).toEqual({ status: 404, message: '404 Push Rule Not Found' });
    expect(await status(api.groups.updatePushRule({ ...group, body: { member_check: true } }))).toBe(404);

    const created = await api.groups.createPushRule.withResponse({
      ...group,
      body: { deny_delete_tag: true, commit_message_regex: '^(feat|fix): ', max_file_size: 100 },
    });
    expect(created.status).toBe(201);
    expect(created.data).toEqual({
      id: 1,
      created_at: expect.any(String),
      deny_delete_tag: true,
      member_check: false,
      prevent_secrets: false,
      commit_committer_name_check: false,
      commit_committer_check: false,
      reject_unsigned_commits: false,
      commit_message_regex: '^(feat|fix): ',
      commit_message_negative_regex: null,
      branch_name_regex: null,
      author_email_regex: null,
      file_name_regex: null,
      max_file_size: 100,
    });
    expect(await status(api.groups.createPushRule({ ...group, body: {} }))).toBe(409);
    expect(await api.groups.getPushRule(group)).toEqual(created.data);

    const updated = await api.groups.updatePushRule({
      ...group,
      body: { member_check: true, deny_delete_tag: false, branch_name_regex: '^(feature|fix)/', max_file_size: 5 },
    });
    expect(updated).toMatchObject({
      member_check: true,
      deny_delete_tag: false,
      branch_name_regex: '^(feature|fix)/',
      max_file_size: 5,
      commit_message_regex: '^(feat|fix): ',
    });
    expect(await api.groups.getPushRule(group)).toEqual(updated);
    expect(await status(api.groups.updatePushRule({ ...group, body: { max_file_size: 'big' } as never }))).toBe(400);
    expect((await api.groups.getPushRule(group)).max_file_size).toBe(5);

    // The subgroup has its own (none); its owner inherits Owner from my-group.
    expect(await status(api.groups.getPushRule({ path: { id: 'my-group/sub' } }))).toBe(404);
    expect((await as('admin-token').groups.createPushRule({ path: { id: 2 } })).member_check).toBe(false);
  });
});

describe('push rule update: its open body is checked', () => {
  const bodies: [string, Record<string, unknown>][] = [
    ['a flag that is not one', { member_check: 'maybe' }],
    ['a flag as a list', { deny_delete_tag: [true] }],
    ['an expression that is not a string', { commit_message_regex: { source: 'x' } }],
    ['a negative size', { max_file_size: -1 }],
    ['a fractional size', { max_file_size: 1.5 }],
    ['a size past the safe integers', { max_file_size: 1e308 }],
    ['a size that is not a number', { max_file_size: '12abc' }],
  ];
  it.each(bodies)('%s: 400, the rule unchanged', async (_name, body) => {
    const api = as('owner-token');
    const before = await api.groups.createPushRule({
      path: { id: 1 },
      body: { member_check: true, max_file_size: 10 },
    });
    const response = await send('/groups/1/push_rule', { method: 'PUT', token: 'owner-token', json: body });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/^400 /);
    expect(await api.groups.getPushRule({ path: { id: 1 } })).toEqual(before);
  });

  it('flags and sizes from a form or the query, as the Service reads them', async () => {
    await as('owner-token').groups.createPushRule({ path: { id: 1 } });
    const response = await send('/groups/1/push_rule?prevent_secrets=true&max_file_size=25', {
      method: 'PUT',
      token: 'owner-token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'reject_unsigned_commits=1&file_name_regex=%5C.exe%24',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      prevent_secrets: true,
      max_file_size: 25,
      reject_unsigned_commits: true,
      file_name_regex: '\\.exe$',
    });
  });
});

describe('LDAP group links', () => {
  it('list, create by cn or filter, 409 on a duplicate, delete by body, by query, by cn and by provider and cn', async () => {
    const api = as('owner-token');
    const group = { path: { id: 1 } };
    expect(await api.groups.listLdapGroupLinks(group)).toEqual([
      { cn: 'developers', group_access: 30, provider: 'ldapmain' },
    ]);

    const byCn = await api.groups.createLdapGroupLink.withResponse({
      ...group,
      body: { cn: 'admins', group_access: 40, provider: 'ldapmain' },
    });
    expect(byCn.status).toBe(201);
    expect(byCn.data).toEqual({ cn: 'admins', group_access: 40, provider: 'ldapmain' });
    const filter = '(memberOf=cn=ops,ou=groups,dc=example,dc=com)';
    expect(
      await api.groups.createLdapGroupLink({ ...group, body: { filter, group_access: 20, provider: 'ldapmain' } }),
    ).toEqual({ filter, group_access: 20, provider: 'ldapmain' });
    expect(
      await refusal(
        api.groups.createLdapGroupLink({ ...group, body: { cn: 'admins', group_access: 30, provider: 'ldapmain' } }),
      ),
    ).toEqual({ status: 409, message: expect.stringContaining('409 Conflict') });
    expect(
      await status(
        api.groups.createLdapGroupLink({
          ...group,
          body: { cn: 'x', filter: '(uid=x)', group_access: 30, provider: 'ldapmain' } as never,
        }),
      ),
    ).toBe(400); // not both
    expect(
      await api.groups.createLdapGroupLink({
        ...group,
        body: { cn: 'admins', group_access: 30, provider: 'ldapsecondary' },
      }),
    ).toMatchObject({ provider: 'ldapsecondary' });

    const page = await api.groups.listLdapGroupLinks.withResponse({ ...group, query: { per_page: 2, page: 2 } });
    expect(page.data.map((l) => l.cn ?? l.filter)).toEqual([filter, 'admins']);
    expect(page.rawHeaders.get('x-total')).toBe('4');
    expect(page.headers['x-page']).toBe('2');

    expect(
      (await api.groups.deleteLdapGroupLink.withResponse({ ...group, body: { filter, provider: 'ldapmain' } })).status,
    ).toBe(204);
    expect(await status(api.groups.deleteLdapGroupLink({ ...group, body: { filter, provider: 'ldapmain' } }))).toBe(
      404,
    );
    // The same parameters in the query string.
    const viaQuery = await send('/groups/1/ldap_group_links?cn=developers&provider=ldapmain', {
      method: 'DELETE',
      token: 'owner-token',
    });
    expect(viaQuery.status).toBe(204);
    expect(
      (
        await api.groups.deleteLdapGroupLinkByProvider.withResponse({
          path: { id: 1, provider: 'ldapsecondary', cn: 'admins' },
        })
      ).status,
    ).toBe(204);
    expect(
      await status(
        api.groups.deleteLdapGroupLinkByProvider({ path: { id: 1, provider: 'ldapsecondary', cn: 'admins' } }),
      ),
    ).toBe(404);
    expect((await api.groups.deleteLdapGroupLinkByCn.withResponse({ path: { id: 1, cn: 'admins' } })).status).toBe(204);
    expect(await refusal(api.groups.deleteLdapGroupLinkByCn({ path: { id: 1, cn: 'admins' } }))).toEqual({
      status: 404,
      message: '404 LDAP Group Link Not Found',
    });
    expect(await api.groups.listLdapGroupLinks(group)).toEqual([]);
  });

  it('sync: 202 for owners and administrators', async () => {
    expect((await as('owner-token').groups.syncLdap.withResponse({ path: { id: 'my-group' } })).status).toBe(202);
    expect((await as('admin-token').groups.syncLdap.withResponse({ path: { id: 3 } })).status).toBe(202);
  });
});

describe('SAML group links', () => {
  it('create (201) → list → get → 409 on the same name → delete (204) → 404', async () => {
    const api = as('owner-token');
    const created = await api.groups.createSamlGroupLink.withResponse({
      path: { id: 1 },
      body: { saml_group_name: 'Maintainers', access_level: 40, member_role_id: 12 },
    });
    expect(created.status).toBe(201);
    expect(created.data).toEqual({ name: 'Maintainers', access_level: 40, member_role_id: 12 });
    expect(await api.groups.listSamlGroupLinks({ path: { id: 1 } })).toEqual([
      { name: 'Engineering', access_level: 30, member_role_id: null },
      created.data,
    ]);
    expect(await api.groups.getSamlGroupLink({ path: { id: 1, saml_group_name: 'Maintainers' } })).toEqual(
      created.data,
    );
    expect(
      await status(
        api.groups.createSamlGroupLink({ path: { id: 1 }, body: { saml_group_name: 'Maintainers', access_level: 30 } }),
      ),
    ).toBe(409);
    expect(
      await status(api.groups.createSamlGroupLink({ path: { id: 1 }, body: { saml_group_name: 'No level' } as never })),
    ).toBe(400);
    expect(await status(api.groups.getSamlGroupLink({ path: { id: 2, saml_group_name: 'Maintainers' } }))).toBe(404); // links are per group
    expect(
      (await api.groups.deleteSamlGroupLink.withResponse({ path: { id: 1, saml_group_name: 'Maintainers' } })).status,
    ).toBe(204);
    expect(await refusal(api.groups.getSamlGroupLink({ path: { id: 1, saml_group_name: 'Maintainers' } }))).toEqual({
      status: 404,
      message: '404 SAML Group Link Not Found',
    });
    expect(await status(api.groups.deleteSamlGroupLink({ path: { id: 1, saml_group_name: 'Maintainers' } }))).toBe(404);
  });
});

describe('sharing a group', () => {
  it("share (200, the group with shared_with_groups) gives the other group's members access up to group_access; unshare (204) takes it back", async () => {
    const outsider = as('outsider-token'); // a developer of the team group
    const secretIds = async () => (await outsider.groups.listProjects({ path: { id: 1 } })).map((p) => p.id);
    expect(await secretIds()).toEqual([1]);

    const shared = await as('owner-token').groups.share.withResponse({
      path: { id: 1 },
      body: { group_id: 4, group_access: 20 },
    });
    expect(shared.status).toBe(200);
    expect(shared.data).toMatchObject({
      id: 1,
      full_path: 'my-group',
      shared_with_groups: [
        { group_id: 4, group_name: 'Team', group_full_path: 'team', group_access_level: 20, expires_at: null },
      ],
    });
    expect(await secretIds()).toEqual([2, 1]); // the private project, now at Reporter
    expect(
      (await outsider.groups.listProjects({ path: { id: 1 }, query: { min_access_level: 30 } })).map((p) => p.id),
    ).toEqual([]); // capped at group_access
    // The invited group's members are among the group's and its projects' members/all, at most at group_access.
    const level = async (call: Promise<{ id: number; access_level: number }[]>) =>
      (await call).find((m) => m.id === 7)?.access_level;
    expect(await level(as('owner-token').members.listAllGroupMembers({ path: { id: 1 } }))).toBe(20);
    expect(await level(as('developer-token').members.listAllProjectMembers({ path: { id: 1 } }))).toBe(20);
    expect((await as('owner-token').members.listGroupMembers({ path: { id: 1 } })).map((m) => m.id)).toEqual([2]); // direct members only
    expect(
      await status(as('owner-token').groups.share({ path: { id: 1 }, body: { group_id: 4, group_access: 30 } })),
    ).toBe(409);
    expect(
      await status(as('owner-token').groups.share({ path: { id: 1 }, body: { group_id: 999, group_access: 30 } })),
    ).toBe(404);
    expect(await status(as('owner-token').groups.share({ path: { id: 1 }, body: { group_id: 4 } as never }))).toBe(400);

    expect(await status(as('developer-token').groups.unshare({ path: { id: 1, group_id: 4 } }))).toBe(403);
    expect((await as('owner-token').groups.unshare.withResponse({ path: { id: 1, group_id: 4 } })).status).toBe(204);
    expect(await secretIds()).toEqual([1]);
    expect(await level(as('owner-token').members.listAllGroupMembers({ path: { id: 1 } }))).toBeUndefined();
    expect(await status(as('owner-token').groups.unshare({ path: { id: 1, group_id: 4 } }))).toBe(404);
  });

  it("members of a private invited group show only to its members, the shared group's and administrators", async () => {
    expect(
      await status(as('owner-token').groups.share({ path: { id: 1 }, body: { group_id: 5, group_access: 30 } })),
    ).toBe(404); // a group the owner cannot see
    await as('admin-token').groups.share({ path: { id: 1 }, body: { group_id: 5, group_access: 30 } }); // Crew: private, the guest as maintainer
    const guest = async (token: string) =>
      (await as(token).members.listAllGroupMembers({ path: { id: 1 } })).find((m) => m.id === 6)?.access_level;
    expect(await guest('owner-token')).toBe(30); // a member of the shared group
    expect(await guest('guest-token')).toBe(30); // a member of the invited group
    expect(await guest('admin-token')).toBe(30);
    expect(await guest('outsider-token')).toBeUndefined();
    expect(await status(as('outsider-token').members.getInheritedGroupMember({ path: { id: 1, user_id: 6 } }))).toBe(
      404,
    );
    expect(
      (await as('owner-token').members.getInheritedGroupMember({ path: { id: 'my-group/sub', user_id: 6 } }))
        .access_level,
    ).toBe(30); // through the parent's share
  });

  it('an expired share gives nothing', async () => {
    await as('owner-token').groups.share({
      path: { id: 1 },
      body: { group_id: 4, group_access: 20, expires_at: '2025-03-10' },
    });
    expect((await as('outsider-token').groups.listProjects({ path: { id: 1 } })).map((p) => p.id)).toEqual([1]);
    await as('owner-token').groups.unshare({ path: { id: 1, group_id: 4 } });
    await as('owner-token').groups.share({
      path: { id: 1 },
      body: { group_id: 4, group_access: 20, expires_at: '2025-03-11' },
    }); // the fake's day: still valid
    expect((await as('outsider-token').groups.listProjects({ path: { id: 1 } })).map((p) => p.id)).toEqual([2, 1]);
  });
});
