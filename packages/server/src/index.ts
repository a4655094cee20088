/**
 * @service-api/server: a typed Handlers map and a Fastify plugin that registers every operation of the document with
 * the runtime (`runtime.ts`). What this module exports is what the README documents; the readers the mock, the fake
 * and the proxy share are in `internal.ts` (`@service-api/server/internal`, outside semver). The routes, the security schemes and the
 * contract version are generated beside it.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { contractVersion } from './contract.js';
import type { Handlers } from './handler-types.js';
import { routes, securitySchemes } from './routes.js';
import type { AccessLogEntry, ToleranceReport } from './access-log.js';
import type { AuthenticateContext } from './credentials.js';
import type { ServiceApiLimits } from './route.js';
import { mountOperations, type AnyHandler } from './runtime.js';
import { validateRequest, validateResponse } from '@service-api/validators';

export type { Handler, HandlerContext, HandlerInput, HandlerResult, Handlers, OperationId } from './handler-types.js';
export type { AccessLogEntry, ToleranceReport } from './access-log.js';
export type { AuthenticateContext, Credential } from './credentials.js';
export type { RouteDescriptor, ServiceApiLimits } from './route.js';
export type { Tolerated } from './tolerance.js';
export type * from './types.js';
export { DISCARD_BYTES, DISCARD_FACTOR } from './answer.js';
export { errorBody, serviceApiServerOptions } from './errors.js';
export { INVALID_FILE_PATH, isValidFilePath } from './repository-path.js';
export { defaultLimits } from './route.js';
export { validateRequest, validateResponse } from '@service-api/validators';

export { contractVersion, routes, securitySchemes };
export const apiPrefix = '/api/v4';

export interface ServiceApiOptions<Principal = unknown> {
  handlers: Handlers<Principal>;
  /**
   * Decides who the caller is from the credentials the operation accepts; a falsy result answers 401. Called only
   * when the request sent at least one such credential: an anonymous request gets 401 where the operation requires
   * authentication, and no principal where it allows anonymous access. Without it, every operation that requires
   * authentication answers 401.
   */
  authenticate?: (
    context: AuthenticateContext,
  ) => Principal | false | null | undefined | Promise<Principal | false | null | undefined>;
  /** Check JSON responses against the document (a mismatch answers 500 naming it); for tests and development. */
  validateResponses?: boolean;
  /**
   * Bounds on every input (see `defaultLimits`): JSON and form bodies 16 MiB, multipart bodies 100 MiB (a file
   * with a documented maximum, such as the 200 KiB avatar, gets 400 above it), query string 16 KiB and 1000
   * parameters, 1000 body fields, 20 problems listed per 400.
   */
  limits?: Partial<ServiceApiLimits>;
  /** Refuse what the Service tolerates (string booleans, writes in the query, forms, unknown fields) with a 400 naming the field. */
  strict?: boolean;
  /** Called with what a request's tolerated input was (at most `limits.errors` entries and their count); also logged at `info`. */
  onTolerated?: (report: ToleranceReport, request: FastifyRequest) => void;
  /** CORS for browsers: every answer allows the calling origin (with credentials) and exposes the API's headers; a preflight (`OPTIONS`) on a known path answers 204 with its methods. */
  cors?: boolean;
  /** Called once per answer under the prefix (401, 404 and 405 included) with `{ method, url, status, operationId, ms, tolerated }`, for an access log. */
  accessLog?: (entry: AccessLogEntry, request: FastifyRequest) => void;
  /** Where the API is served (default `/api/v4`). */
  prefix?: string;
}

/** A Fastify plugin that registers every operation; register it with `{ prefix: '/api/v4' }` or use `registerServiceApi`. */
export const serviceApiPlugin: FastifyPluginAsync<ServiceApiOptions<unknown>> = async (scope, options) => {
  await mountOperations(
    scope,
    routes,
    securitySchemes,
    { validateRequest: validateRequest as never, validateResponse: checkResponse },
    {
      handlers: options.handlers as Record<string, AnyHandler | undefined>,
      authenticate: options.authenticate,
      validateResponses: options.validateResponses,
      limits: options.limits,
      strict: options.strict,
      onTolerated: options.onTolerated,
      cors: options.cors,
      accessLog: options.accessLog,
    },
  );
};

function checkResponse(operationId: string, status: number, body: unknown) {
  try {
    return validateResponse(operationId as never, status, body);
  } catch {
    return undefined;
  }
}

/** Registers every operation under `/api/v4` (or `options.prefix`) on a Fastify instance. */
export async function registerServiceApi<Principal>(
  app: FastifyInstance,
  options: ServiceApiOptions<Principal>,
): Promise<void> {
  // Handlers<Principal> is not a Handlers<unknown> (handlers read the principal): the plugin only passes it through.
  await app.register(serviceApiPlugin, {
    ...(options as unknown as ServiceApiOptions<unknown>),
    prefix: options.prefix ?? apiPrefix,
  });
}
