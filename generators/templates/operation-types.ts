/**
 * Types that derive each operation's input, success body and error bodies from openapi-typescript's `operations`.
 * generators/client.ts and generators/server.ts copy this file into their package as `src/operation-types.ts`; `./types.js` is the package's
 * copy of the generated types.
 */
import type { operations } from './types.js';

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
type BodyPart<K extends OperationId> = Op<K> extends { requestBody: infer B }
  ? { body: ContentOf<B> }
  : Op<K> extends { requestBody?: infer B }
    ? [NonNullable<B>] extends [never]
      ? { body?: never }
      : { body?: ContentOf<NonNullable<B>> }
    : { body?: never };

/** What a call takes: `{ path, query, headers, body }`, each present only where the operation has it. */
export type Input<K extends OperationId> = Part<Params<K>, 'path', 'path'> & Part<Params<K>, 'query', 'query'> & Part<Params<K>, 'header', 'headers'> & BodyPart<K>;

type Responses<K extends OperationId> = Op<K>['responses'];
type BodyOf<R> = R extends { content: infer C } ? ('application/json' extends keyof C ? C['application/json'] : C[keyof C]) : undefined;
type IsSuccess<S> = `${S & (string | number)}` extends `2${string}` ? true : false;

/** The body of the operation's documented 2xx responses (`undefined` for those without one). */
export type Success<K extends OperationId> = { [S in keyof Responses<K>]: IsSuccess<S> extends true ? BodyOf<Responses<K>[S]> : never }[keyof Responses<K>];
/** The union of the operation's documented error bodies. */
export type ErrorBody<K extends OperationId> = { [S in keyof Responses<K>]: IsSuccess<S> extends true ? never : BodyOf<Responses<K>[S]> }[keyof Responses<K>];
/** The documented error statuses of the operation. */
export type ErrorStatus<K extends OperationId> = { [S in keyof Responses<K>]: IsSuccess<S> extends true ? never : S }[keyof Responses<K>];
/** One item of a list operation's body. */
export type Item<K extends OperationId> = Success<K> extends readonly (infer T)[] ? T : never;
