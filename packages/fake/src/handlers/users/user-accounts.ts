/**
 * User accounts: create (administrators; 400 for a missing or invalid attribute, 409 for a taken username or e-mail),
 * read one (single-user view, the administrator view for administrators), activities (oldest first; others see public
 * profiles only), disable two-factor authentication (administrators; 400 when it is not enabled) and the caller's
 * avatar upload (multipart, at most 200 KiB, reflected in every `avatar_url`).
 */
import type { Handler, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeUser } from '../../data.ts';
import { avatarUrl, FORBIDDEN, message, paginate, userBasic } from '../../common.ts';
import type { Store } from '../../store.ts';
import { customAttributes } from '../custom-attributes.ts';

export const USER_NOT_FOUND = { status: 404 as const, body: message('404 User Not Found') };

/** Profile texts a user record carries (null until set). */
const PROFILE_TEXTS = [
  'location',
  'public_email',
  'skype',
  'linkedin',
  'twitter',
  'discord',
  'website_url',
  'organization',
  'job_title',
  'pronouns',
  'work_information',
  'note',
  'commit_email',
] as const;

/** One `@` with text before it and a dotted domain after it, no spaces; checked without a backtracking pattern. */
function validEmail(email: string): boolean {
  const at = email.indexOf('@');
  const domain = email.slice(at + 1);
  return (
    email.length <= 254 &&
    at > 0 &&
    at === email.lastIndexOf('@') &&
    domain.includes('.') &&
    !domain.startsWith('.') &&
    !domain.endsWith('.') &&
    !/\s/.test(email)
  );
}

const badRequest = (problems: { field: string; problem: string }[]) => ({
  status: 400 as const,
  body: {
    message: `400 Bad request - ${problems.map((p) => `${p.field} ${p.problem}`).join(', ')}`,
    errors: problems.map((p) => ({ in: 'body', ...p })),
  },
});

/** The public view every caller sees. */
export function publicUser(store: Store, user: FakeUser) {
  return { ...userBasic(store, user)!, locked: false };
}

const createdAt = (store: Store, user: FakeUser) => user.created_at ?? store.data.now ?? '2025-01-01T00:00:00.000Z';
const text = (user: FakeUser, name: (typeof PROFILE_TEXTS)[number]) => user.profile?.[name] ?? null;

/** What both single-user views show: the public view, the creation time and the profile texts they share. */
function profileView(store: Store, user: FakeUser) {
  return {
    ...publicUser(store, user),
    created_at: createdAt(store, user),
    bio: user.bio ?? '',
    location: text(user, 'location'),
    public_email: text(user, 'public_email'),
    skype: text(user, 'skype'),
    linkedin: text(user, 'linkedin'),
    twitter: text(user, 'twitter'),
    discord: text(user, 'discord'),
    website_url: text(user, 'website_url'),
    organization: text(user, 'organization'),
    job_title: text(user, 'job_title'),
  };
}

/** The administrator view (list items of `GET /users` for administrators): every field the view lists. */
export function adminUserView(store: Store, user: FakeUser) {
  const creator = user.created_by_id == null ? undefined : store.user(user.created_by_id);
  return {
    ...profileView(store, user),
    email: user.email,
    is_admin: user.is_admin === true,
    last_sign_in_at: null,
    confirmed_at: createdAt(store, user),
    theme_id: 1,
    last_activity_on: user.last_activity_on ?? null,
    color_scheme_id: 1,
    projects_limit: 100000,
    current_sign_in_at: null,
    note: text(user, 'note'),
    identities: (user.identities ?? []).map((i) => ({
      provider: i.provider,
      extern_uid: i.extern_uid,
      saml_provider_id: i.saml_provider_id ?? null,
    })),
    can_create_group: true,
    can_create_project: true,
    two_factor_enabled: user.two_factor_enabled === true,
    external: user.external === true,
    private_profile: user.private_profile === true,
    current_sign_in_ip: null,
    last_sign_in_ip: null,
    namespace_id: store.personalNamespaceId(user),
    created_by: creator ? userBasic(store, creator) : null,
    email_reset_offered_at: null,
  };
}

const today = (store: Store) => store.now().slice(0, 10);

/** The single-user view of a signed-in caller who is not an administrator. */
const singleView = (store: Store, user: FakeUser) => ({
  ...profileView(store, user),
  bot: (user.user_type ?? 'human') !== 'human',
  pronouns: text(user, 'pronouns'),
  work_information: text(user, 'work_information'),
  followers: 0,
  following: 0,
  local_time: store.now().slice(11, 16),
  is_followed: false,
});

/** The administrator single-user view. */
const adminView = (store: Store, user: FakeUser) => ({
  ...adminUserView(store, user),
  commit_email: text(user, 'commit_email') ?? user.email,
  sign_in_count: 0,
});

/** `from` minus nothing, or six months before the fake's current day. */
const sixMonthsAgo = (store: Store) => {
  const date = new Date(`${today(store)}T00:00:00.000Z`);
  date.setUTCMonth(date.getUTCMonth() - 6);
  return date.toISOString().slice(0, 10);
};

const createUser =
  (store: Store): Handler<'users/create-user', Principal> =>
  ({ body }, { principal }) => {
    if (!principal.user.is_admin) return FORBIDDEN;
    const input = body as Record<string, unknown>;
    // The documented body lists only the password rules: identity attributes left out get derived values rather
    // than a refusal the contract does not state (`user<id>`, its name, `<username>@users.service.example`).
    const given = (field: string) =>
      typeof input[field] === 'string' && (input[field] as string).trim() !== '' ? (input[field] as string) : undefined;
    const id = store.peekId('users', store.data.users);
    const username = given('username') ?? `user${id}`;
    const [email, name] = [given('email') ?? `${username}@users.service.example`, given('name') ?? username];
    if (!validEmail(email)) return badRequest([{ field: 'email', problem: 'is invalid' }]);
    if (username.length > 255 || !/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(username))
      return badRequest([{ field: 'username', problem: 'is invalid' }]);
    if (store.data.users.some((u) => u.username.toLowerCase() === username.toLowerCase()))
      return { status: 409, body: message('Username has already been taken') };
    if (store.data.users.some((u) => u.email.toLowerCase() === email.toLowerCase()))
      return { status: 409, body: message('Email has already been taken') };
    const settings = store.data.application_settings ?? {};
    const profile: Record<string, string> = {};
    for (const field of PROFILE_TEXTS) if (typeof input[field] === 'string') profile[field] = input[field] as string;
    const user: FakeUser = {
      id,
      username,
      name,
      email,
      state: 'active',
      ...(input.admin === true ? { is_admin: true } : {}),
      created_at: store.now(true),
      bio: typeof input.bio === 'string' ? input.bio : '',
      private_profile:
        typeof input.private_profile === 'boolean'
          ? input.private_profile
          : settings.user_defaults_to_private_profile === true,
      external: typeof input.external === 'boolean' ? input.external : settings.user_default_external === true,
      two_factor_enabled: false,
      last_activity_on: null,
      ...(Object.keys(profile).length > 0 ? { profile } : {}),
      created_by_id: principal.user.id,
    };
    store.nextId('users', store.data.users); // taken now that the user is created
    store.data.users.push(user);
    return { status: 201, body: adminView(store, user) };
  };

const getUser =
  (store: Store): Handler<'users/get-user', Principal> =>
  ({ params, query }, { principal }) => {
    const user = store.user(params.id);
    if (!user) return USER_NOT_FOUND;
    if (!principal.user.is_admin) return { status: 200, body: singleView(store, user) };
    const attributes = query.with_custom_attributes === true;
    return {
      status: 200,
      body: {
        ...adminView(store, user),
        ...(attributes ? { custom_attributes: customAttributes(user.custom_attributes) } : {}),
      },
    };
  };

const listActivities =
  (store: Store): Handler<'users/list-activities', Principal> =>
  ({ query }, { principal, request }) => {
    const from = query.from ?? sixMonthsAgo(store);
    const admin = principal.user.is_admin === true;
    const active = store.data.users
      .filter(
        (u) =>
          typeof u.last_activity_on === 'string' && u.last_activity_on >= from && (admin || u.private_profile !== true),
      )
      .sort((a, b) => a.last_activity_on!.localeCompare(b.last_activity_on!) || a.id - b.id);
    const page = paginate(active, query, request);
    return {
      status: 200,
      body: page.items.map((u) => ({
        username: u.username,
        last_activity_on: u.last_activity_on!,
        last_activity_at: u.last_activity_on!,
      })),
      headers: page.headers,
    };
  };

const disableTwoFactor =
  (store: Store): Handler<'users/disable-two-factor', Principal> =>
  ({ params }, { principal }) => {
    if (!principal.user.is_admin) return FORBIDDEN;
    const user = store.user(params.id);
    if (!user) return USER_NOT_FOUND;
    if (user.id === principal.user.id || user.is_admin) return FORBIDDEN;
    if (user.two_factor_enabled !== true)
      return {
        status: 400,
        body: message('400 Bad request - Two-factor authentication is not enabled for this user'),
      };
    user.two_factor_enabled = false;
    store.now(true);
    return { status: 204 };
  };

const uploadAvatar =
  (store: Store): Handler<'users/upload-avatar', Principal> =>
  async ({ body }, { principal }) => {
    const file = (body as { avatar?: unknown } | undefined)?.avatar;
    if (!(file instanceof Blob)) return badRequest([{ field: 'avatar', problem: 'must be a file' }]);
    if (file.size > 204800) return badRequest([{ field: 'avatar', problem: 'is too big (should be at most 200 KiB)' }]);
    const named = (file as Blob & { name?: unknown }).name;
    const filename =
      (typeof named === 'string' ? named.split(/[\\/]/).pop()! : '').replace(/[^\w.-]+/g, '_').slice(0, 255) ||
      'avatar';
    principal.user.avatar = { filename, content: Buffer.from(await file.arrayBuffer()).toString('base64') };
    store.now(true);
    return { status: 200, body: { avatar_url: avatarUrl(store, principal.user)! } };
  };

export function userAccountHandlers(store: Store): Handlers<Principal> {
  return {
    'users/create-user': createUser(store),
    'users/get-user': getUser(store),
    'users/list-activities': listActivities(store),
    'users/disable-two-factor': disableTwoFactor(store),
    'users/upload-avatar': uploadAvatar(store),
  };
}
