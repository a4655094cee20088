/**
 * @service-api/client/query: TanStack Query options for every method of `api.*`, without glue. A subpath of its own,
 * so that a client without TanStack Query does not load it; it imports only types from `@tanstack/query-core`.
 *
 * Keys are `[operationId, input]` (`[operationId, input, 'infinite']` for infinite queries): serialisable, and
 * hierarchical, so `invalidateQueries({ queryKey: ['merge-requests/list-project-merge-requests'] })` matches every
 * query of that operation and `[operationId, { path: { id: 42 } }]` those of one project. Every option sets
 * `retry: false`: the client already retries what is worth retrying (see `docs/client.md`, TanStack Query).
 */
import type {
  DataTag,
  InfiniteData,
  InfiniteQueryObserverOptions,
  MutationObserverOptions,
  QueryObserverOptions,
} from '@tanstack/query-core';
import type { ServiceApi } from './index.js';
import type { BinaryMethod, HeadMethod, Method, PaginatedMethod } from './methods.js';
import { operationTable } from './operations.js';
import {
  type ApiResponse,
  type CallInput,
  type CallOptions,
  type Pagination,
  type ServiceApiError,
  withView,
} from './runtime.js';

/** What changes in the query to get the next page: `{ page: '2' }`, or a keyset cursor from `Link`. */
export type PageParam = Record<string, string | string[]>;

/** One page of an infinite query: the items, the pagination headers, and the parameters of the next page, if any. */
export interface ServicePage<Item> {
  data: Item[];
  pagination: Pagination;
  nextPageParam: PageParam | undefined;
}

/** The key of one operation's queries: `[operationId, input]`. */
export type ServiceQueryKey<In> = readonly [operationId: string, input: In];
/** The key of one operation's infinite queries: `[operationId, input, 'infinite']`. */
export type ServiceInfiniteQueryKey<In> = readonly [operationId: string, input: In, kind: 'infinite'];

/** The options the helpers set; the rest of TanStack's options are there (typed) for a spread to add. */
type Given = 'queryKey' | 'queryFn' | 'retry' | 'initialPageParam' | 'getNextPageParam';

/** What `queryOptions(input)` returns: spread it into `useQuery`, `fetchQuery`, a `QueryObserver` … */
export type ServiceQueryOptions<In, Data> = Omit<
  QueryObserverOptions<Data, ServiceApiError, Data, Data, ServiceQueryKey<In>>,
  Given
> & {
  queryKey: DataTag<ServiceQueryKey<In>, Data, ServiceApiError>;
  queryFn: (context: { signal: AbortSignal }) => Promise<Data>;
  retry: false;
};

/** What `infiniteQueryOptions(input)` returns: pages follow `x-next-page`, else the keyset `Link`. */
export type ServiceInfiniteQueryOptions<In, Item> = Omit<
  InfiniteQueryObserverOptions<
    ServicePage<Item>,
    ServiceApiError,
    InfiniteData<ServicePage<Item>, PageParam>,
    ServiceInfiniteQueryKey<In>,
    PageParam
  >,
  Given
> & {
  queryKey: DataTag<ServiceInfiniteQueryKey<In>, InfiniteData<ServicePage<Item>, PageParam>, ServiceApiError>;
  queryFn: (context: { signal: AbortSignal; pageParam: PageParam }) => Promise<ServicePage<Item>>;
  initialPageParam: PageParam;
  getNextPageParam: (lastPage: ServicePage<Item>) => PageParam | undefined;
  retry: false;
};

/** What `mutationOptions()` returns: `mutate(input)` calls the method; `error` is a `ServiceApiError`. */
export type ServiceMutationOptions<In, Data> = MutationObserverOptions<Data, ServiceApiError, In> & {
  mutationKey: readonly [operationId: string];
  mutationFn: (input: In) => Promise<Data>;
  retry: false;
};

type InputArgs<I, Optional extends boolean> = Optional extends true ? [input?: I] : [input: I];

/** The helpers common to every method: `Out<I>` is the success body for the input `I`. */
interface BaseHelpers {
  /** The operation id, the first element of every key of this method: for `invalidateQueries`. */
  readonly operationKey: readonly [operationId: string];
}

interface PlainHelpers<In, Out, Optional extends boolean> extends BaseHelpers {
  queryKey(...args: InputArgs<In, Optional>): DataTag<ServiceQueryKey<In>, Out, ServiceApiError>;
  queryOptions(...args: InputArgs<In, Optional>): ServiceQueryOptions<In, Out>;
  mutationOptions(): ServiceMutationOptions<In, Out>;
}

interface PaginatedHelpers<In, Item, Optional extends boolean> extends PlainHelpers<In, Item[], Optional> {
  infiniteQueryOptions(...args: InputArgs<In, Optional>): ServiceInfiniteQueryOptions<In, Item>;
}

/** What every method has beside the methods of its other views (`simple`, on a list with `x-variants`). */
type Members = 'withResponse' | 'pages' | 'iterate' | 'all';
type ViewName<M> = Exclude<keyof M, Members>;
/** Whether the input may be left out, read from `withResponse` (a method with views is an intersection). */
type OptionalOf<M> = M extends { withResponse(...args: infer A): unknown } ? ([] extends A ? true : false) : false;

type HelpersOf<M> =
  M extends PaginatedMethod<infer In, infer Item, infer _Optional, infer _Headers>
    ? PaginatedHelpers<In, Item, OptionalOf<M>>
    : M extends BinaryMethod<infer In, infer _Optional, infer _Headers>
      ? PlainHelpers<In, Blob, OptionalOf<M>>
      : M extends HeadMethod<infer In, infer _Optional, infer Headers>
        ? PlainHelpers<In, Headers, OptionalOf<M>>
        : M extends Method<infer In, infer Out, infer _Optional, infer _Headers>
          ? PlainHelpers<In, Out, OptionalOf<M>>
          : never;

/** The TanStack Query helpers of one method of `api.*`, and of each of its views (`.simple`). */
export type QueryHelpersOf<M> = [ViewName<M>] extends [never]
  ? HelpersOf<M>
  : HelpersOf<M> & { readonly [View in ViewName<M>]: HelpersOf<M[View]> };

/** `serviceQueries(api)`: the helpers of every method, by tag and name as on `api`. */
export type ServiceQueries = {
  [Group in Exclude<keyof ServiceApi, 'raw'>]: {
    [Name in keyof ServiceApi[Group]]: QueryHelpersOf<ServiceApi[Group][Name]>;
  };
};

type AnyMethod = ((input?: CallInput, options?: CallOptions) => Promise<unknown>) & {
  withResponse(input?: CallInput, options?: CallOptions): Promise<ApiResponse<unknown, unknown>>;
  readonly [view: string]: unknown;
};

/**
 * The TanStack Query helpers of `api`: `queries.mergeRequests.listProjectMergeRequests.queryOptions({ path: { id } })`,
 * `.infiniteQueryOptions(input)`, `.mutationOptions()`, `.queryKey(input)` and `.operationKey`.
 */
export function serviceQueries(api: ServiceApi): ServiceQueries {
  const queries: Record<string, Record<string, unknown>> = {};
  for (const [group, name, op, paginated] of operationTable) {
    const method = (api as unknown as Record<string, Record<string, AnyMethod>>)[group]![name]!;
    const entry = helpers(op.id, method, paginated);
    for (const [view, query] of Object.entries(op.views ?? {}))
      Object.assign(entry, { [view]: helpers(op.id, method[view] as AnyMethod, paginated, query) });
    (queries[group] ??= {})[name] = entry;
  }
  return queries as unknown as ServiceQueries;
}

/**
 * The helpers of one method. A view's method adds its parameter (`view`) itself; its keys hold the input as sent,
 * so that the views of one input are distinct queries.
 */
function helpers(operationId: string, method: AnyMethod, paginated: boolean, view?: object): object {
  const sent = (input?: CallInput) => (view ? withView(input, view) : (input ?? {}));
  const queryKey = (input?: CallInput) => [operationId, sent(input)] as const;
  const base = {
    operationKey: [operationId] as const,
    queryKey,
    queryOptions: (input?: CallInput) => ({
      queryKey: queryKey(input),
      queryFn: ({ signal }: { signal: AbortSignal }) => method(input, { signal }),
      retry: false,
    }),
    mutationOptions: () => ({
      mutationKey: [operationId] as const,
      mutationFn: (input?: CallInput) => method(input),
      retry: false,
    }),
  };
  if (!paginated) return base;
  return {
    ...base,
    infiniteQueryOptions: (input?: CallInput) => ({
      queryKey: [operationId, sent(input), 'infinite'] as const,
      queryFn: async ({ signal, pageParam }: { signal: AbortSignal; pageParam: PageParam }) => {
        const response = await method.withResponse(withPageParam(input, pageParam), { signal });
        return {
          data: Array.isArray(response.data) ? response.data : [],
          pagination: response.pagination,
          nextPageParam: nextPageParam(response.pagination, response.url),
        };
      },
      initialPageParam: {},
      getNextPageParam: (lastPage: ServicePage<unknown>) => lastPage.nextPageParam,
      retry: false,
    }),
  };
}

/** The input of a page: the page's parameters replace the same names in `query` and `extra.query`. */
function withPageParam(input: CallInput | undefined, pageParam: PageParam): CallInput | undefined {
  const names = Object.keys(pageParam);
  if (names.length === 0) return input;
  const extraQuery = input?.extra?.query as Record<string, unknown> | undefined;
  const extra = extraQuery
    ? { ...input?.extra, query: Object.fromEntries(Object.entries(extraQuery).filter(([n]) => !names.includes(n))) }
    : input?.extra;
  return { ...input, query: { ...input?.query, ...pageParam }, ...(extra && { extra }) };
}

/**
 * The parameters of the next page: `x-next-page` (offset pagination; an empty one on the last page is none), else
 * the query parameters of `Link: rel="next"` that differ from this page's (keyset pagination: `cursor`, `id_after`
 * …). Only parameters are taken from `Link`, never its origin: a gateway that does not rewrite it changes nothing.
 */
export function nextPageParam(pagination: Pagination, url: string): PageParam | undefined {
  if (pagination.nextPage !== undefined) return { page: String(pagination.nextPage) };
  if (pagination.next === undefined) return undefined;
  const current = new URL(url).searchParams;
  const next = new URL(pagination.next).searchParams;
  const changed: PageParam = {};
  for (const name of new Set(next.keys())) {
    const values = next.getAll(name);
    if (values.join('\u0000') === current.getAll(name).join('\u0000')) continue;
    changed[name] = values.length === 1 ? values[0]! : values;
  }
  return Object.keys(changed).length > 0 ? changed : undefined;
}
