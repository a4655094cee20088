/**
 * TanStack Query on the client without glue: @service-api/client/query's options in a QueryClient of
 * @tanstack/query-core against the stateful fake (lists, pages, a mutation and its invalidation), the retry policy
 * counted in requests, and the openapi-fetch middleware that throws `ServiceApiError`. Also the views of a list
 * keyed on a parameter (`x-variants`: `.simple`, `.statistics`), as methods and as query helpers.
 */
import {
  InfiniteQueryObserver,
  isCancelledError,
  MutationObserver,
  QueryClient,
  QueryObserver,
} from '@tanstack/query-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createServiceApi,
  createServiceClient,
  isServiceApiError,
  type ServiceApiError,
  type ServiceClientOptions,
  throwServiceErrors,
} from '@service-api/client';
import { nextPageParam, serviceQueries } from '@service-api/client/query';
import { startFake, type RunningFake } from '../../fake/src/index.ts';

const project = 'my-group/my-project';
let fake: RunningFake;
beforeAll(async () => {
  fake = await startFake();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

/** A client of the fake (or of `fetch`) that counts its requests and does not wait between its own retries. */
function setup(options: Partial<ServiceClientOptions> = {}) {
  const requests: string[] = [];
  const forward = options.fetch ?? ((input, init) => fetch(input, init));
  const api = createServiceApi({
    host: fake.url,
    auth: { privateToken: 'developer-token' },
    retry: { sleep: async () => {} },
    ...options,
    fetch: (input, init) => {
      requests.push(`${init?.method ?? 'GET'} ${String(input).replace(fake.url, '')}`);
      return forward(input, init);
    },
  });
  // A team's global default: TanStack's own 3 retries, which the helpers' options must override.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 3, retryDelay: 0 } } });
  return { api, queries: serviceQueries(api), queryClient, requests };
}

/** Resolves with the observer's first result that satisfies `done`. */
function settle<R>(observer: { subscribe(listener: (result: R) => void): () => void }, done: (result: R) => boolean) {
  return new Promise<R>((resolve) => {
    const unsubscribe = observer.subscribe((result) => {
      if (!done(result)) return;
      unsubscribe();
      resolve(result);
    });
  });
}

describe('query options against the fake', () => {
  it('fetches a list under the key [operationId, input], with TanStack’s signal', async () => {
    const { queries, queryClient, requests } = setup();
    const options = queries.mergeRequests.listProjectMergeRequests.queryOptions({ path: { id: project } });
    expect(options.queryKey).toEqual(['merge-requests/list-project-merge-requests', { path: { id: project } }]);
    const list = await queryClient.fetchQuery(options);
    expect(list.map((mr) => mr.title)).toContain('Add login page');
    expect(queryClient.getQueryData(options.queryKey)).toBe(list);
    expect(requests).toEqual(['GET /api/v4/projects/my-group%2Fmy-project/merge_requests']);
    // Served from the cache: no second request.
    await queryClient.ensureQueryData(options);
    expect(requests).toHaveLength(1);
  });

  it('cancels the request with the query', async () => {
    let aborted = false;
    let sent: () => void = () => undefined;
    const requested = new Promise<void>((resolve) => {
      sent = resolve;
    });
    const { queries, queryClient } = setup({
      fetch: (_input, init) =>
        new Promise<Response>((_resolve, reject) => {
          sent();
          init?.signal?.addEventListener('abort', () => {
            aborted = true;
            reject(init.signal?.reason);
          });
        }),
    });
    const options = queries.projects.listProjects.queryOptions();
    const pending = queryClient.fetchQuery(options).catch((error: unknown) => error);
    await requested; // the request is on its way: cancelling now must abort it
    await queryClient.cancelQueries({ queryKey: queries.projects.listProjects.operationKey });
    expect(isCancelledError(await pending)).toBe(true);
    expect(aborted).toBe(true);
  });

  it('pages an infinite query by x-next-page until the last page', async () => {
    const { queries, queryClient, requests } = setup();
    const options = queries.mergeRequests.listProjectMergeRequests.infiniteQueryOptions({
      path: { id: project },
      query: { per_page: 2 },
    });
    const observer = new InfiniteQueryObserver(queryClient, options);
    let result = await settle(observer, (r) => r.isSuccess);
    while (result.hasNextPage) result = await result.fetchNextPage();
    const pages = result.data?.pages ?? [];
    const all = await queries.mergeRequests.listProjectMergeRequests
      .queryOptions({ path: { id: project }, query: { per_page: 100 } })
      .queryFn({ signal: new AbortController().signal });
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.flatMap((page) => page.data.map((mr) => mr.id))).toEqual(all.map((mr) => mr.id));
    expect(result.data?.pageParams).toEqual([{}, ...pages.slice(1).map((_, i) => ({ page: String(i + 2) }))]);
    expect(pages.at(-1)?.nextPageParam).toBeUndefined();
    expect(pages[0]?.pagination).toMatchObject({ page: 1, perPage: 2, nextPage: 2 });
    expect(requests.slice(0, 3)).toEqual([
      'GET /api/v4/projects/my-group%2Fmy-project/merge_requests?per_page=2',
      'GET /api/v4/projects/my-group%2Fmy-project/merge_requests?per_page=2&page=2',
      'GET /api/v4/projects/my-group%2Fmy-project/merge_requests?per_page=2&page=3',
    ]);
  });

  it('runs a mutation, and the invalidation by operation id refetches the active list', async () => {
    const { queries, queryClient, requests } = setup();
    const list = new QueryObserver(
      queryClient,
      queries.mergeRequests.listProjectMergeRequests.queryOptions({ path: { id: project } }),
    );
    const active = list.subscribe(() => {}); // a mounted component: the query stays active throughout
    const before = await settle(list, (r) => r.isSuccess);
    const create = new MutationObserver(queryClient, {
      ...queries.mergeRequests.createMergeRequest.mutationOptions(),
      onSuccess: () =>
        queryClient.invalidateQueries({ queryKey: queries.mergeRequests.listProjectMergeRequests.operationKey }),
    });
    const count = before.data?.length ?? 0;
    const refetched = settle(list, (r) => r.isSuccess && !r.isFetching && r.data.length > count);
    const created = await create.mutate({
      path: { id: project },
      // Every other branch has an open merge request: this one goes the other way.
      body: { source_branch: 'main', target_branch: 'feature/login', title: 'Query helpers' },
    });
    const after = await refetched;
    active();
    expect(created.title).toBe('Query helpers');
    expect(after.data?.map((mr) => mr.id)).toContain(created.id);
    expect(requests.filter((r) => r.endsWith('/merge_requests'))).toEqual([
      'GET /api/v4/projects/my-group%2Fmy-project/merge_requests',
      'POST /api/v4/projects/my-group%2Fmy-project/merge_requests',
      'GET /api/v4/projects/my-group%2Fmy-project/merge_requests',
    ]);
  });

  it('matches the partial key [operationId, { path }] of one project only', async () => {
    const { queries, queryClient } = setup();
    const jobs = queries.jobs.listProjectJobs;
    await queryClient.fetchQuery(jobs.queryOptions({ path: { id: project }, query: { 'scope[]': ['failed'] } }));
    await queryClient.fetchQuery(jobs.queryOptions({ path: { id: 'my-group/other' } })).catch(() => undefined);
    const matched = queryClient
      .getQueryCache()
      .findAll({ queryKey: [jobs.operationKey[0], { path: { id: project } }] });
    expect(matched.map((query) => query.queryKey)).toEqual([
      ['jobs/list-project-jobs', { path: { id: project }, query: { 'scope[]': ['failed'] } }],
    ]);
  });
});

describe('the views of a list keyed on a parameter, against the fake', () => {
  const input = { path: { id: project }, query: { per_page: 2 } };
  const path = '/api/v4/projects/my-group%2Fmy-project/merge_requests';

  it('the plain method gets the full records, .simple sends view=simple and gets the simple view', async () => {
    const { api, requests } = setup();
    const full = await api.mergeRequests.listProjectMergeRequests(input);
    const simple = await api.mergeRequests.listProjectMergeRequests.simple(input);
    expect(full.length).toBe(2);
    for (const mr of full) expect(mr).toHaveProperty('source_branch');
    expect(simple.map((mr) => mr.iid)).toEqual(full.map((mr) => mr.iid));
    for (const mr of simple) expect(mr).not.toHaveProperty('source_branch');
    expect(input).toEqual({ path: { id: project }, query: { per_page: 2 } }); // the caller's input is left as it was
    expect(requests).toEqual([`GET ${path}?per_page=2`, `GET ${path}?per_page=2&view=simple`]);
  });

  it('pages a view: withResponse, pages(), iterate() and all() send its parameter on every page', async () => {
    const { api, requests } = setup();
    const simple = api.mergeRequests.listProjectMergeRequests.simple;
    const first = await simple.withResponse(input);
    expect(first.pagination).toMatchObject({ page: 1, perPage: 2, nextPage: 2 });
    const everything = await api.mergeRequests.listProjectMergeRequests.all(input);
    requests.length = 0;
    const all = await simple.all(input);
    expect(all.map((mr) => mr.iid)).toEqual(everything.map((mr) => mr.iid));
    for (const mr of all) expect(mr).not.toHaveProperty('source_branch');
    expect(requests.length).toBe(Math.ceil(everything.length / 2));
    expect(requests[1]).toBe(`GET ${path}?per_page=2&view=simple&page=2`);
    for (const request of requests) expect(request).toContain('view=simple');
    const items = [];
    for await (const mr of simple.iterate(input, { maxPages: 2 })) items.push(mr.iid);
    expect(items).toEqual(all.slice(0, 4).map((mr) => mr.iid));
    let pages = 0;
    for await (const page of simple.pages(input, { maxPages: 2 })) pages += page.length > 0 ? 1 : 0;
    expect(pages).toBe(2);
  });

  it('sends simple=true for the group project list and statistics=true for the group lists', async () => {
    const { api, requests } = setup({ auth: { privateToken: 'admin-token' } });
    const projects = await api.groups.listProjects({ path: { id: 'my-group' } });
    const simpleProjects = await api.groups.listProjects.simple({ path: { id: 'my-group' } });
    expect(projects[0]).toHaveProperty('visibility');
    expect(simpleProjects.map((p) => p.id)).toEqual(projects.map((p) => p.id));
    for (const p of simpleProjects) expect(p).not.toHaveProperty('visibility');
    const groups = await api.groups.listGroups();
    const withStatistics = await api.groups.listGroups.statistics();
    for (const g of groups) expect(g).not.toHaveProperty('statistics');
    expect(withStatistics.length).toBeGreaterThan(0);
    for (const g of withStatistics) expect(g).toHaveProperty('statistics');
    expect(requests).toEqual([
      'GET /api/v4/groups/my-group/projects',
      'GET /api/v4/groups/my-group/projects?simple=true',
      'GET /api/v4/groups',
      'GET /api/v4/groups?statistics=true',
    ]);
  });

  it('gives each view query helpers keyed by the input as sent, under the operation id', async () => {
    const { queries, queryClient, requests } = setup();
    const mergeRequests = queries.mergeRequests.listProjectMergeRequests;
    const simple = mergeRequests.simple.queryOptions({ path: { id: project } });
    const full = mergeRequests.queryOptions({ path: { id: project } });
    expect(simple.queryKey).toEqual([
      'merge-requests/list-project-merge-requests',
      { path: { id: project }, query: { view: 'simple' } },
    ]);
    expect(mergeRequests.simple.operationKey).toEqual(mergeRequests.operationKey);
    const [simpleData, fullData] = await Promise.all([queryClient.fetchQuery(simple), queryClient.fetchQuery(full)]);
    for (const mr of simpleData) expect(mr).not.toHaveProperty('source_branch');
    for (const mr of fullData) expect(mr).toHaveProperty('source_branch');
    const observer = new InfiniteQueryObserver(queryClient, mergeRequests.simple.infiniteQueryOptions(input));
    let result = await settle(observer, (r) => r.isSuccess);
    result = await result.fetchNextPage();
    expect(result.data?.pages.flatMap((page) => page.data.map((mr) => mr.iid))).toEqual(
      simpleData.slice(0, 4).map((mr) => mr.iid),
    );
    expect(requests.slice(2)).toEqual([
      `GET ${path}?per_page=2&view=simple`,
      `GET ${path}?per_page=2&page=2&view=simple`,
    ]);
    const keys = queryClient
      .getQueryCache()
      .findAll({ queryKey: mergeRequests.operationKey })
      .map((query) => query.queryKey);
    expect(keys).toHaveLength(3); // the simple and full queries, and the infinite simple one
  });
});

describe('errors and retries', () => {
  it('fails with a ServiceApiError with its status, after one request for a 404', async () => {
    const { queries, queryClient, requests } = setup();
    const error = await queryClient
      .fetchQuery(queries.jobs.getProjectJob.queryOptions({ path: { id: project, job_id: 999_999 } }))
      .catch((thrown: unknown) => thrown);
    expect(isServiceApiError(error, 'jobs/get-project-job', 404)).toBe(true);
    expect(requests).toHaveLength(1);
  });

  it('does not stack retries: a 503 is tried 3 times by the client, not 3 × 4 with TanStack’s', async () => {
    const { queries, queryClient, requests } = setup({
      fetch: async () => new Response('{"message":"503 Service Unavailable"}', { status: 503, headers: json }),
    });
    const observer = new QueryObserver(queryClient, queries.projects.listProjects.queryOptions());
    const result = await settle(observer, (r) => r.isError);
    expect(result.error).toMatchObject({ name: 'ServiceApiError', status: 503, kind: 'http' });
    expect(result.failureCount).toBe(1);
    expect(requests).toHaveLength(3);
  });

  it('does not retry a failed mutation either', async () => {
    const { queries, queryClient, requests } = setup({
      fetch: async () => new Response('{"message":"409 Conflict"}', { status: 409, headers: json }),
    });
    const create = new MutationObserver(queryClient, queries.mergeRequests.createMergeRequest.mutationOptions());
    const error = await create
      .mutate({ path: { id: project }, body: { source_branch: 'a', target_branch: 'main', title: 'T' } })
      .catch((thrown: ServiceApiError) => thrown);
    expect(isServiceApiError(error, 'merge-requests/create-merge-request', 409)).toBe(true);
    expect(requests).toHaveLength(1);
  });
});

const json = { 'content-type': 'application/json' };

describe('nextPageParam', () => {
  const base = 'https://service.example/api/v4/projects/1/merge_requests?per_page=2';
  it.each([
    ['x-next-page', { nextPage: 3, next: `${base}&page=3` }, base, { page: '3' }],
    ['an empty x-next-page and no Link: the last page', {}, base, undefined],
    [
      'a keyset Link: the parameters that changed',
      { next: `${base}&pagination=keyset&id_after=42` },
      `${base}&pagination=keyset`,
      { id_after: '42' },
    ],
    [
      'a Link off the API origin (a gateway): only its parameters',
      { next: 'http://upstream.internal/api/v4/projects/1/merge_requests?per_page=2&cursor=abc' },
      base,
      { cursor: 'abc' },
    ],
    ['a Link to the same page: none', { next: base }, base, undefined],
  ])('%s', (_, pagination, url, expected) => {
    expect(nextPageParam(pagination, url)).toEqual(expected);
  });
});

describe('throwServiceErrors, for openapi-fetch and openapi-react-query', () => {
  const client = () => {
    const low = createServiceClient({ host: fake.url, auth: { privateToken: 'developer-token' } });
    low.use(throwServiceErrors);
    return low;
  };

  it('rejects a 404 with the operation’s ServiceApiError, as a query', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // What openapi-react-query's queryFn does: call the client, throw its error, return its data.
    const error = await queryClient
      .fetchQuery({
        queryKey: ['get', '/projects/{id}/jobs/{job_id}', project, 999_999],
        queryFn: async ({ signal }) => {
          const { data, error } = await client().GET('/projects/{id}/jobs/{job_id}', {
            params: { path: { id: project, job_id: 999_999 } },
            signal,
          });
          if (error) throw error;
          return data;
        },
      })
      .catch((thrown: unknown) => thrown);
    expect(isServiceApiError(error, 'jobs/get-project-job', 404)).toBe(true);
    expect(error).toMatchObject({ status: 404, body: { message: expect.stringMatching(/^404/) }, documented: true });
  });

  it('leaves a success as it was', async () => {
    const { data } = await client().GET('/projects/{id}/jobs', { params: { path: { id: project } } });
    expect(data?.length).toBeGreaterThan(0);
  });
});
