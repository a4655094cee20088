/**
 * @service-api/server: a typed Handlers map and a Fastify plugin that registers every operation of the document with
 * the runtime (`runtime.ts`). What this module exports is what the README documents; the readers the mock, the fake
 * and the proxy share are in `internal.ts` (`@service-api/server/internal`, outside semver). The routes, the security schemes and the
 * contract version are generated beside it.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { contractVersion } from './contract.js';
import type { Handlers } from './handler-types.js';
import { routes, securitySchemes } from './routes.js';
import type { AuthenticateContext } from './credentials.js';
import { mountOperations, type AnyHandler, type RuntimeOptions } from './runtime.js';
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

export interface ServiceApiOptions<Principal = unknown> extends RuntimeOptions {
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
    { ...options, handlers: options.handlers as Record<string, AnyHandler | undefined> },
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
