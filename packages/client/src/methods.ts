/** The method types of the client: what every operation's method takes and resolves to. */
import type { ApiResponse, CallOptions } from './runtime.js';

export type Args<In, Optional extends boolean, Extra = unknown> = Optional extends true
  ? [input?: In, options?: CallOptions & Extra]
  : [input: In, options?: CallOptions & Extra];
export type PageOptions = { maxPages?: number };

/**
 * A typed method: resolves to the success body and rejects with a `ServiceApiError` outside 2xx;
 * `withResponse(...)` resolves to `{ data, status, headers, rawHeaders, pagination, url }`.
 */
export interface Method<In, Out, Optional extends boolean, Headers = Record<string, never>> {
  (...args: Args<In, Optional>): Promise<Out>;
  withResponse(...args: Args<In, Optional>): Promise<ApiResponse<Out, Headers>>;
}

/** A list method, with every page on demand: `pages()` (arrays), `iterate()` (items) and `all()`, up to `maxPages`. */
export interface PaginatedMethod<In, ItemType, Optional extends boolean, Headers = Record<string, never>>
  extends Method<In, ItemType[], Optional, Headers> {
  pages(...args: Args<In, Optional, PageOptions>): AsyncGenerator<ItemType[], void, undefined>;
  iterate(...args: Args<In, Optional, PageOptions>): AsyncGenerator<ItemType, void, undefined>;
  all(...args: Args<In, Optional, PageOptions>): Promise<ItemType[]>;
}

/** A download: a `Blob` by default, or the body stream with `{ as: 'stream' }`. */
export interface BinaryMethod<In, Optional extends boolean, Headers = Record<string, never>> {
  <As extends 'blob' | 'stream' = 'blob'>(
    ...args: Args<In, Optional, { as?: As }>
  ): Promise<As extends 'stream' ? ReadableStream<Uint8Array> : Blob>;
  withResponse<As extends 'blob' | 'stream' = 'blob'>(
    ...args: Args<In, Optional, { as?: As }>
  ): Promise<ApiResponse<As extends 'stream' ? ReadableStream<Uint8Array> : Blob, Headers>>;
}

/** A HEAD operation: resolves to its documented headers, numbers and booleans converted. */
export interface HeadMethod<In, Optional extends boolean, Headers> {
  (...args: Args<In, Optional>): Promise<Headers>;
  withResponse(...args: Args<In, Optional>): Promise<ApiResponse<Headers, Headers>>;
}

/**
 * `In` with the query parameter `P` restricted to `V` (`never`: the call cannot send it). A method whose records
 * depend on a query parameter (`x-variants`) does not take that parameter: it resolves to the record of a call
 * without it, and each other view is a method of its own that sends it (`listProjectMergeRequests.simple(…)` sends
 * `view=simple`). None is generic, so TypeScript types `withResponse(…)` without checking its argument first: a
 * loop that feeds the answer's `pagination.nextPage` into the next call's `page` needs no annotation (TS7022).
 */
export type WithParameter<In, P extends string, V> = {
  [K in keyof In]: K extends 'query' ? QueryWith<In[K], P, V> : In[K];
};
type QueryWith<Q, P extends string, V> = Q extends object ? Omit<Q, P> & { [N in P]?: V } : Q;
