/**
 * Lists whose records depend on a query parameter (`x-variants`) are typed by the call: without the parameter, the
 * full record, so a strict consumer keeps `MergeRequest` and `GroupProject` with no cast; paging over them compiles
 * without annotations.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  createServiceApi,
  type GroupProject,
  type MergeRequest,
  type MergeRequestSimple,
  type ProjectSimple,
} from '@service-api/client';

const api = createServiceApi({ host: 'https://service.example' });
const project = { path: { id: 1 } };

describe('the project merge request list, keyed on view', () => {
  it('is MergeRequest[] without view, MergeRequestSimple[] with view=simple', async () => {
    const list: MergeRequest[] = await api.mergeRequests.listProjectMergeRequests({ path: { id: 1 } });
    // The consumer's line; noUncheckedIndexedAccess (on here) adds `undefined` to every index.
    const m: MergeRequest | undefined = (await api.mergeRequests.listProjectMergeRequests({ path: { id: 1 } }))[0];
    expectTypeOf(list).toEqualTypeOf<MergeRequest[]>();
    expectTypeOf(m).toEqualTypeOf<MergeRequest | undefined>();
    const simple = await api.mergeRequests.listProjectMergeRequests({ ...project, query: { view: 'simple' } });
    expectTypeOf(simple).toEqualTypeOf<MergeRequestSimple[]>();
  });

  it('pages without annotations', async () => {
    for await (const page of api.mergeRequests.listProjectMergeRequests.pages(project))
      for (const mr of page) expectTypeOf(mr.merged_at).toEqualTypeOf<string | null | undefined>();
    for await (const mr of api.mergeRequests.listProjectMergeRequests.iterate(project))
      expectTypeOf(mr).toEqualTypeOf<MergeRequest>();
    for (let page = 1; ; page++) {
      const batch = await api.mergeRequests.listProjectMergeRequests({ ...project, query: { page } });
      expectTypeOf(batch).toEqualTypeOf<MergeRequest[]>();
      if (batch.length === 0) break;
    }
  });
});

describe('the group project list, keyed on simple', () => {
  it('is GroupProject[] without simple, ProjectSimple[] with simple=true', async () => {
    expectTypeOf(await api.groups.listProjects({ path: { id: 1 } })).toEqualTypeOf<GroupProject[]>();
    expectTypeOf(await api.groups.listProjects({ path: { id: 1 }, query: { simple: true } })).toEqualTypeOf<
      ProjectSimple[]
    >();
    for await (const item of api.groups.listProjects.iterate({ path: { id: 1 } }))
      expectTypeOf(item).toEqualTypeOf<GroupProject>();
  });
});
