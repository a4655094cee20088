/**
 * The fake's project lists of a group and of a user through the generated client, responses validated: visibility,
 * subgroups, filters, orderings and pagination over the real collection; personal namespaces and private profiles.
 */
import { describe, expect, it } from 'vitest';
import { defaultData, type FakeProject } from '../src/index.ts';
import { status, useFake } from '../../../test/support/fake.ts';

const project = (
  id: number,
  name: string,
  namespace_id: number,
  visibility: FakeProject['visibility'],
  extra: Partial<FakeProject> = {},
): FakeProject => ({
  id,
  name,
  path: name.toLowerCase().replace(/ /g, '-'),
  namespace_id,
  visibility,
  default_branch: 'main',
  members: [],
  files: { 'README.md': `# ${name}\n` },
  ...extra,
});

const data = defaultData();
// 25 more public projects in my-group (ids 10..34), personal namespaces of the developer (101) and the reporter
// (102, private profile), with two projects of the developer and one of the reporter.
for (let i = 0; i < 25; i += 1)
  data.projects.push(project(10 + i, `Bulk ${String.fromCharCode(97 + ((i * 7) % 25))}${i}`, 1, 'public'));
data.user_namespaces = [
  { id: 101, user_id: 4 },
  { id: 102, user_id: 5, private_profile: true },
];
data.projects.push(
  project(50, 'Sandbox', 101, 'public', { description: 'Experiments' }),
  project(51, 'Diary', 101, 'private'),
  project(52, 'Notes', 102, 'public'),
);
const { as } = useFake({ data });

describe('projects of a group', () => {
  it("the group's projects the caller can read, newest first; include_subgroups adds the descendants'", async () => {
    const ids = async (token: string, query: Record<string, unknown> = {}, id: number | string = 'my-group') =>
      (await as(token).groups.listProjects({ path: { id }, query: { per_page: 100, ...query } })).map((p) => p.id);
    const bulk = Array.from({ length: 25 }, (_, i) => 34 - i);
    expect(await ids('outsider-token')).toEqual([...bulk, 1]);
    expect(await ids('developer-token')).toEqual([...bulk, 2, 1]); // a member of the private project
    expect(await ids('owner-token', { include_subgroups: true })).toEqual([...bulk, 3, 2, 1]); // with the subgroup's internal project
    expect(await ids('outsider-token', { include_subgroups: true })).toEqual([...bulk, 3, 1]); // internal: any signed-in user
    expect(await ids('developer-token', { include_subgroups: false }, 'my-group/sub')).toEqual([3]);
    expect(await ids('owner-token', { visibility: 'private' })).toEqual([2]);
    expect(await ids('owner-token', { owned: true, include_subgroups: true, sort: 'asc', per_page: 3 })).toEqual([
      1, 2, 3,
    ]);
    expect(await ids('developer-token', { min_access_level: 30 })).toEqual([2, 1]);
    expect(await ids('developer-token', { search: 'SECRET' })).toEqual([2]);
    expect(await ids('developer-token', { archived: true })).toEqual([2]); // the data set archives project 2
    expect(await ids('developer-token', { starred: true })).toEqual([1]); // dev starred project 1
    expect(await ids('developer-token', { topic: 'ruby' })).toEqual([]);
    expect(await status(as('developer-token').groups.listProjects({ path: { id: 999 } }))).toBe(404);
    expect(await status(as().groups.listProjects({ path: { id: 1 } }))).toBe(401);
  });

  it("orders by name and path both ways; similarity ignores sort and ranks the search's matches by name", async () => {
    const api = as('developer-token');
    const names = async (query: Record<string, unknown>) =>
      (await api.groups.listProjects({ path: { id: 1 }, query: { per_page: 100, ...query } })).map((p) => p.name);
    const byName = await names({ order_by: 'name', sort: 'asc' });
    expect(byName).toEqual([...byName].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(await names({ order_by: 'name', sort: 'desc' })).toEqual([...byName].reverse());
    expect(await names({ order_by: 'similarity', sort: 'desc' })).toEqual(byName);
    const paths = (
      await api.groups.listProjects({ path: { id: 1 }, query: { per_page: 100, order_by: 'path', sort: 'asc' } })
    ).map((p) => p.path);
    expect(paths).toEqual([...paths].sort());
    expect(paths.slice(-2)).toEqual(['my-project', 'secret']);
    expect((await names({ order_by: 'similarity', search: 'bulk a' })).slice(0, 1)).toEqual(['Bulk a0']);
  });

  it('pages through the real collection with Link, x-page, x-next-page and x-total', async () => {
    const api = as('outsider-token');
    const seen: number[] = [];
    let page: number | undefined = 1;
    while (page !== undefined) {
      const response = await api.groups.listProjects.withResponse({ path: { id: 1 }, query: { per_page: 10, page } });
      expect(response.rawHeaders.get('x-total')).toBe('26');
      expect(response.headers.Link).toContain('rel="last"');
      seen.push(...response.data.map((p) => p.id));
      const next: unknown = response.headers['x-next-page'];
      page = next ? Number(next) : undefined;
    }
    expect(seen).toHaveLength(26);
    expect(new Set(seen).size).toBe(26);
    expect(await api.groups.listProjects.all({ path: { id: 1 }, query: { per_page: 7 } })).toHaveLength(26);
  });

  it('records carry the documented fields: urls, namespace, flags, creator', async () => {
    const [record] = await as('developer-token').groups.listProjects({ path: { id: 'my-group/sub' } });
    expect(record).toMatchObject({
      id: 3,
      name: 'Tools',
      path: 'tools',
      path_with_namespace: 'my-group/sub/tools',
      name_with_namespace: 'My Group / Sub / Tools',
      visibility: 'internal',
      archived: false,
      default_branch: 'main',
      topics: ['tools'],
      tag_list: ['tools'],
      web_url: 'https://service.example/my-group/sub/tools',
      http_url_to_repo: 'https://service.example/my-group/sub/tools.git',
      ssh_url_to_repo: 'git@service.example:my-group/sub/tools.git',
      issues_enabled: false,
      merge_requests_enabled: false,
      creator_id: 1,
      namespace: { id: 2, kind: 'group', full_path: 'my-group/sub', parent_id: 1 },
    });
  });
});

describe('projects of a user', () => {
  it("only the projects of the user's own namespace the caller can read, by id or username; none for a private profile", async () => {
    const ids = async (token: string, user: string, query: Record<string, unknown> = {}) =>
      (await as(token).projects.listUserProjects({ path: { user_id: user }, query })).map((p) => p.id);
    expect(await ids('developer-token', 'dev')).toEqual([51, 50]);
    expect(await ids('outsider-token', '4')).toEqual([50]); // the private one is not readable
    expect(await ids('admin-token', 'DEV')).toEqual([51, 50]);
    expect(await ids('admin-token', 'rita')).toEqual([]); // private profile
    expect(await ids('admin-token', 'olivia')).toEqual([]); // no personal projects (group projects are not the user's)
    expect(await ids('developer-token', 'dev', { owned: true, visibility: 'private' })).toEqual([51]);
    expect(await ids('developer-token', 'dev', { order_by: 'name', sort: 'asc' })).toEqual([51, 50]);
    expect(await ids('developer-token', 'dev', { search: 'experiments' })).toEqual([50]);
    expect(await ids('developer-token', 'dev', { id_before: 51 })).toEqual([50]);
    expect(await ids('developer-token', 'dev', { starred: true })).toEqual([]);
    expect(await ids('developer-token', 'dev', { updated_after: '2030-01-01T00:00:00Z' })).toEqual([]);
    expect(await status(as('developer-token').projects.listUserProjects({ path: { user_id: 'ghost' } }))).toBe(404);
    expect(await status(as().projects.listUserProjects({ path: { user_id: 'dev' } }))).toBe(401);
  });

  it("the full view by default, the simple view with simple=true; paths in the user's namespace", async () => {
    const [full] = await as('outsider-token').projects.listUserProjects({ path: { user_id: 'dev' } });
    expect(full).toMatchObject({
      id: 50,
      path_with_namespace: 'dev/sandbox',
      name_with_namespace: 'Dev Developer / Sandbox',
      visibility: 'public',
      namespace: { id: 101, kind: 'user', path: 'dev', full_path: 'dev' },
    });
    const [simple] = await as('outsider-token').projects.listUserProjects.simple({ path: { user_id: 'dev' } });
    expect(simple).not.toHaveProperty('visibility');
    expect(simple).toMatchObject({ id: 50, web_url: 'https://service.example/dev/sandbox' });
  });

  it('the namespace owner owns the personal projects (member list aside)', async () => {
    expect((await as('developer-token').projects.listProjects({ query: { owned: true } })).map((p) => p.id)).toEqual([
      51, 50,
    ]);
  });
});
