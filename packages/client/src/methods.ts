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
 * For each operation with `x-variants`: the success body for the input `I` the call passes. Empty here: the
 * generated `operations.ts` adds one member per such operation (declaration merging).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the generated operations.ts
// biome-ignore lint/correctness/noUnusedVariables: its members (generated) use I; merged interfaces share its name
export interface VariantResults<I> {}
type VariantId = keyof VariantResults<unknown>;
type ElementOf<L> = L extends readonly (infer E)[] ? E : never;

/**
 * A method whose success body depends on a parameter (`x-variants`): `view: 'simple'` gives the reduced record,
 * no parameter the full one, a parameter whose value the type does not fix gives either. (`I` is `never` for a
 * call without input.)
 */
export interface VariantMethod<K extends VariantId, In, Optional extends boolean, Headers = Record<string, never>> {
  <const I extends In = never>(...args: Args<I, Optional>): Promise<VariantResults<I>[K]>;
  withResponse<const I extends In = never>(
    ...args: Args<I, Optional>
  ): Promise<ApiResponse<VariantResults<I>[K], Headers>>;
}

/** A list method with `x-variants`: items typed by the call, as for `VariantMethod`. */
export interface PaginatedVariantMethod<
  K extends VariantId,
  In,
  Optional extends boolean,
  Headers = Record<string, never>,
> extends VariantMethod<K, In, Optional, Headers> {
  pages<const I extends In = never>(
    ...args: Args<I, Optional, PageOptions>
  ): AsyncGenerator<ElementOf<VariantResults<I>[K]>[], void, undefined>;
  iterate<const I extends In = never>(
    ...args: Args<I, Optional, PageOptions>
  ): AsyncGenerator<ElementOf<VariantResults<I>[K]>, void, undefined>;
  all<const I extends In = never>(...args: Args<I, Optional, PageOptions>): Promise<ElementOf<VariantResults<I>[K]>[]>;
}
