/** Group badges, billable members and group approval rules on the fake, through the generated client. */
import { describe, expect, it } from 'vitest';
import { defaultData, type FakeData } from '../src/index.ts';
import { failure, useFake } from '../../../test/support/fake.ts';

/** The default data set plus an empty top-level group (3, no projects, owned by olivia) and a member of Sub. */
function data(): FakeData {
  const base = defaultData();
  base.groups.push({
    id: 3,
    name: 'Empty',
    path: 'empty',
    parent_id: null,
    visibility: 'private',
    members: [{ user_id: 2, access_level: 50 }],
  });
  base.groups.find((g) => g.id === 2)!.members.push({ user_id: 7, access_level: 30 });
  return base;
}

const { fake, as, send } = useFake({ data: data() });

describe('group badges', () => {
  const group = { id: 'my-group' };
  const head = () => fake.state().projects.find((p) => p.id === 1)!.repository!.branches.main!;

  it('renders every placeholder from the oldest project of the group', async () => {
    const all =
      '%{project_path}|%{project_title}|%{project_name}|%{project_id}|%{default_branch}|%{commit_sha}|%{unknown}';
    const rendered = await as('outsider-token').badges.renderGroupBadge({
      path: group,
      query: { link_url: `https://x.example/${all}`, image_url: 'https://x.example/%{project_id}.svg' },
    });
    expect(rendered).toEqual({
      link_url: `https://x.example/${all}`,
      image_url: 'https://x.example/%{project_id}.svg',
      rendered_link_url: `https://x.example/my-group/my-project|My Project|my-project|1|main|${head()}|%{unknown}`,
      rendered_image_url: 'https://x.example/1.svg',
    });
    expect(head()).toMatch(/^[0-9a-f]{40}$/);
    const missing = await send('/groups/1/badges/render?link_url=x', { token: 'owner-token' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(await missing.json())).toContain('image_url');
    // The subgroup's own oldest project is Tools (3); a group with no project returns the URLs unchanged.
    const sub = await as('owner-token').badges.renderGroupBadge({
      path: { id: 2 },
      query: { link_url: '%{project_path}', image_url: '%{project_id}' },
    });
    expect([sub.rendered_link_url, sub.rendered_image_url]).toEqual(['my-group/sub/tools', '3']);
    const empty = await as('owner-token').badges.renderGroupBadge({
      path: { id: 'empty' },
      query: { link_url: 'https://x.example/%{project_path}', image_url: '%{commit_sha}' },
    });
    expect([empty.rendered_link_url, empty.rendered_image_url]).toEqual([
      'https://x.example/%{project_path}',
      '%{commit_sha}',
    ]);
  });

  it('create → list (name filter, pagination) → get → update → delete → 404, by the group owner', async () => {
    const owner = as('owner-token').badges;
    const created = await owner.createGroupBadge({
      path: group,
      body: {
        link_url: 'https://ci.example/%{project_path}',
        image_url: 'https://ci.example/%{project_id}/%{default_branch}.svg',
      },
    });
    expect(created).toEqual({
      id: 3,
      name: null,
      link_url: 'https://ci.example/%{project_path}',
      image_url: 'https://ci.example/%{project_id}/%{default_branch}.svg',
      rendered_link_url: 'https://ci.example/my-group/my-project',
      rendered_image_url: 'https://ci.example/1/main.svg',
      kind: 'group',
    });
    expect((await owner.listGroupBadges({ path: group })).map((b) => b.id)).toEqual([1, 2, 3]);
    expect((await owner.listGroupBadges({ path: group, query: { name: 'Coverage' } })).map((b) => b.id)).toEqual([2]);
    expect(await owner.listGroupBadges({ path: group, query: { name: 'coverage' } })).toEqual([]); // case-sensitive
    const second = await owner.listGroupBadges.withResponse({ path: group, query: { per_page: 2, page: 2 } });
    expect(second.data.map((b) => b.id)).toEqual([3]);
    expect(second.pagination).toMatchObject({ page: 2, perPage: 2, total: 3, totalPages: 2 });
    expect(second.rawHeaders.get('link')).toContain('rel="prev"');
    expect(second.rawHeaders.get('x-next-page')).toBe('');

    const updated = await owner.updateGroupBadge({
      path: { ...group, badge_id: 3 },
      body: { name: 'Docs', link_url: 'https://docs.example/%{project_name}' },
    });
    expect(updated).toMatchObject({
      name: 'Docs',
      link_url: 'https://docs.example/%{project_name}',
      rendered_link_url: 'https://docs.example/my-project',
      image_url: created.image_url,
    });
    expect(await owner.getGroupBadge({ path: { ...group, badge_id: 3 } })).toEqual(updated);
    expect(await owner.deleteGroupBadge({ path: { ...group, badge_id: 3 } })).toBeUndefined();
    expect(await failure(owner.getGroupBadge({ path: { ...group, badge_id: 3 } }))).toEqual({
      status: 404,
      body: { message: '404 Badge Not Found' },
    });
    expect((await failure(owner.deleteGroupBadge({ path: { ...group, badge_id: 3 } }))).status).toBe(404);
    // A badge of another group is not found through this one.
    const other = await owner.createGroupBadge({
      path: { id: 'empty' },
      body: { link_url: 'https://a.example', image_url: 'https://a.example/i.svg', name: 'A' },
    });
    expect((await failure(owner.getGroupBadge({ path: { ...group, badge_id: other.id } }))).status).toBe(404);
  });

  it('refuses writes to non-owners (403), hides private groups (404) and needs a token (401)', async () => {
    const body = { link_url: 'https://a.example', image_url: 'https://a.example/i.svg' };
    for (const token of ['maintainer-token', 'developer-token', 'outsider-token']) {
      expect((await failure(as(token).badges.createGroupBadge({ path: group, body }))).status).toBe(403);
      expect(
        (await failure(as(token).badges.updateGroupBadge({ path: { ...group, badge_id: 1 }, body: { name: 'x' } })))
          .status,
      ).toBe(403);
      expect((await failure(as(token).badges.deleteGroupBadge({ path: { ...group, badge_id: 1 } }))).status).toBe(403);
    }
    expect((await as('admin-token').badges.createGroupBadge({ path: group, body })).id).toBe(3);
    expect(await failure(as('outsider-token').badges.listGroupBadges({ path: { id: 'empty' } }))).toEqual({
      status: 404,
      body: { message: '404 Group Not Found' },
    });
    expect((await failure(as('owner-token').badges.listGroupBadges({ path: { id: 999 } }))).status).toBe(404);
    expect((await failure(as().badges.listGroupBadges({ path: group }))).status).toBe(401);
    expect(fake.state().group_badges?.map((b) => b.name)).toEqual(['Pipeline', 'Coverage', null]);
  });
});

describe('billable members', () => {
  it('lists the users of the whole hierarchy once, at their highest level, with search, sort and pagination', async () => {
    const owner = as('owner-token').members;
    const all = await owner.listBillableMembers({ path: { id: 'my-group' } });
    // Group owner olivia, Sub member nobody, Docs members dev and rita, and the members of projects 1, 2 and 3.
    expect(all.map((m) => [m.username, m.membership_type])).toEqual([
      ['olivia', 'group_member'],
      ['mia', 'project_member'],
      ['dev', 'group_member'],
      ['rita', 'group_member'],
      ['gus', 'project_member'],
      ['nobody', 'group_member'],
    ]);
    expect(all[0]).toMatchObject({
      id: 2,
      name: 'Olivia Owner',
      state: 'active',
      removable: true,
      last_activity_on: null,
      last_login_at: null,
    });
    const byLevel = await owner.listBillableMembers({ path: { id: 1 }, query: { sort: 'access_level_desc' } });
    expect(byLevel.map((m) => m.username)).toEqual(['olivia', 'mia', 'dev', 'nobody', 'rita', 'gus']);
    expect(
      (await owner.listBillableMembers({ path: { id: 1 }, query: { sort: 'name_asc' } })).map((m) => m.name),
    ).toEqual(['Dev Developer', 'Gus Guest', 'Mia Maintainer', 'No Member', 'Olivia Owner', 'Rita Reporter']);
    expect((await owner.listBillableMembers({ path: { id: 1 }, query: { search: 'RITA' } })).map((m) => m.id)).toEqual([
      5,
    ]);
    expect((await owner.listBillableMembers({ path: { id: 1 }, query: { search: 'Owner' } })).map((m) => m.id)).toEqual(
      [2],
    );
    const page = await owner.listBillableMembers.withResponse({ path: { id: 1 }, query: { per_page: 4, page: 2 } });
    expect(page.data.map((m) => m.username)).toEqual(['gus', 'nobody']);
    expect(page.pagination).toMatchObject({ page: 2, total: 6, totalPages: 2 });
  });

  it('answers 400 for a subgroup (top-level groups only) and 404 for a group the caller cannot see', async () => {
    expect(await failure(as('owner-token').members.listBillableMembers({ path: { id: 'my-group/sub' } }))).toEqual({
      status: 400,
      body: { message: '400 Bad request - billable members are available for top-level groups only' },
    });
    expect(
      (await failure(as('owner-token').members.listBillableMemberMemberships({ path: { id: 2, user_id: 7 } }))).status,
    ).toBe(400);
    expect((await failure(as('outsider-token').members.listBillableMembers({ path: { id: 'empty' } }))).status).toBe(
      404,
    );
  });

  it('lists the direct memberships of one member for those who administer the members', async () => {
    const memberships = await as('owner-token').members.listBillableMemberMemberships({ path: { id: 1, user_id: 3 } });
    expect(memberships).toEqual([
      {
        source_id: 1,
        source_type: 'project',
        source_full_name: 'My Group / My Project',
        source_full_path: 'my-group/my-project',
        access_level: 40,
        created_at: '2025-03-11T10:00:00.000Z',
        expires_at: null,
      },
      {
        source_id: 3,
        source_type: 'project',
        source_full_name: 'My Group / Sub / Tools',
        source_full_path: 'my-group/sub/tools',
        access_level: 50,
        created_at: '2025-03-11T10:00:00.000Z',
        expires_at: null,
      },
    ]);
    expect(await as('admin-token').members.listBillableMemberMemberships({ path: { id: 1, user_id: 3 } })).toEqual(
      memberships,
    );
    expect(
      (await failure(as('maintainer-token').members.listBillableMemberMemberships({ path: { id: 1, user_id: 3 } })))
        .status,
    ).toBe(403);
    expect(
      await failure(as('owner-token').members.listBillableMemberMemberships({ path: { id: 1, user_id: 1 } })),
    ).toEqual({ status: 404, body: { message: '404 User Not Found' } });
    expect(
      (await failure(as('owner-token').members.listBillableMemberMemberships({ path: { id: 1, user_id: 999 } })))
        .status,
    ).toBe(404);
  });
});

describe('group approval rules', () => {
  it('create → list → update → list, with users, groups and eligible approvers', async () => {
    const owner = as('owner-token').approvals;
    expect(await owner.listGroupApprovalRules({ path: { id: 'my-group' } })).toEqual([]);
    const rule = await owner.createGroupApprovalRule({
      path: { id: 'my-group' },
      body: { name: 'Security', approvals_required: 2, user_ids: [3, 999], group_ids: [2, 998] },
    });
    expect(rule).toMatchObject({
      id: 1,
      name: 'Security',
      rule_type: 'regular',
      approvals_required: 2,
      contains_hidden_groups: false,
    });
    expect(rule.users?.map((u) => u.username)).toEqual(['mia']);
    expect(rule.groups?.map((g) => g.full_path)).toEqual(['my-group/sub']);
    expect(rule.eligible_approvers?.map((u) => u.username)).toEqual(['mia', 'nobody']);
    const any = await owner.createGroupApprovalRule({
      path: { id: 1 },
      body: { name: 'All', approvals_required: 0, rule_type: 'any_approver' },
    });
    expect(any).toMatchObject({ id: 2, rule_type: 'any_approver', users: [], groups: [] });

    const updated = await owner.updateGroupApprovalRule({
      path: { id: 1, approval_rule_id: 1 },
      body: { approvals_required: 1, group_ids: [] },
    });
    expect(updated).toMatchObject({ id: 1, name: 'Security', approvals_required: 1, groups: [] });
    expect(updated.eligible_approvers?.map((u) => u.username)).toEqual(['mia']);
    const list = await owner.listGroupApprovalRules.withResponse({ path: { id: 1 }, query: { per_page: 1 } });
    expect(list.data).toEqual([updated]);
    expect(list.pagination).toMatchObject({ total: 2, nextPage: 2 });
    expect(
      await failure(owner.updateGroupApprovalRule({ path: { id: 1, approval_rule_id: 99 }, body: { name: 'x' } })),
    ).toEqual({ status: 404, body: { message: '404 Not found' } });
    // Rules belong to their group.
    expect(
      (
        await failure(
          owner.updateGroupApprovalRule({ path: { id: 'empty', approval_rule_id: 1 }, body: { name: 'x' } }),
        )
      ).status,
    ).toBe(404);
  });

  it('is for group administrators: 403 for other readers, 404 for those who cannot see the group, 400 without name', async () => {
    for (const token of ['maintainer-token', 'outsider-token']) {
      expect((await failure(as(token).approvals.listGroupApprovalRules({ path: { id: 1 } }))).status).toBe(403);
      expect(
        (
          await failure(
            as(token).approvals.createGroupApprovalRule({
              path: { id: 1 },
              body: { name: 'x', approvals_required: 1 },
            }),
          )
        ).status,
      ).toBe(403);
    }
    expect(
      (await failure(as('developer-token').approvals.listGroupApprovalRules({ path: { id: 'empty' } }))).status,
    ).toBe(404);
    expect(
      (
        await as('admin-token').approvals.createGroupApprovalRule({
          path: { id: 3 },
          body: { name: 'Admin', approvals_required: 1 },
        })
      ).id,
    ).toBe(1);
    const nameless = await send('/groups/1/approval_rules', {
      method: 'POST',
      token: 'owner-token',
      json: { approvals_required: 1 },
    });
    expect(nameless.status).toBe(400);
    expect(fake.state().group_approval_rules?.map((r) => [r.group_id, r.name])).toEqual([[3, 'Admin']]);
  });
});
