/**
 * The types of the server stubs: what each handler receives and may return, derived from openapi-typescript's
 * `operations`.
 */
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Credential } from './credentials.js';
import type { AnonymousOperationId, operations } from './types.js';

export type OperationId = keyof operations;
type Op<K extends OperationId> = operations[K];
type Params<K extends OperationId> = Op<K> extends { parameters: infer P } ? P : Record<string, never>;
type PartOf<P, K extends PropertyKey> = K extends keyof P
  ? [NonNullable<P[K]>] extends [never]
    ? Record<string, never>
    : NonNullable<P[K]>
  : Record<string, never>;
type RequestBodyOf<K extends OperationId> =
  Op<K> extends { requestBody?: infer B }
    ? [NonNullable<B>] extends [never]
      ? undefined
      : NonNullable<B> extends { content: infer C }
        ? C[keyof C] | (undefined extends B ? undefined : never)
        : undefined
    : undefined;

/** What a handler receives: decoded path parameters, the parsed query and headers (coerced to their types), the body. */
export interface HandlerInput<K extends OperationId> {
  params: PartOf<Params<K>, 'path'>;
  query: PartOf<Params<K>, 'query'>;
  /** Documented headers under their documented names in lower case, with every other header of the request. */
  headers: {
    [H in keyof PartOf<Params<K>, 'header'> as Lowercase<H & string>]: PartOf<Params<K>, 'header'>[H];
  } & Record<string, unknown>;
  body: RequestBodyOf<K>;
}

export interface HandlerContext<Principal, K extends OperationId = OperationId> {
  operationId: K;
  /** What `authenticate` returned; on an operation that allows anonymous access, undefined without credentials. */
  principal: K extends AnonymousOperationId ? Principal | undefined : Principal;
  credentials: Credential[];
  request: FastifyRequest;
  reply: FastifyReply;
}

type Responses<K extends OperationId> = Op<K>['responses'];
/** JSON bodies as documented; files as a Blob, bytes, text or a stream (web or Node). */
type ResponseBody<R> = R extends { content: infer C }
  ? 'application/json' extends keyof C
    ? C['application/json']
    : C[keyof C] | Uint8Array | string | ReadableStream<Uint8Array> | Readable
  : undefined;
/**
 * Documented headers are optional: a server omits some by design (no `Link` on the last page). A header documented
 * as a string also takes a number (`'x-page': 2`): headers travel as text either way.
 */
type ResponseHeaders<R> = R extends { headers: infer H }
  ? { [N in keyof H]?: H[N] extends string ? H[N] | number : H[N] }
  : Record<string, unknown>;

/** What a handler returns: one of the operation's documented responses. */
export type HandlerResult<K extends OperationId> = {
  [S in keyof Responses<K>]: {
    status: S;
    headers?: ResponseHeaders<Responses<K>[S]>;
  } & (undefined extends ResponseBody<Responses<K>[S]>
    ? { body?: ResponseBody<Responses<K>[S]> }
    : { body: ResponseBody<Responses<K>[S]> });
}[keyof Responses<K>];

export type Handler<K extends OperationId, Principal = unknown> = (
  input: HandlerInput<K>,
  context: HandlerContext<Principal, K>,
) => HandlerResult<K> | Promise<HandlerResult<K>>;

/** Handlers keyed by operationId; an operation without one answers 501. */
export type Handlers<Principal = unknown> = { [K in OperationId]?: Handler<K, Principal> };
