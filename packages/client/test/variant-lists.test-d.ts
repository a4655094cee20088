/**
 * Lists whose records depend on a query parameter (`x-variants`): the plain method resolves to the record of a call
 * without the parameter, so a strict consumer keeps `MergeRequest` and `GroupProject` with no cast; each other view
 * is a method of its own (`.simple`, `.statistics`) that sends the parameter. None is generic, so a hand-written
 * loop that feeds `withResponse(…).pagination.nextPage` into the next call compiles without annotations (a generic
 * method gave TS7022 there: "'r' implicitly has type 'any' because … referenced … in its own initializer").
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  createServiceApi,
  type Group,
  type GroupProject,
  type MergeRequest,
  type MergeRequestSimple,
  type Project,
  type ProjectSimple,
} from '@service-api/client';

const api = createServiceApi({ host: 'https://service.example' });
const project = { path: { id: 1 } };
const group = { path: { id: 1 } };
type GroupWithoutStatistics = Omit<Group, 'statistics'> & { statistics?: never };

describe('the project merge request list, keyed on view', () => {
  const list = api.mergeRequests.listProjectMergeRequests;

  it('is MergeRequest[] without view, MergeRequestSimple[] from .simple', async () => {
    const all: MergeRequest[] = await api.mergeRequests.listProjectMergeRequests({ path: { id: 1 } });
    // The consumer's line; noUncheckedIndexedAccess (on here) adds `undefined` to every index.
    const m: MergeRequest | undefined = (await api.mergeRequests.listProjectMergeRequests({ path: { id: 1 } }))[0];
    expectTypeOf(all).toEqualTypeOf<MergeRequest[]>();
    expectTypeOf(m).toEqualTypeOf<MergeRequest | undefined>();
    expectTypeOf(await list.simple(project)).toEqualTypeOf<MergeRequestSimple[]>();
    expectTypeOf(await list.simple({ ...project, query: { view: 'simple', page: 2 } })).toEqualTypeOf<
      MergeRequestSimple[]
    >();
    expectTypeOf((await list.simple.withResponse(project)).data).toEqualTypeOf<MergeRequestSimple[]>();
    for await (const mr of list.simple.iterate(project)) expectTypeOf(mr).toEqualTypeOf<MergeRequestSimple>();
    expectTypeOf(await list.simple.all(project)).toEqualTypeOf<MergeRequestSimple[]>();
  });

  it('refuses view on the plain method: it would be typed as the full record', async () => {
    // @ts-expect-error: view=simple is .simple(…)
    await list({ ...project, query: { view: 'simple' } });
    // @ts-expect-error: nor through extra
    await list({ ...project, extra: { query: { view: 'simple' } } });
    const input = { ...project, query: { view: 'simple' as const } };
    // @ts-expect-error: nor through a variable, where no excess property check runs
    await list.withResponse(input);
    // @ts-expect-error: the simple view is not a MergeRequest
    const full: MergeRequest[] = await list.simple(project);
    return full;
  });

  it('pages by withResponse(…).pagination.nextPage without annotations', async () => {
    let page: number | undefined = 1;
    while (page !== undefined) {
      const r = await api.mergeRequests.listProjectMergeRequests.withResponse({ path: { id: 1 }, query: { page } });
      for (const mr of r.data) expectTypeOf(mr).toEqualTypeOf<MergeRequest>();
      page = r.pagination.nextPage;
    }
    let next = 1;
    for (;;) {
      const r = await list.simple.withResponse({ ...project, query: { page: next, per_page: 100 } });
      for (const mr of r.data) expectTypeOf(mr).toEqualTypeOf<MergeRequestSimple>();
      if (r.pagination.nextPage === undefined) break;
      next = r.pagination.nextPage;
    }
  });

  it('pages with pages(), iterate(), all() and a counter', async () => {
    for await (const batch of list.pages(project))
      for (const mr of batch) expectTypeOf(mr.merged_at).toEqualTypeOf<string | null | undefined>();
    for await (const mr of list.iterate(project)) expectTypeOf(mr).toEqualTypeOf<MergeRequest>();
    expectTypeOf(await list.all(project, { maxPages: 2 })).toEqualTypeOf<MergeRequest[]>();
    for (let page = 1; ; page++) {
      const batch = await list({ ...project, query: { page } });
      expectTypeOf(batch).toEqualTypeOf<MergeRequest[]>();
      if (batch.length === 0) break;
    }
  });
});

describe('the global merge request list, keyed on view', () => {
  const list = api.mergeRequests.listMergeRequests;

  it('is MergeRequest[] without view, MergeRequestSimple[] from .simple, and refuses view', async () => {
    expectTypeOf(await list()).toEqualTypeOf<MergeRequest[]>();
    expectTypeOf(await list({ query: { state: 'opened' } })).toEqualTypeOf<MergeRequest[]>();
    expectTypeOf(await list.simple()).toEqualTypeOf<MergeRequestSimple[]>();
    expectTypeOf(await list.simple({ query: { scope: 'all' } })).toEqualTypeOf<MergeRequestSimple[]>();
    // @ts-expect-error: view=simple is .simple(…)
    await list({ query: { view: 'simple' } });
  });

  it('pages without annotations', async () => {
    let page: number | undefined = 1;
    while (page !== undefined) {
      const r = await api.mergeRequests.listMergeRequests.withResponse({ query: { page } });
      for (const mr of r.data) expectTypeOf(mr).toEqualTypeOf<MergeRequest>();
      page = r.pagination.nextPage;
    }
    let next = 1;
    for (;;) {
      const r = await list.withResponse({ query: { page: next } });
      expectTypeOf(r.data).toEqualTypeOf<MergeRequest[]>();
      if (r.pagination.nextPage === undefined) break;
      next = r.pagination.nextPage;
    }
  });
});

describe('the group project list, keyed on simple', () => {
  const list = api.groups.listProjects;

  it('is GroupProject[] without simple, ProjectSimple[] from .simple', async () => {
    expectTypeOf(await list(group)).toEqualTypeOf<GroupProject[]>();
    expectTypeOf(await list({ ...group, query: { simple: false } })).toEqualTypeOf<GroupProject[]>();
    expectTypeOf(await list.simple(group)).toEqualTypeOf<ProjectSimple[]>();
    for await (const item of list.iterate(group)) expectTypeOf(item).toEqualTypeOf<GroupProject>();
    for await (const item of list.simple.iterate(group)) expectTypeOf(item).toEqualTypeOf<ProjectSimple>();
  });

  it('refuses simple: true on the plain method, and a flag the type cannot see', async () => {
    const flag = Math.random() < 0.5;
    // @ts-expect-error: simple=true is .simple(…)
    await list({ ...group, query: { simple: true } });
    // @ts-expect-error: either view: choose the method
    await list({ ...group, query: { simple: flag } });
  });

  it('pages without annotations', async () => {
    let page: number | undefined = 1;
    while (page !== undefined) {
      const r = await api.groups.listProjects.withResponse({ path: { id: 1 }, query: { page } });
      for (const p of r.data) expectTypeOf(p).toEqualTypeOf<GroupProject>();
      page = r.pagination.nextPage;
    }
    let next = 1;
    for (;;) {
      const r = await list.simple.withResponse({ ...group, query: { page: next } });
      for (const p of r.data) expectTypeOf(p).toEqualTypeOf<ProjectSimple>();
      if (r.pagination.nextPage === undefined) break;
      next = r.pagination.nextPage;
    }
  });
});

describe('the project lists, keyed on simple', () => {
  it('are Project[] without simple, ProjectSimple[] from .simple, and page without annotations', async () => {
    expectTypeOf(await api.projects.listProjects()).toEqualTypeOf<Project[]>();
    expectTypeOf(await api.projects.listProjects.simple()).toEqualTypeOf<ProjectSimple[]>();
    const user = { path: { user_id: 'dev' } };
    expectTypeOf(await api.projects.listUserProjects(user)).toEqualTypeOf<Project[]>();
    expectTypeOf(await api.projects.listUserProjects.simple(user)).toEqualTypeOf<ProjectSimple[]>();
    // @ts-expect-error: simple=true is .simple(…)
    await api.projects.listProjects({ query: { simple: true } });
    let page: number | undefined = 1;
    while (page !== undefined) {
      const r = await api.projects.listProjects.withResponse({ query: { page } });
      for (const p of r.data) expectTypeOf(p).toEqualTypeOf<Project>();
      page = r.pagination.nextPage;
    }
    page = 1;
    while (page !== undefined) {
      const r = await api.projects.listUserProjects.simple.withResponse({ ...user, query: { page } });
      for (const p of r.data) expectTypeOf(p).toEqualTypeOf<ProjectSimple>();
      page = r.pagination.nextPage;
    }
  });
});

describe('the group lists, keyed on statistics', () => {
  it('have no statistics field without it, Group from .statistics, and page without annotations', async () => {
    expectTypeOf(await api.groups.listGroups()).toEqualTypeOf<GroupWithoutStatistics[]>();
    expectTypeOf(await api.groups.listGroups.statistics()).toEqualTypeOf<Group[]>();
    expectTypeOf(await api.groups.listSubgroups(group)).toEqualTypeOf<GroupWithoutStatistics[]>();
    expectTypeOf(await api.groups.listSubgroups.statistics(group)).toEqualTypeOf<Group[]>();
    expectTypeOf(await api.groups.listDescendantGroups(group)).toEqualTypeOf<GroupWithoutStatistics[]>();
    expectTypeOf(await api.groups.listDescendantGroups.statistics(group)).toEqualTypeOf<Group[]>();
    // @ts-expect-error: statistics=true is .statistics(…)
    await api.groups.listGroups({ query: { statistics: true } });
    let page: number | undefined = 1;
    while (page !== undefined) {
      const r = await api.groups.listSubgroups.statistics.withResponse({ ...group, query: { page } });
      for (const g of r.data) expectTypeOf(g).toEqualTypeOf<Group>();
      page = r.pagination.nextPage;
    }
    page = 1;
    while (page !== undefined) {
      const r = await api.groups.listDescendantGroups.withResponse({ ...group, query: { page } });
      for (const g of r.data) expectTypeOf(g.statistics).toEqualTypeOf<undefined>();
      page = r.pagination.nextPage;
    }
  });
});
