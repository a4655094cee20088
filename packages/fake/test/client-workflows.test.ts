/** The fake's export lifecycle and group lists, through the generated client, with responses validated. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { status, useFake } from '../../../test/support/fake.ts';

const { fake, as, send } = useFake();

describe('project export', () => {
  it('none → queued → started → finished, _links only when finished, download only then, as a real gzip tarball', async () => {
    const api = as('maintainer-token');
    const project = { path: { id: 'my-group/my-project' } };
    expect((await api.projectImportExport.getExportStatus(project)).export_status).toBe('none');
    expect(await status(api.projectImportExport.downloadExport(project))).toBe(404);
    // An upload hash needs its url; an empty one is read as no upload (a tolerance: the contract asks for url). The
    // bodies break the contract's types on purpose, as a client that does not use them would send them.
    expect(
      await status(
        api.projectImportExport.exportProject({ ...project, body: { upload: { http_method: 'POST' } as never } }),
      ),
    ).toBe(400);
    expect(
      await api.projectImportExport.exportProject({
        ...project,
        body: { description: 'Exported', upload: {} as never },
      }),
    ).toEqual({ message: '202 Accepted' });
    const seen: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const record = await api.projectImportExport.getExportStatus(project);
      seen.push(record.export_status);
      expect('_links' in record).toBe(record.export_status === 'finished');
      if (record.export_status === 'finished') break;
    }
    expect(seen).toEqual(['queued', 'started', 'finished']);
    const archive = await api.projectImportExport.downloadExport(project);
    const file = join(mkdtempSync(join(tmpdir(), 'fake-export-')), 'export.tar.gz');
    writeFileSync(file, Buffer.from(await archive.arrayBuffer()));
    const listing = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(listing).toEqual([
      'project.json',
      'repository/README.md',
      'repository/scripts/run.sh',
      'repository/src/index.js',
    ]);
    expect(execFileSync('tar', ['-xzOf', file, 'repository/src/index.js'], { encoding: 'utf8' })).toBe(
      'export const answer = 42;\n',
    );
    // Asking again regenerates.
    await api.projectImportExport.exportProject(project);
    expect((await api.projectImportExport.getExportStatus(project)).export_status).toBe('regeneration_in_progress');
    expect(await status(as('developer-token').projectImportExport.exportProject(project))).toBe(403);
  });
});

describe('groups', () => {
  it('lists visible groups with filters, subgroups and descendants', async () => {
    const anonymous = await as().groups.listGroups();
    expect(anonymous.map((g) => g.full_path)).toEqual(['my-group', 'my-group/sub']);
    expect((await as('outsider-token').groups.listGroups()).map((g) => g.id)).toEqual([]);
    expect((await as('outsider-token').groups.listGroups({ query: { all_available: true } })).map((g) => g.id)).toEqual(
      [1, 2],
    );
    expect(
      (await as('owner-token').groups.listGroups({ query: { owned: true, top_level_only: true } })).map((g) => g.id),
    ).toEqual([1]);
    expect(
      (await as('admin-token').groups.listGroups({ query: { order_by: 'id', sort: 'desc' } })).map((g) => g.id),
    ).toEqual([3, 2, 1]);
    expect(
      (await as('owner-token').groups.listSubgroups({ path: { id: 'my-group' } })).map((g) => g.full_path),
    ).toEqual(['my-group/docs', 'my-group/sub']);
    expect((await as('owner-token').groups.listDescendantGroups({ path: { id: 1 } })).map((g) => g.parent_id)).toEqual([
      1, 1,
    ]);
    expect(await status(as('owner-token').groups.listSubgroups({ path: { id: 999 } }))).toBe(404);
  });
});

describe('invitations', () => {
  it('invite, list, update, delete; existing users become members; failures in the message map', async () => {
    const api = as('maintainer-token');
    const project = { id: 'my-group/my-project' };
    const result = await api.invitations.createProjectInvitation({
      path: project,
      body: { email: 'new@example.com,nobody@example.com,not-an-email', access_level: 30 },
    });
    expect(result).toEqual({ status: 'error', message: { 'not-an-email': 'Invite email is invalid' } });
    expect((await api.members.getProjectMember({ path: { ...project, user_id: 7 } })).access_level).toBe(30); // nobody@example.com has an account
    const again = await api.invitations.createProjectInvitation({
      path: project,
      body: { email: 'new@example.com', user_id: '4,999', access_level: 20 },
    });
    expect(again).toEqual({
      status: 'error',
      message: {
        'new@example.com': 'Invite email has already been taken',
        '4': 'User already exists in source',
        '999': 'User not found',
      },
    });
    const listed = await api.invitations.listProjectInvitations({ path: project });
    expect(listed.map((i) => [i.invite_email, i.access_level, i.created_by_name])).toEqual([
      ['reviewer@example.com', 30, 'Mia Maintainer'], // the data set's two
      ['designer@example.com', 20, 'Mia Maintainer'],
      ['new@example.com', 30, 'Mia Maintainer'],
    ]);
    expect(
      await api.invitations.updateProjectInvitation({
        path: { ...project, email: 'new@example.com' },
        body: { access_level: 20 },
      }),
    ).toMatchObject({ access_level: 20 });
    expect(
      await status(
        api.invitations.updateProjectInvitation({
          path: { ...project, email: 'new@example.com' },
          body: { access_level: 50 },
        }),
      ),
    ).toBe(400);
    expect(
      await status(
        as('developer-token').invitations.deleteProjectInvitation({ path: { ...project, email: 'new@example.com' } }),
      ),
    ).toBe(403);
    await api.invitations.deleteProjectInvitation({ path: { ...project, email: 'new@example.com' } });
    expect((await api.invitations.listProjectInvitations({ path: project })).map((i) => i.invite_email)).toEqual([
      'reviewer@example.com',
      'designer@example.com',
    ]);
    expect(
      await status(api.invitations.deleteProjectInvitation({ path: { ...project, email: 'new@example.com' } })),
    ).toBe(404);
    expect(
      await as('owner-token').invitations.createGroupInvitation({
        path: { id: 'my-group' },
        body: { email: 'g@example.com', access_level: 40 },
      }),
    ).toEqual({ status: 'success' });
    expect(
      (await as('owner-token').invitations.listGroupInvitations({ path: { id: 1 } })).map((i) => i.invite_email),
    ).toEqual(['new.hire@example.com', 'contractor@example.com', 'g@example.com']);
  });
});

describe('memberships and error-tracking client keys', () => {
  it('lists direct memberships for administrators only, by type; 404 for an unknown user', async () => {
    const memberships = await as('admin-token').users.listMemberships({ path: { id: 3 } });
    expect(memberships.map((m) => [m.source_type, m.source_id, m.access_level])).toEqual([
      ['Project', 1, 40],
      ['Project', 3, 50],
      ['Project', 4, 30],
    ]);
    expect(
      (await as('admin-token').users.listMemberships({ path: { id: 2 }, query: { type: 'Namespace' } })).map(
        (m) => m.source_name,
      ),
    ).toEqual(['My Group']);
    expect(await status(as('owner-token').users.listMemberships({ path: { id: 3 } }))).toBe(403);
    expect(await status(as('admin-token').users.listMemberships({ path: { id: 999 } }))).toBe(404);
  });

  it('rotates a client key: create, list, delete the old one', async () => {
    const api = as('maintainer-token');
    const project = { id: 'my-group/my-project' };
    const first = (await api.errorTracking.createClientKey({ path: project })) as { id: number; dsn: string };
    const second = (await api.errorTracking.createClientKey({ path: project })) as { id: number; dsn: string };
    expect(first.dsn).not.toBe(second.dsn);
    expect(((await api.errorTracking.listClientKeys({ path: project })) as { id: number }[]).map((k) => k.id)).toEqual([
      first.id,
      second.id,
    ]);
    await api.errorTracking.deleteClientKey({ path: { ...project, key_id: first.id } });
    expect(((await api.errorTracking.listClientKeys({ path: project })) as { id: number }[]).map((k) => k.id)).toEqual([
      second.id,
    ]);
    expect(await status(api.errorTracking.deleteClientKey({ path: { ...project, key_id: first.id } }))).toBe(404);
    expect(await status(as('developer-token').errorTracking.listClientKeys({ path: project }))).toBe(403);
  });
});

describe('projects', () => {
  it('lists what the caller may see: anonymous the public ones (simple), members their private ones, with filters', async () => {
    const anonymous = await as().projects.listProjects.simple();
    expect(anonymous.map((p) => p.path_with_namespace)).toEqual(['dev/blog', 'my-group/my-project']);
    const outsider = await as('outsider-token').projects.listProjects();
    expect(outsider.map((p) => p.id)).toEqual([5, 3, 1]); // internal and public, id descending
    const dev = await as('developer-token').projects.listProjects({ query: { order_by: 'name', sort: 'asc' } });
    expect(dev.map((p) => p.name)).toEqual(['Blog', 'Dotfiles', 'My Project', 'Secret', 'Tools']);
    expect(
      (await as('developer-token').projects.listProjects({ query: { min_access_level: 30 } })).map((p) => p.id),
    ).toEqual([5, 4, 2, 1]); // dev's own (Blog, Dotfiles) and those where dev is a Developer
    expect(
      (await as('owner-token').projects.listProjects({ query: { owned: true, visibility: 'private' } })).map(
        (p) => p.id,
      ),
    ).toEqual([2]);
    expect(
      (await as('developer-token').projects.listProjects({ query: { search: 'secret' } })).map((p) => p.id),
    ).toEqual([2]);
  });
});

describe('renamed projects', () => {
  it('answers 301 to the numeric-id URL for an old path, and the client follows it', async () => {
    const response = await send('/projects/my-group%2Fold-project/merge_requests?labels=frontend', {
      token: 'developer-token',
      redirect: 'manual',
    });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe(`${fake.url}/api/v4/projects/1/merge_requests?labels=frontend`);
    const followed = await as('developer-token').mergeRequests.listProjectMergeRequests({
      path: { id: 'my-group/old-project' },
      query: { labels: 'frontend' },
    });
    expect(followed.map((m) => m.iid)).toEqual([1]);
    expect(
      await status(
        as('developer-token').mergeRequests.listProjectMergeRequests({ path: { id: 'my-group/never-existed' } }),
      ),
    ).toBe(404);
  });
});

describe('approvals', () => {
  it('keeps settings (selective removals only without reset on push) and rules with their approvers', async () => {
    const api = as('maintainer-token');
    const project = { id: 'my-group/my-project' };
    expect(await as('reporter-token').approvals.getProjectApprovalSettings({ path: project })).toMatchObject({
      reset_approvals_on_push: true,
      approvers: [],
    });
    expect(
      await status(
        api.approvals.updateProjectApprovalSettings({ path: project, body: { selective_code_owner_removals: true } }),
      ),
    ).toBe(400);
    await api.approvals.updateProjectApprovalSettings({
      path: project,
      body: { reset_approvals_on_push: false, selective_code_owner_removals: true },
    });
    expect(await api.approvals.getProjectApprovalSettings({ path: project })).toMatchObject({
      reset_approvals_on_push: false,
      selective_code_owner_removals: true,
    });
    expect(
      await status(
        as('developer-token').approvals.updateProjectApprovalSettings({
          path: project,
          body: { require_password_to_approve: true },
        }),
      ),
    ).toBe(403);
    const rule = await api.approvals.createProjectApprovalRule({
      path: project,
      body: { name: 'Security', approvals_required: 2, user_ids: [3], usernames: ['dev'], group_ids: [1] },
    });
    expect(rule).toMatchObject({ name: 'Security', approvals_required: 2, usernames: ['mia', 'dev'] });
    expect(rule.eligible_approvers?.map((u) => (u as { username: string }).username).sort()).toEqual([
      'dev',
      'mia',
      'olivia',
    ]);
    expect((await api.approvals.listProjectApprovalRules({ path: project })).map((r) => r.id)).toEqual([rule.id]);
    expect((await api.approvals.getProjectApprovalRule({ path: { ...project, approval_rule_id: rule.id } })).name).toBe(
      'Security',
    );
    expect(await status(api.approvals.getProjectApprovalRule({ path: { ...project, approval_rule_id: 999 } }))).toBe(
      404,
    );
  });
});
