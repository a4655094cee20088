/**
 * Types that derive each operation's input, success body and error bodies from openapi-typescript's `operations`
 * (`./schema.js`, generated beside this module from the document).
 */
import type { operations } from './schema.js';

export type OperationId = keyof operations;
type Op<K extends OperationId> = operations[K];
type Params<K extends OperationId> = Op<K> extends { parameters: infer P } ? P : Record<string, never>;

/** `{ name: T }` when the part is required, `{ name?: T }` when optional, `{}` when the operation has none. */
type Part<P, K extends PropertyKey, Name extends string> = K extends keyof P
  ? [NonNullable<P[K]>] extends [never]
    ? { [N in Name]?: never }
    : Record<string, never> extends Pick<P, K>
      ? { [N in Name]?: NonNullable<P[K]> }
      : { [N in Name]: NonNullable<P[K]> }
  : { [N in Name]?: never };

type ContentOf<R> = R extends { content: infer C } ? C[keyof C] : never;
type BodyPart<K extends OperationId> =
  Op<K> extends { requestBody: infer B }
    ? { body: ContentOf<B> }
    : Op<K> extends { requestBody?: infer B }
      ? [NonNullable<B>] extends [never]
        ? { body?: never }
        : { body?: ContentOf<NonNullable<B>> }
      : { body?: never };

/** What a call takes: `{ path, query, headers, body }`, each present only where the operation has it. */
export type Input<K extends OperationId> = Part<Params<K>, 'path', 'path'> &
  Part<Params<K>, 'query', 'query'> &
  Part<Params<K>, 'header', 'headers'> &
  BodyPart<K>;

type Responses<K extends OperationId> = Op<K>['responses'];
type BodyOf<R> = R extends { content: infer C }
  ? 'application/json' extends keyof C
    ? C['application/json']
    : C[keyof C]
  : undefined;
/** The body of one documented response of the operation: `ResponseBody<'jobs/get-project-job', 200>` is `Job`. */
export type ResponseBody<K extends OperationId, S extends keyof Responses<K>> = BodyOf<Responses<K>[S]>;
type IsSuccess<S> = `${S & (string | number)}` extends `2${string}` ? true : false;

/** The body of the operation's documented 2xx responses (`undefined` for those without one). */
export type Success<K extends OperationId> = {
  [S in keyof Responses<K>]: IsSuccess<S> extends true ? BodyOf<Responses<K>[S]> : never;
}[keyof Responses<K>];
/** The union of the operation's documented error bodies. */
export type ErrorBodyOf<K extends OperationId> = {
  [S in keyof Responses<K>]: IsSuccess<S> extends true ? never : BodyOf<Responses<K>[S]>;
}[keyof Responses<K>];
/** The documented error statuses of the operation. */
export type ErrorStatus<K extends OperationId> = {
  [S in keyof Responses<K>]: IsSuccess<S> extends true ? never : S;
}[keyof Responses<K>];
/** The documented error body of each documented error status: `{ 409: ErrorMessage; … }`. */
export type ErrorResponses<K extends OperationId> = { [S in ErrorStatus<K> & number]: BodyOf<Responses<K>[S]> };
/** The documented headers of the operation's 2xx responses, as openapi-typescript types them. */
export type ResponseHeadersOf<K extends OperationId> = {
  [S in keyof Responses<K>]: IsSuccess<S> extends true
    ? Responses<K>[S] extends { headers: infer H }
      ? H
      : never
    : never;
}[keyof Responses<K>];
/** One item of a list operation's body. */
export type Item<K extends OperationId> = Success<K> extends readonly (infer T)[] ? T : never;

/** A value the query string can carry. */
export type QueryValue =
  | string
  | number
  | boolean
  | Date
  | readonly (string | number | boolean)[]
  | { readonly [key: string]: string | number | boolean | readonly (string | number | boolean)[] };

/**
 * Parameters the Service accepts that the contract does not list (the API grows within v4): sent as they are, after
 * the documented ones. The mock and the server's strict mode report them.
 */
export interface ExtraParameters {
  query?: { readonly [name: string]: QueryValue | undefined };
}

/** The query a call sends, documented and extra parameters together. */
type QueryOf<I> = (I extends { query?: infer Q } ? NonNullable<Q> : unknown) &
  (I extends { extra?: { query?: infer E } } ? NonNullable<E> : unknown);
/** What a call sends for query parameter `P` (`undefined` when it does not send it). */
export type Sent<I, P extends string> = P extends keyof QueryOf<I> ? QueryOf<I>[P] : undefined;
/**
 * `Then` when the call sends `P` = `V`, `Else` when it certainly does not, both when the type does not say
 * (`x-variants`: a response that depends on a parameter). `I` is `never` for a call without input.
 */
export type When<I, P extends string, V, Then, Else> = [I] extends [never]
  ? Else
  : [Sent<I, P>] extends [V]
    ? Then
    : [Extract<Sent<I, P>, V>] extends [never]
      ? Else
      : Then | Else;
