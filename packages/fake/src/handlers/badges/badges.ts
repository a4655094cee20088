/**
 * Group badges. Placeholders in `link_url` and `image_url` are rendered from the group's oldest project (the lowest id
 * among the group's own projects): `%{project_path}` its full path, `%{project_title}` its name, `%{project_name}` its
 * path, `%{project_id}`, `%{default_branch}`, `%{commit_sha}` the head of the default branch. A group with no project
 * returns the URLs unchanged. Readers of the group list, read and render; owners and administrators write (403).
 */
import type { Handler, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeGroup, FakeGroupBadge } from '../../data.ts';
import { FORBIDDEN, message, paginate } from '../../common.ts';
import type { Store } from '../../store.ts';
import { GROUP_NOT_FOUND, groupLevel, readableGroup } from '../group-access.ts';

const BADGE_NOT_FOUND = { status: 404 as const, body: message('404 Badge Not Found') };

const badges = (store: Store) => (store.data.group_badges ??= []);

/** The URL with the placeholders replaced from the group's oldest project, or unchanged when it has none. */
const render = (store: Store, group: FakeGroup, url: string): string => {
  const oldest = store.data.projects.filter((p) => p.namespace_id === group.id).sort((a, b) => a.id - b.id)[0];
  if (!oldest) return url;
  const values: Record<string, string> = {
    project_path: store.projectPath(oldest),
    project_title: oldest.name,
    project_name: oldest.path,
    project_id: String(oldest.id),
    default_branch: oldest.default_branch,
    commit_sha: oldest.repository.branches[oldest.default_branch] ?? '',
  };
  return url.replace(/%\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
};

const record = (store: Store, group: FakeGroup, badge: FakeGroupBadge) => ({
  id: badge.id,
  name: badge.name,
  link_url: badge.link_url,
  image_url: badge.image_url,
  rendered_link_url: render(store, group, badge.link_url),
  rendered_image_url: render(store, group, badge.image_url),
  kind: 'group' as const,
});

const canAdminister = (store: Store, group: FakeGroup, principal: Principal) =>
  groupLevel(store, group, principal) >= 50;
const find = (store: Store, group: FakeGroup, id: number) =>
  badges(store).find((b) => b.group_id === group.id && b.id === id);

const listGroupBadges =
  (store: Store): Handler<'badges/list-group-badges', Principal> =>
  ({ params, query }, { principal, request }) => {
    const group = readableGroup(store, params.id, principal);
    if (!group) return GROUP_NOT_FOUND;
    const list = badges(store).filter(
      (b) => b.group_id === group.id && (query.name === undefined || b.name === query.name),
    );
    const page = paginate(list, query, request);
    return { status: 200, body: page.items.map((b) => record(store, group, b)), headers: page.headers };
  };

const getGroupBadge =
  (store: Store): Handler<'badges/get-group-badge', Principal> =>
  ({ params }, { principal }) => {
    const group = readableGroup(store, params.id, principal);
    if (!group) return GROUP_NOT_FOUND;
    const badge = find(store, group, params.badge_id);
    return badge ? { status: 200, body: record(store, group, badge) } : BADGE_NOT_FOUND;
  };

const renderGroupBadge =
  (store: Store): Handler<'badges/render-group-badge', Principal> =>
  ({ params, query }, { principal }) => {
    const group = readableGroup(store, params.id, principal);
    if (!group) return GROUP_NOT_FOUND;
    return {
      status: 200,
      body: {
        link_url: query.link_url,
        image_url: query.image_url,
        rendered_link_url: render(store, group, query.link_url),
        rendered_image_url: render(store, group, query.image_url),
      },
    };
  };

const createGroupBadge =
  (store: Store): Handler<'badges/create-group-badge', Principal> =>
  ({ params, body }, { principal }) => {
    const group = readableGroup(store, params.id, principal);
    if (!group) return GROUP_NOT_FOUND;
    if (!canAdminister(store, group, principal)) return FORBIDDEN;
    const badge: FakeGroupBadge = {
      id: store.nextId('group_badges', badges(store)),
      group_id: group.id,
      name: body.name ?? null,
      link_url: body.link_url,
      image_url: body.image_url,
    };
    badges(store).push(badge);
    store.now(true);
    return { status: 201, body: record(store, group, badge) };
  };

const updateGroupBadge =
  (store: Store): Handler<'badges/update-group-badge', Principal> =>
  ({ params, body }, { principal }) => {
    const group = readableGroup(store, params.id, principal);
    if (!group) return GROUP_NOT_FOUND;
    if (!canAdminister(store, group, principal)) return FORBIDDEN;
    const badge = find(store, group, params.badge_id);
    if (!badge) return BADGE_NOT_FOUND;
    if (body?.name !== undefined) badge.name = body.name;
    if (body?.link_url !== undefined) badge.link_url = body.link_url;
    if (body?.image_url !== undefined) badge.image_url = body.image_url;
    store.now(true);
    return { status: 200, body: record(store, group, badge) };
  };

const deleteGroupBadge =
  (store: Store): Handler<'badges/delete-group-badge', Principal> =>
  ({ params }, { principal }) => {
    const group = readableGroup(store, params.id, principal);
    if (!group) return GROUP_NOT_FOUND;
    if (!canAdminister(store, group, principal)) return FORBIDDEN;
    const badge = find(store, group, params.badge_id);
    if (!badge) return BADGE_NOT_FOUND;
    store.keepIds('group_badges', badges(store)); // a deleted badge's id is never given again
    store.data.group_badges = badges(store).filter((b) => b !== badge);
    store.now(true);
    return { status: 204 };
  };

export function badgeHandlers(store: Store): Handlers<Principal> {
  return {
    'badges/list-group-badges': listGroupBadges(store),
    'badges/get-group-badge': getGroupBadge(store),
    'badges/render-group-badge': renderGroupBadge(store),
    'badges/create-group-badge': createGroupBadge(store),
    'badges/update-group-badge': updateGroupBadge(store),
    'badges/delete-group-badge': deleteGroupBadge(store),
  };
}
