/**
 * The types TanStack Query sees through @service-api/client/query: data and error typed from the options alone, with
 * no cast and no type argument written by the caller.
 */
import { InfiniteQueryObserver, MutationObserver, QueryClient, QueryObserver } from '@tanstack/query-core';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createServiceApi,
  type Job,
  type MergeRequest,
  type MergeRequestSimple,
  type ServiceApiError,
} from '@service-api/client';
import { type PageParam, type ServicePage, type ServiceQueries, serviceQueries } from '@service-api/client/query';

const api = createServiceApi({ host: 'https://service.example' });
const queries = serviceQueries(api);
const queryClient = new QueryClient();
const input = { path: { id: 'my-group/my-project' } };

describe('@service-api/client/query types', () => {
  it('types a query’s data and error, and the data under its key', () => {
    const options = queries.mergeRequests.listMergeRequests.queryOptions({ query: { state: 'opened' } });
    const result = new QueryObserver(queryClient, options).getCurrentResult();
    expectTypeOf(result.data).toEqualTypeOf<MergeRequest[] | undefined>();
    expectTypeOf(result.error).toEqualTypeOf<ServiceApiError | null>();
    expectTypeOf(queryClient.getQueryData(options.queryKey)).toEqualTypeOf<MergeRequest[] | undefined>();
    expectTypeOf(queryClient.fetchQuery(options)).resolves.toEqualTypeOf<MergeRequest[]>();
    expectTypeOf(queryClient.getQueryState(options.queryKey)?.error).toEqualTypeOf<
      ServiceApiError | null | undefined
    >();
  });

  it('types data as the method does', () => {
    const options = queries.mergeRequests.listProjectMergeRequests.queryOptions(input);
    const listed = api.mergeRequests.listProjectMergeRequests(input);
    expectTypeOf(queryClient.fetchQuery(options)).resolves.toEqualTypeOf<Awaited<typeof listed>>();
    expectTypeOf(listed).resolves.toEqualTypeOf<MergeRequest[]>();
    const simple = queries.mergeRequests.listProjectMergeRequests.simple.queryOptions(input);
    expectTypeOf(queryClient.fetchQuery(simple)).resolves.toEqualTypeOf<MergeRequestSimple[]>();
  });

  it('types each view by its method, and keys it by the input as sent', () => {
    const simple = queries.mergeRequests.listMergeRequests.simple.queryOptions({ query: { state: 'opened' } });
    expectTypeOf(queryClient.fetchQuery(simple)).resolves.toEqualTypeOf<MergeRequestSimple[]>();
    expectTypeOf(simple.queryKey[1].query?.view).toEqualTypeOf<'simple' | undefined>();
    const full = queries.mergeRequests.listMergeRequests.queryOptions();
    expectTypeOf(queryClient.fetchQuery(full)).resolves.toEqualTypeOf<MergeRequest[]>();
    const pages = queries.mergeRequests.listProjectMergeRequests.simple.infiniteQueryOptions(input);
    const result = new InfiniteQueryObserver(queryClient, pages).getCurrentResult();
    expectTypeOf(result.data?.pages).toEqualTypeOf<ServicePage<MergeRequestSimple>[] | undefined>();
    // @ts-expect-error: view=simple is .simple
    queries.mergeRequests.listMergeRequests.queryOptions({ query: { view: 'simple' } });
    // @ts-expect-error: the project id is required by the view too
    queries.mergeRequests.listProjectMergeRequests.simple.queryOptions();
  });

  it('requires the input an operation requires, and checks it', () => {
    // @ts-expect-error: the project id is required
    queries.jobs.listProjectJobs.queryOptions();
    // @ts-expect-error: not a scope of the list
    queries.jobs.listProjectJobs.queryOptions({ path: { id: 1 }, query: { 'scope[]': ['nope'] } });
    expectTypeOf(queryClient.fetchQuery(queries.jobs.listProjectJobs.queryOptions(input))).resolves.toEqualTypeOf<
      Job[]
    >();
  });

  it('types an infinite query’s pages', () => {
    const options = queries.jobs.listProjectJobs.infiniteQueryOptions(input);
    const result = new InfiniteQueryObserver(queryClient, options).getCurrentResult();
    expectTypeOf(result.data?.pages).toEqualTypeOf<ServicePage<Job>[] | undefined>();
    expectTypeOf(result.data?.pageParams).toEqualTypeOf<PageParam[] | undefined>();
    expectTypeOf(result.error).toEqualTypeOf<ServiceApiError | null>();
    // Only lists have pages.
    // @ts-expect-error: merge is not paginated
    queries.mergeRequests.merge.infiniteQueryOptions;
  });

  it('types a mutation’s variables, data and error', () => {
    const observer = new MutationObserver(queryClient, queries.mergeRequests.createMergeRequest.mutationOptions());
    expectTypeOf(observer.getCurrentResult().data).toEqualTypeOf<MergeRequest | undefined>();
    expectTypeOf(observer.getCurrentResult().error).toEqualTypeOf<ServiceApiError | null>();
    expectTypeOf(observer.mutate)
      .parameter(0)
      .toHaveProperty('body')
      .toMatchTypeOf<{ source_branch: string; target_branch: string; title: string }>();
  });

  it('gives every method helpers: downloads a Blob, HEAD operations their headers', () => {
    const blob = queries.projectImportExport.downloadExport.queryOptions({ path: { id: 1 } });
    expectTypeOf(queryClient.fetchQuery(blob)).resolves.toEqualTypeOf<Blob>();
    const head = queries.repository.getFileMetadata.queryOptions({
      path: { id: 1, file_path: 'README.md' },
      query: { ref: 'main' },
    });
    expectTypeOf(queryClient.fetchQuery(head))
      .resolves.toHaveProperty('X-Service-Size')
      .toEqualTypeOf<number | undefined>();
    type Unmatched = {
      [G in keyof ServiceQueries]: {
        [N in keyof ServiceQueries[G]]: [ServiceQueries[G][N]] extends [never] ? `${G}.${N & string}` : never;
      }[keyof ServiceQueries[G]];
    }[keyof ServiceQueries];
    expectTypeOf<Unmatched>().toEqualTypeOf<never>();
  });

  it('keys by operation id, for invalidateQueries', () => {
    expectTypeOf(queries.mergeRequests.listProjectMergeRequests.operationKey).toEqualTypeOf<
      readonly [operationId: string]
    >();
    expectTypeOf(queries).not.toHaveProperty('raw');
  });
});
