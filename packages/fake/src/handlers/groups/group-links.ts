/**
 * A group's LDAP and SAML links, its LDAP sync, and sharing it with another group, for the group's owners and
 * administrators. The fake is a self-managed Ultimate instance: the Premium/Ultimate and self-managed operations work.
 * A share gives the members of the other group at most `group_access` in this group (see `Store.groupAccess`).
 */
import type { Handler, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeData, FakeGroup } from '../../data.ts';
import { message, paginate } from '../../common.ts';
import type { Store } from '../../store.ts';
import { GROUP_NOT_FOUND, ownedGroup, readableGroup } from '../group-access.ts';
import { groupRecord } from './groups.ts';

type LdapLink = NonNullable<FakeData['ldap_group_links']>[number];
type SamlLink = NonNullable<FakeData['saml_group_links']>[number];

const LDAP_LINK_NOT_FOUND = { status: 404 as const, body: message('404 LDAP Group Link Not Found') };
const SAML_LINK_NOT_FOUND = { status: 404 as const, body: message('404 SAML Group Link Not Found') };
const conflict = (text: string) => ({ status: 409 as const, body: message(`409 Conflict - ${text}`) });

const ldapLinks = (store: Store) => (store.data.ldap_group_links ??= []);
const samlLinks = (store: Store) => (store.data.saml_group_links ??= []);
const shares = (store: Store) => (store.data.group_shares ??= []);

const ldapRecord = ({ group_id: _group, ...link }: LdapLink) => link;
const samlRecord = (link: SamlLink) => ({
  name: link.name,
  access_level: link.access_level,
  member_role_id: link.member_role_id ?? null,
});
/** Removes the group's LDAP links that match; 204, or 404 when none did. */
const removeLdap = (store: Store, group: FakeGroup, matches: (link: LdapLink) => boolean) => {
  const kept = ldapLinks(store).filter((l) => l.group_id !== group.id || !matches(l));
  if (kept.length === ldapLinks(store).length) return LDAP_LINK_NOT_FOUND;
  store.data.ldap_group_links = kept;
  store.now(true);
  return { status: 204 as const };
};

/** The group record with the groups it is shared with. */
const sharedGroupRecord = (store: Store, group: FakeGroup) => ({
  ...groupRecord(store, group),
  shared_with_groups: shares(store)
    .filter((s) => s.group_id === group.id)
    .flatMap((s) => {
      const other = store.group(s.shared_with_group_id);
      return other
        ? [
            {
              group_id: other.id,
              group_name: other.name,
              group_full_path: store.groupPath(other),
              group_access_level: s.group_access,
              expires_at: s.expires_at,
            },
          ]
        : [];
    }),
});

const syncLdap =
  (store: Store): Handler<'groups/sync-ldap', Principal> =>
  ({ params }, { principal }) => {
    const { refused } = ownedGroup(store, params.id, principal);
    return refused ?? { status: 202, body: { message: '202 Accepted' } };
  };

const listLdapGroupLinks =
  (store: Store): Handler<'groups/list-ldap-group-links', Principal> =>
  ({ params, query }, { principal, request }) => {
    const { group, refused } = ownedGroup(store, params.id, principal);
    if (refused) return refused;
    const page = paginate(
      ldapLinks(store).filter((l) => l.group_id === group.id),
      query,
      request,
    );
    return { status: 200, body: page.items.map(ldapRecord), headers: page.headers };
  };

const createLdapGroupLink =
  (store: Store): Handler<'groups/create-ldap-group-link', Principal> =>
  ({ params, body }, { principal }) => {
    const { group, refused } = ownedGroup(store, params.id, principal);
    if (refused) return refused;
    const { cn, filter, group_access, provider } = body as {
      cn?: string;
      filter?: string;
      group_access: LdapLink['group_access'];
      provider: string;
    };
    const same = (l: LdapLink) =>
      l.group_id === group.id && l.provider === provider && (cn !== undefined ? l.cn === cn : l.filter === filter);
    if (ldapLinks(store).some(same)) return conflict('the group already has this LDAP link');
    const link: LdapLink = {
      group_id: group.id,
      ...(cn !== undefined ? { cn } : { filter }),
      group_access,
      provider,
    };
    ldapLinks(store).push(link);
    store.now(true);
    return { status: 201, body: ldapRecord(link) };
  };

const deleteLdapGroupLink =
  (store: Store): Handler<'groups/delete-ldap-group-link', Principal> =>
  ({ params, body }, { principal }) => {
    const { group, refused } = ownedGroup(store, params.id, principal);
    if (refused) return refused;
    const { cn, filter, provider } = body as { cn?: string; filter?: string; provider: string };
    return removeLdap(
      store,
      group,
      (l) => l.provider === provider && (cn !== undefined ? l.cn === cn : l.filter === filter),
    );
  };

const deleteLdapGroupLinkByCn =
  (store: Store): Handler<'groups/delete-ldap-group-link-by-cn', Principal> =>
  ({ params }, { principal }) => {
    const { group, refused } = ownedGroup(store, params.id, principal);
    if (refused) return refused;
    return removeLdap(store, group, (l) => l.cn === params.cn);
  };

const deleteLdapGroupLinkByProvider =
  (store: Store): Handler<'groups/delete-ldap-group-link-by-provider', Principal> =>
  ({ params }, { principal }) => {
    const { group, refused } = ownedGroup(store, params.id, principal);
    if (refused) return refused;
    return removeLdap(store, group, (l) => l.provider === params.provider && l.cn === params.cn);
  };

const listSamlGroupLinks =
  (store: Store): Handler<'groups/list-saml-group-links', Principal> =>
  ({ params, query }, { principal, request }) => {
    const { group, refused } = ownedGroup(store, params.id, principal);
    if (refused) return refused;
    const page = paginate(
      samlLinks(store).filter((l) => l.group_id === group.id),
      query,
      request,
    );
    return { status: 200, body: page.items.map(samlRecord), headers: page.headers };
  };

const getSamlGroupLink =
  (store: Store): Handler<'groups/get-saml-group-link', Principal> =>
  ({ params }, { principal }) => {
    const { group, refused } = ownedGroup(store, params.id, principal);
    if (refused) return refused;
    const link = samlLinks(store).find((l) => l.group_id === group.id && l.name === params.saml_group_name);
    return link ? { status: 200, body: samlRecord(link) } : SAML_LINK_NOT_FOUND;
  };

const createSamlGroupLink =
  (store: Store): Handler<'groups/create-saml-group-link', Principal> =>
  ({ params, body }, { principal }) => {
    const { group, refused } = ownedGroup(store, params.id, principal);
    if (refused) return refused;
    if (samlLinks(store).some((l) => l.group_id === group.id && l.name === body.saml_group_name))
      return conflict('the group already has a link to this SAML group');
    const link: SamlLink = {
      group_id: group.id,
      name: body.saml_group_name,
      access_level: body.access_level,
      member_role_id: body.member_role_id ?? null,
    };
    samlLinks(store).push(link);
    store.now(true);
    return { status: 201, body: samlRecord(link) };
  };

const deleteSamlGroupLink =
  (store: Store): Handler<'groups/delete-saml-group-link', Principal> =>
  ({ params }, { principal }) => {
    const { group, refused } = ownedGroup(store, params.id, principal);
    if (refused) return refused;
    const at = samlLinks(store).findIndex((l) => l.group_id === group.id && l.name === params.saml_group_name);
    if (at < 0) return SAML_LINK_NOT_FOUND;
    samlLinks(store).splice(at, 1);
    store.now(true);
    return { status: 204 };
  };

const share =
  (store: Store): Handler<'groups/share', Principal> =>
  ({ params, body }, { principal }) => {
    const { group, refused } = ownedGroup(store, params.id, principal);
    if (refused) return refused;
    const other = readableGroup(store, body.group_id, principal);
    if (!other) return GROUP_NOT_FOUND;
    if (other.id === group.id)
      return { status: 400, body: message('400 Bad request - a group cannot be shared with itself') };
    if (shares(store).some((s) => s.group_id === group.id && s.shared_with_group_id === other.id))
      return conflict('the group is already shared with this group');
    shares(store).push({
      group_id: group.id,
      shared_with_group_id: other.id,
      group_access: body.group_access,
      expires_at: body.expires_at ?? null,
    });
    store.now(true);
    return { status: 200, body: sharedGroupRecord(store, group) };
  };

const unshare =
  (store: Store): Handler<'groups/unshare', Principal> =>
  ({ params }, { principal }) => {
    const { group, refused } = ownedGroup(store, params.id, principal);
    if (refused) return refused;
    const at = shares(store).findIndex((s) => s.group_id === group.id && s.shared_with_group_id === params.group_id);
    if (at < 0) return { status: 404, body: message('404 Group Link Not Found') };
    shares(store).splice(at, 1);
    store.now(true);
    return { status: 204 };
  };

export function groupLinkHandlers(store: Store): Handlers<Principal> {
  return {
    'groups/sync-ldap': syncLdap(store),
    'groups/list-ldap-group-links': listLdapGroupLinks(store),
    'groups/create-ldap-group-link': createLdapGroupLink(store),
    'groups/delete-ldap-group-link': deleteLdapGroupLink(store),
    'groups/delete-ldap-group-link-by-cn': deleteLdapGroupLinkByCn(store),
    'groups/delete-ldap-group-link-by-provider': deleteLdapGroupLinkByProvider(store),
    'groups/list-saml-group-links': listSamlGroupLinks(store),
    'groups/get-saml-group-link': getSamlGroupLink(store),
    'groups/create-saml-group-link': createSamlGroupLink(store),
    'groups/delete-saml-group-link': deleteSamlGroupLink(store),
    'groups/share': share(store),
    'groups/unshare': unshare(store),
  };
}
