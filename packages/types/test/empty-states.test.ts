import { describe, expect, it } from 'vitest';
import type {
  Badge,
  Group,
  Invitation,
  Member,
  RunnerDetails,
  SamlGroupLink,
  UserAdminSingle,
} from '@service-api/types';
import { validateSchema } from '@service-api/validators';

/**
 * Realistic bodies of the empty states typed with the generated types, with no cast (`tsc` checks this file), and
 * accepted by the generated validators: a never-contacted runner, a member and an invitation without expiry, a badge
 * and a SAML link created without their optional inputs, a group seen by a caller with few permissions, and an
 * administrator's view of a user who never signed in.
 */
const creator = {
  id: 1,
  username: 'root',
  name: 'Administrator',
  state: 'active',
  avatar_url: 'https://service.example/root.png',
  web_url: 'https://service.example/root',
};

const neverContacted: RunnerDetails = {
  active: true,
  paused: false,
  description: null,
  id: 11,
  ip_address: '',
  is_shared: false,
  runner_type: 'project_type',
  name: null,
  online: false,
  status: 'never_contacted',
  architecture: '',
  platform: '',
  version: '',
  revision: '',
  contacted_at: null,
  maintenance_note: null,
  maximum_timeout: null,
  projects: [],
  tag_list: [],
  access_level: 'not_protected',
};
const memberWithoutExpiry: Member = {
  ...creator,
  id: 12,
  username: 'jdoe',
  created_at: '2024-02-01T10:00:00Z',
  created_by: creator,
  expires_at: null,
  access_level: 30,
};
const invitationWithoutExpiry: Invitation = {
  id: 7,
  invite_email: 'contractor@example.com',
  created_at: '2025-03-10T08:00:00Z',
  access_level: 30,
  expires_at: null,
  user_name: null,
  created_by_name: 'Jane Doe',
};
const namelessBadge: Badge = {
  id: 2,
  name: null,
  link_url: 'https://service.example/%{project_path}',
  image_url: 'https://service.example/badge.svg',
  rendered_link_url: 'https://service.example/%{project_path}',
  rendered_image_url: 'https://service.example/badge.svg',
  kind: 'group',
};
const linkWithoutRole: SamlGroupLink = { name: 'saml-developers', access_level: 30, member_role_id: null };
const groupForAnonymous: Group = {
  id: 9,
  name: 'my-group',
  path: 'my-group',
  web_url: 'https://service.example/groups/my-group',
  parent_id: null,
  description: null,
};
const neverSignedIn: UserAdminSingle = {
  id: 44,
  username: 'new.hire',
  name: 'New Hire',
  state: 'active',
  locked: false,
  avatar_url: null,
  web_url: 'https://service.example/new.hire',
  email: 'new.hire@example.com',
  is_admin: false,
  created_at: '2025-03-10T08:00:00Z',
  bio: '',
  location: null,
  skype: '',
  linkedin: '',
  twitter: '',
  discord: '',
  website_url: '',
  organization: null,
  job_title: '',
  last_sign_in_at: null,
  confirmed_at: null,
  theme_id: 1,
  last_activity_on: null,
  color_scheme_id: 1,
  projects_limit: 100000,
  current_sign_in_at: null,
  note: null,
  identities: [],
  can_create_group: true,
  can_create_project: true,
  two_factor_enabled: false,
  external: false,
  private_profile: false,
  current_sign_in_ip: null,
  last_sign_in_ip: null,
  namespace_id: 301,
  created_by: null,
  email_reset_offered_at: null,
  public_email: null,
  commit_email: null,
  sign_in_count: 0,
};

describe('generated types and validators accept the empty states', () => {
  it.each([
    ['RunnerDetails', neverContacted],
    ['Member', memberWithoutExpiry],
    ['Invitation', invitationWithoutExpiry],
    ['Badge', namelessBadge],
    ['SamlGroupLink', linkWithoutRole],
    ['Group', groupForAnonymous],
    ['UserAdminSingle', neverSignedIn],
  ] as const)('%s', (name, body) => {
    expect(validateSchema(name, body).errors).toEqual([]);
  });

  it('refuses a never-contacted runner with a contact time', () => {
    expect(
      validateSchema('RunnerDetails', { ...neverContacted, contacted_at: '2025-03-12T08:00:00Z' }).errors,
    ).not.toEqual([]);
  });
});
