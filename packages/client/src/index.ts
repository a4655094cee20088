/**
 * @service-api/client: typed methods per operation over openapi-fetch. The operation table, the credential headers
 * and the contract version are generated from the document beside this module.
 */
import createClient, { type Client } from 'openapi-fetch';
import { contractVersion } from './contract.js';
import { credentialHeaders } from './credentials.js';
import { operationTable, type ServiceApiMethods } from './operations.js';
import {
  ServiceApiError,
  Transport,
  type CallInput,
  type CallOptions,
  type OperationDescriptor,
  type RuntimeOptions,
  withView,
} from './runtime.js';
import type { ErrorResponses, ErrorStatus, OperationId, paths } from './types.js';

export type * from './types.js';
export type * from './methods.js';
export type * from './operations.js';
export { ServiceApiError, nextLink, readPagination, retryDelay, serializeQuery } from './runtime.js';
export { throwServiceErrors } from './middleware.js';
export type {
  ApiResponse,
  CallOptions,
  Credentials,
  Pagination,
  RetryInfo,
  RetryOptions,
  ServiceApiErrorKind,
  TokenSource,
} from './runtime.js';

/**
 * The errors an operation documents, one member per status: `error.status === 409` narrows `error.body` to the
 * body documented for 409. `S` picks some statuses only.
 */
export type ServiceApiErrorOf<K extends OperationId, S extends ErrorStatus<K> = ErrorStatus<K>> = {
  [Status in S & number]: ServiceApiError<ErrorResponses<K>[Status], Status, K>;
}[S & number];

export { contractVersion };
export const apiPrefix = '/api/v4';

export interface ServiceClientOptions extends Omit<RuntimeOptions, 'baseUrl'> {
  /** Scheme and host of the instance, e.g. `https://service.example`; the client adds `/api/v4`. */
  host?: string;
  /** The full API root, e.g. `https://service.example/api/v4`; use instead of `host`. */
  baseUrl?: string;
}

/** The low-level openapi-fetch client: `client.GET('/projects/{id}/jobs', { params: { path: { id } } })`. */
export type ServiceClient = Client<paths>;

/** The typed methods by tag, plus `raw`, the low-level client sharing credentials, retries and redirects. */
export type ServiceApi = ServiceApiMethods & { raw: ServiceClient };

export function resolveBaseUrl(host: string | undefined, baseUrl: string | undefined): string {
  if (host && baseUrl) throw new TypeError('Pass either host or baseUrl, not both');
  if (baseUrl) return baseUrl.replace(/\/+$/, '');
  if (host) return `${host.replace(/\/+$/, '')}${apiPrefix}`;
  throw new TypeError('Pass host (the client adds /api/v4) or baseUrl');
}

function transportFor(options: ServiceClientOptions): Transport {
  const { host, baseUrl, ...rest } = options;
  return new Transport({ ...rest, baseUrl: resolveBaseUrl(host, baseUrl) }, credentialHeaders);
}

/** Creates the low-level typed client (openapi-fetch) with credentials, sudo, retries and redirects. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const transport = transportFor(options);
  return createClient<paths>({ baseUrl: transport.baseUrl, fetch: transport.fetch });
}

/** Creates the high-level client: `api.jobs.listProjectJobs({ path: { id: 'group/project' } })`. */
export function createServiceApi(options: ServiceClientOptions): ServiceApi {
  const transport = transportFor(options);
  const api: Record<string, Record<string, unknown>> = {
    raw: createClient<paths>({ baseUrl: transport.baseUrl, fetch: transport.fetch }) as never,
  };
  for (const [group, name, op, paginated] of operationTable) {
    const method = methodFor(transport, op, paginated);
    for (const [view, query] of Object.entries(op.views ?? {}))
      Object.assign(method, { [view]: methodFor(transport, op, paginated, query) });
    (api[group] ??= {})[name] = method;
  }
  return api as unknown as ServiceApi;
}

type PageCallOptions = CallOptions & { maxPages?: number };

/** One operation's method, with `withResponse` and, for a list, `pages`, `iterate` and `all`; `view` joins the query. */
function methodFor(transport: Transport, op: OperationDescriptor, paginated: boolean, view?: object) {
  const sent = (input?: CallInput) => (view ? withView(input, view) : input);
  const method = (input?: CallInput, options?: CallOptions) => transport.call(op, sent(input), options);
  const withResponse = (input?: CallInput, options?: CallOptions) =>
    transport.callWithResponse(op, sent(input), options);
  if (!paginated) return Object.assign(method, { withResponse });
  const pages = (input?: CallInput, options?: PageCallOptions) => transport.pages(op, sent(input), options);
  const iterate = async function* (input?: CallInput, options?: PageCallOptions) {
    for await (const page of pages(input, options)) yield* page;
  };
  const all = async (input?: CallInput, options?: PageCallOptions) => {
    const items: unknown[] = [];
    for await (const page of pages(input, options)) items.push(...page);
    return items;
  };
  return Object.assign(method, { withResponse, pages, iterate, all });
}

/**
 * Whether `error` is a `ServiceApiError`: of any status; or of that operation with a status it documents (then
 * `error.status` narrows `error.body`); or of that operation with that status.
 */
export function isServiceApiError<K extends OperationId, S extends ErrorStatus<K> & number>(
  error: unknown,
  operationId: K,
  status: S,
): error is ServiceApiErrorOf<K, S>;
export function isServiceApiError<K extends OperationId>(error: unknown, operationId: K): error is ServiceApiErrorOf<K>;
export function isServiceApiError(error: unknown): error is ServiceApiError;
export function isServiceApiError(error: unknown, operationId?: string, status?: number): boolean {
  if (!(error instanceof ServiceApiError)) return false;
  if (operationId === undefined) return true;
  return error.operationId === operationId && error.documented && (status === undefined || error.status === status);
}
