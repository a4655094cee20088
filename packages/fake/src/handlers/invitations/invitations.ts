/**
 * Invitations to groups and projects. Inviting an existing user (by id or by their e-mail) makes them a member; an
 * unknown e-mail becomes a pending invitation (listed, updated, deleted). Failures come back in the 200 body's message
 * map, one reason per e-mail or id. Inviting needs Maintainer, and nobody grants more than they have (administrators
 * anything).
 */
import type { Handler, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { AccessLevel, FakeGroup, FakeInvitation, FakeMember } from '../../data.ts';
import { FORBIDDEN, message, paginate, PROJECT_NOT_FOUND, readableProject } from '../../common.ts';
import type { Project, Store } from '../../store.ts';
import { GROUP_NOT_FOUND, readableGroup } from '../group-access.ts';

type Source = { kind: 'group'; group: FakeGroup } | { kind: 'project'; project: Project };

const invitations = (store: Store) => (store.data.invitations ??= []);
const INVITATION_NOT_FOUND = { status: 404 as const, body: message('404 Invitation Not Found') };

const group = (store: Store, id: string | number, principal: Principal) => readableGroup(store, id, principal);
const level = (store: Store, source: Source, principal: Principal) =>
  principal.user.is_admin
    ? 50
    : source.kind === 'group'
      ? store.groupAccess(source.group, principal.user.id)
      : store.projectAccess(source.project, principal.user);
const members = (source: Source): FakeMember[] =>
  source.kind === 'group' ? source.group.members : source.project.members;
const key = (source: Source) => ({
  source_type: source.kind,
  source_id: source.kind === 'group' ? source.group.id : source.project.id,
});
const pending = (store: Store, source: Source) =>
  invitations(store).filter((i) => i.source_type === key(source).source_type && i.source_id === key(source).source_id);

const record = (store: Store, invitation: FakeInvitation) => ({
  id: invitation.id,
  invite_email: invitation.invite_email,
  created_at: invitation.created_at,
  access_level: invitation.access_level,
  expires_at: invitation.expires_at,
  user_name: null,
  created_by_name: store.user(invitation.created_by_id)?.name ?? 'Unknown',
});

const create = (store: Store, source: Source, principal: Principal, input: unknown) => {
  // The generated type of this body is `unknown` (its anyOf has no properties of its own); the server has validated
  // it against CreateInvitationRequest, so it has these fields.
  const body = input as { email?: string; user_id?: number | string; access_level: number; expires_at?: string };
  const own = level(store, source, principal);
  if (own < 40) return FORBIDDEN;
  const failures: Record<string, string> = {};
  const access = body.access_level as AccessLevel;
  const fail = (who: string, reason: string) => (failures[who] = reason);
  const addMember = (who: string, userId: number) => {
    if (members(source).some((m) => m.user_id === userId)) return fail(who, `User already exists in source`);
    if (access > own) return fail(who, 'Access level should not be higher than your own');
    members(source).push({ user_id: userId, access_level: access });
  };
  for (const id of body.user_id === undefined
    ? []
    : String(body.user_id)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
    const user = /^\d+$/.test(id) ? store.user(Number(id)) : undefined;
    if (!user) fail(id, 'User not found');
    else addMember(id, user.id);
  }
  for (const email of body.email === undefined
    ? []
    : body.email
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
    const user = store.data.users.find((u) => u.email.toLowerCase() === email.toLowerCase());
    if (user) addMember(email, user.id);
    else if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) fail(email, 'Invite email is invalid');
    else if (pending(store, source).some((i) => i.invite_email.toLowerCase() === email.toLowerCase()))
      fail(email, 'Invite email has already been taken');
    else if (access > own) fail(email, 'Access level should not be higher than your own');
    else
      invitations(store).push({
        id: store.nextId('invitations', invitations(store)),
        ...key(source),
        invite_email: email,
        access_level: access,
        expires_at: body.expires_at ?? null,
        created_at: store.now(true),
        created_by_id: principal.user.id,
      });
  }
  store.now(true);
  return {
    status: 200 as const,
    body:
      Object.keys(failures).length === 0
        ? { status: 'success' as const }
        : { status: 'error' as const, message: failures },
  };
};

const list = (
  store: Store,
  source: Source,
  principal: Principal,
  query: { query?: string; page?: number; per_page?: number },
  request: Parameters<typeof paginate>[2],
) => {
  if (level(store, source, principal) < 40) return FORBIDDEN;
  const all = pending(store, source).filter((i) => !query.query || i.invite_email === query.query);
  const page = paginate(all, query, request);
  return { status: 200 as const, body: page.items.map((item) => record(store, item)), headers: page.headers };
};

const update = (
  store: Store,
  source: Source,
  principal: Principal,
  email: string,
  body: { access_level?: number; expires_at?: string } | undefined,
) => {
  const own = level(store, source, principal);
  if (own < 40) return FORBIDDEN;
  const invitation = pending(store, source).find((i) => i.invite_email.toLowerCase() === email.toLowerCase());
  if (!invitation) return INVITATION_NOT_FOUND;
  const access = (body?.access_level ?? 30) as AccessLevel;
  if (access > own)
    return {
      status: 400 as const,
      body: {
        message: '400 Bad request - Access level should not be higher than your own',
        errors: [{ in: 'body', field: 'access_level', problem: 'higher than your own' }],
      },
    };
  invitation.access_level = access;
  if (body?.expires_at !== undefined) invitation.expires_at = body.expires_at;
  store.now(true);
  return { status: 200 as const, body: { access_level: invitation.access_level, expires_at: invitation.expires_at } };
};

const remove = (store: Store, source: Source, principal: Principal, email: string) => {
  if (level(store, source, principal) < 40) return FORBIDDEN;
  const invitation = pending(store, source).find((i) => i.invite_email.toLowerCase() === email.toLowerCase());
  if (!invitation) return INVITATION_NOT_FOUND;
  invitations(store).splice(invitations(store).indexOf(invitation), 1);
  store.now(true);
  return { status: 204 as const };
};

const project = (store: Store, id: string | number, principal: Principal): Source | undefined => {
  const found = readableProject(store, id, principal);
  return found ? { kind: 'project', project: found } : undefined;
};
const groupSource = (store: Store, id: string | number, principal: Principal): Source | undefined => {
  const found = group(store, id, principal);
  return found ? { kind: 'group', group: found } : undefined;
};

const createProjectInvitation =
  (store: Store): Handler<'invitations/create-project-invitation', Principal> =>
  ({ params, body }, { principal }) => {
    const source = project(store, params.id, principal);
    return source ? create(store, source, principal, body) : PROJECT_NOT_FOUND;
  };

const createGroupInvitation =
  (store: Store): Handler<'invitations/create-group-invitation', Principal> =>
  ({ params, body }, { principal }) => {
    const source = groupSource(store, params.id, principal);
    return source ? create(store, source, principal, body) : GROUP_NOT_FOUND;
  };

const listProjectInvitations =
  (store: Store): Handler<'invitations/list-project-invitations', Principal> =>
  ({ params, query }, { principal, request }) => {
    const source = project(store, params.id, principal);
    return source ? list(store, source, principal, query, request) : PROJECT_NOT_FOUND;
  };

const listGroupInvitations =
  (store: Store): Handler<'invitations/list-group-invitations', Principal> =>
  ({ params, query }, { principal, request }) => {
    const source = groupSource(store, params.id, principal);
    return source ? list(store, source, principal, query, request) : GROUP_NOT_FOUND;
  };

const updateProjectInvitation =
  (store: Store): Handler<'invitations/update-project-invitation', Principal> =>
  ({ params, body }, { principal }) => {
    const source = project(store, params.id, principal);
    return source ? update(store, source, principal, params.email, body) : PROJECT_NOT_FOUND;
  };

const updateGroupInvitation =
  (store: Store): Handler<'invitations/update-group-invitation', Principal> =>
  ({ params, body }, { principal }) => {
    const source = groupSource(store, params.id, principal);
    return source ? update(store, source, principal, params.email, body) : GROUP_NOT_FOUND;
  };

const deleteProjectInvitation =
  (store: Store): Handler<'invitations/delete-project-invitation', Principal> =>
  ({ params }, { principal }) => {
    const source = project(store, params.id, principal);
    return source ? remove(store, source, principal, params.email) : PROJECT_NOT_FOUND;
  };

const deleteGroupInvitation =
  (store: Store): Handler<'invitations/delete-group-invitation', Principal> =>
  ({ params }, { principal }) => {
    const source = groupSource(store, params.id, principal);
    return source ? remove(store, source, principal, params.email) : GROUP_NOT_FOUND;
  };

export function invitationHandlers(store: Store): Handlers<Principal> {
  return {
    'invitations/create-project-invitation': createProjectInvitation(store),
    'invitations/create-group-invitation': createGroupInvitation(store),
    'invitations/list-project-invitations': listProjectInvitations(store),
    'invitations/list-group-invitations': listGroupInvitations(store),
    'invitations/update-project-invitation': updateProjectInvitation(store),
    'invitations/update-group-invitation': updateGroupInvitation(store),
    'invitations/delete-project-invitation': deleteProjectInvitation(store),
    'invitations/delete-group-invitation': deleteGroupInvitation(store),
  };
}
