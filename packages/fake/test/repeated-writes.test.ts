/**
 * Every write of the fake, sent twice: the first answer is a 2xx, and the repeat answers what the Service answers to
 * it. `no-op` repeats answer the 2xx again and change nothing; a repeat that finds what the first removed answers 404;
 * one that would make a second of what may exist once answers 409; a repeat that creates another record (a new id)
 * answers 201 again. Requests come from support/fake-requests.ts (the conformance requests), on a fresh data set each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { implementedOperations, startFake, type RunningFake } from '../src/index.ts';
import { listOperations } from '../../../generators/lib/document.ts';
import { send } from '../../../test/support/conformance.ts';
import { publishedDocument } from '../../../test/support/documents.ts';
import { adminCall, fakeCredentials, fakeRequest, fakeRequests } from '../../../test/support/fake-requests.ts';

const doc = publishedDocument();
let fake: RunningFake | undefined;
beforeAll(async () => {
  fake = await startFake({ validateResponses: true });
});
afterAll(() => fake?.close());
const api = () => `${fake!.url}/api/v4`;

/**
 * What a repeat of each write answers, and whether it changes the state again: `unchanged` (an idempotent no-op, or a
 * refusal), `again` (another record, export or token: a repeat is a new request of its own).
 */
const repeats: Record<string, [status: number, effect: 'unchanged' | 'again']> = {
  'application/update-plan-limits': [200, 'unchanged'],
  'application/update-settings': [200, 'unchanged'],
  'approvals/create-group-approval-rule': [201, 'again'],
  'approvals/create-project-approval-rule': [201, 'again'],
  'approvals/update-group-approval-rule': [200, 'unchanged'],
  'approvals/update-project-approval-settings': [201, 'unchanged'],
  'badges/create-group-badge': [201, 'again'],
  'badges/delete-group-badge': [404, 'unchanged'],
  'badges/update-group-badge': [200, 'unchanged'],
  'bulk-imports/create-migration': [201, 'again'],
  'error-tracking/create-client-key': [201, 'again'],
  'error-tracking/delete-client-key': [404, 'unchanged'],
  'groups/create-ldap-group-link': [409, 'unchanged'],
  'groups/create-push-rule': [409, 'unchanged'],
  'groups/create-saml-group-link': [409, 'unchanged'],
  'groups/delete-hook': [404, 'unchanged'],
  'groups/delete-ldap-group-link': [404, 'unchanged'],
  'groups/delete-ldap-group-link-by-cn': [404, 'unchanged'],
  'groups/delete-ldap-group-link-by-provider': [404, 'unchanged'],
  'groups/delete-saml-group-link': [404, 'unchanged'],
  'groups/share': [409, 'unchanged'],
  'groups/sync-ldap': [202, 'unchanged'],
  'groups/unshare': [404, 'unchanged'],
  'groups/update-hook': [200, 'unchanged'],
  'groups/update-push-rule': [200, 'unchanged'],
  'integrations/disable-custom-issue-tracker': [204, 'unchanged'],
  'integrations/disable-integration': [204, 'unchanged'],
  'integrations/set-up-custom-issue-tracker': [200, 'unchanged'],
  'integrations/set-up-integration': [200, 'unchanged'],
  // The Service's answer to an e-mail already invited: 200 with `status: error` naming it.
  'invitations/create-group-invitation': [200, 'unchanged'],
  'invitations/create-project-invitation': [200, 'unchanged'],
  'invitations/delete-group-invitation': [404, 'unchanged'],
  'invitations/delete-project-invitation': [404, 'unchanged'],
  'invitations/update-group-invitation': [200, 'unchanged'],
  'invitations/update-project-invitation': [200, 'unchanged'],
  // Another open merge request from the same source to the same target branch.
  'merge-requests/create-merge-request': [409, 'unchanged'],
  'merge-requests/delete-merge-request': [404, 'unchanged'],
  // A merged merge request cannot be merged.
  'merge-requests/merge': [405, 'unchanged'],
  // Closing a closed merge request.
  'merge-requests/update-merge-request': [200, 'unchanged'],
  'product-analytics/dry-run-query': [201, 'unchanged'],
  'product-analytics/load-query': [201, 'unchanged'],
  'project-import-export/export-project': [202, 'again'],
  'project-import-export/import-project': [409, 'unchanged'],
  'project-import-export/import-project-from-s3': [409, 'unchanged'],
  'project-import-export/import-project-from-url': [409, 'unchanged'],
  'project-import-export/import-relation': [409, 'unchanged'],
  // The version is in the changelog already: nothing is added.
  'repository/create-changelog': [200, 'unchanged'],
  // A file that exists; a file that does not; the same content again (an empty commit).
  'repository/create-file': [400, 'unchanged'],
  'repository/delete-file': [400, 'unchanged'],
  'repository/update-file': [400, 'unchanged'],
  'runners/create-user-runner': [201, 'again'],
  'runners/update-runner': [200, 'unchanged'],
  'users/create-impersonation-token': [201, 'again'],
  'users/create-personal-access-token': [201, 'again'],
  'users/create-user': [409, 'unchanged'],
  'users/create-user-personal-access-token': [201, 'again'],
  // Two-factor authentication is not enabled any more.
  'users/disable-two-factor': [400, 'unchanged'],
  'users/revoke-impersonation-token': [204, 'unchanged'],
  'users/upload-avatar': [200, 'unchanged'],
};

const writes = listOperations(doc).filter(
  (entry) => implementedOperations.includes(entry.operationId) && entry.method !== 'get' && entry.method !== 'head',
);

describe('a repeated write answers as the Service does', () => {
  it('every write of the fake is in the table', () => {
    expect(writes.map((entry) => entry.operationId).sort()).toEqual(Object.keys(repeats).sort());
  });

  it.each(writes.map((entry) => [entry.operationId, ...(repeats[entry.operationId] ?? [0, 'unchanged'])] as const))(
    '%s: %i, %s',
    async (_id, status, effect) => {
      const entry = writes.find((w) => w.operationId === _id)!;
      fake!.reset();
      const extra = (await fakeRequests[entry.operationId]?.setup?.(adminCall(api))) ?? {};
      const request = () => send(api(), fakeRequest(doc, entry, extra), fakeCredentials(doc, entry));
      const first = await request();
      expect(first.status, await first.text()).toBeLessThan(300);
      const after = JSON.stringify(fake!.state());
      const second = await request();
      expect(second.status, await second.text()).toBe(status);
      expect(JSON.stringify(fake!.state()) === after ? 'unchanged' : 'again').toBe(effect);
    },
  );
});

describe('merge requests, changelogs and ids as the Service keeps them', () => {
  const admin = (method: string, path: string, body?: unknown) => adminCall(api)(method, path, body);
  const raw = (method: string, path: string, body: unknown) =>
    fetch(`${api()}${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': 'admin-token', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const mrs = '/projects/1/merge_requests';

  it('closing a closed merge request answers 200 and changes nothing, not even updated_at', async () => {
    fake!.reset();
    const closed = await admin('PUT', `${mrs}/1`, { state_event: 'close' });
    const again = await raw('PUT', `${mrs}/1`, { state_event: 'close' });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({
      state: 'closed',
      closed_at: closed.closed_at,
      updated_at: closed.updated_at,
    });
    const reopened = await admin('PUT', `${mrs}/1`, { state_event: 'reopen' });
    expect((await admin('PUT', `${mrs}/1`, { state_event: 'reopen' })).updated_at).toBe(reopened.updated_at);
  });

  it('a second open merge request from the same source to the same target branch is 409; closed ones and other targets do not count', async () => {
    fake!.reset();
    await admin('POST', '/projects/1/repository/files/a.md', {
      branch: 'topic',
      start_branch: 'main',
      content: 'a',
      commit_message: 'a',
    });
    const first = await admin('POST', mrs, { source_branch: 'topic', target_branch: 'main', title: 'First' });
    const second = await raw('POST', mrs, { source_branch: 'topic', target_branch: 'main', title: 'Second' });
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({ message: '409 Conflict - a conflicting resource exists' });
    expect(fake!.state().merge_requests.filter((m) => m.source_branch === 'topic')).toHaveLength(1);
    await admin('POST', '/projects/1/repository/files/b.md', {
      branch: 'other',
      start_branch: 'main',
      content: 'b',
      commit_message: 'b',
    });
    expect(
      (await admin('POST', mrs, { source_branch: 'topic', target_branch: 'other', title: 'Elsewhere' })).state,
    ).toBe('opened');
    await admin('PUT', `${mrs}/${first.iid}`, { state_event: 'close' });
    expect((await admin('POST', mrs, { source_branch: 'topic', target_branch: 'main', title: 'Again' })).state).toBe(
      'opened',
    );
  });

  it('a changelog for a version already in the file answers 200 and commits nothing', async () => {
    fake!.reset();
    await admin('POST', '/projects/1/repository/changelog', { version: '1.1.0' });
    const head = (await admin('GET', '/projects/1/repository/files/CHANGELOG.md?ref=main')).commit_id;
    const again = await raw('POST', '/projects/1/repository/changelog', { version: 'v1.1.0' });
    expect(again.status).toBe(200);
    expect((await admin('GET', '/projects/1/repository/files/CHANGELOG.md?ref=main')).commit_id).toBe(head);
  });

  // Per kind of record that can be deleted: create one, delete it, create another: the new id is not the old one.
  const kinds = [
    {
      kind: 'merge request (id and iid)',
      create: () =>
        admin('POST', mrs, { source_branch: 'feature/login', target_branch: 'feature/reset', title: 'New' }),
      remove: (r: { iid: number }) => admin('DELETE', `${mrs}/${r.iid}`),
      ids: (r: { id: number; iid: number }) => [r.id, r.iid],
    },
    {
      kind: 'group badge',
      create: () =>
        admin('POST', '/groups/1/badges', { link_url: 'https://a.example/x', image_url: 'https://a.example/x.svg' }),
      remove: (r: { id: number }) => admin('DELETE', `/groups/1/badges/${r.id}`),
      ids: (r: { id: number }) => [r.id],
    },
    {
      kind: 'error tracking client key',
      create: () => admin('POST', '/projects/1/error_tracking/client_keys', {}),
      remove: (r: { id: number }) => admin('DELETE', `/projects/1/error_tracking/client_keys/${r.id}`),
      ids: (r: { id: number }) => [r.id],
    },
  ];
  it.each(kinds)('the id of a deleted $kind is never given again', async ({ create, remove, ids }) => {
    fake!.reset();
    const first = await create();
    await remove(first);
    const second = await create();
    for (const [at, id] of ids(second).entries()) expect(id).toBeGreaterThan(ids(first)[at]!);
  });
});
