/**
 * openapi-fetch middleware for the low-level client: `client.use(throwServiceErrors)` makes a response outside 2xx
 * reject with the `ServiceApiError` the typed methods throw (status, body, headers, operation id), instead of
 * resolving to `{ error: body }`. For openapi-react-query, whose queries then fail with an error that has a status.
 */
import type { Middleware } from 'openapi-fetch';
import { operationTable } from './operations.js';
import { type OperationDescriptor, ServiceApiError } from './runtime.js';

let byRoute: Map<string, OperationDescriptor> | undefined;

/** The operation of `GET /projects/{id}/jobs`, as openapi-fetch names it (method and schema path). */
function operationOf(method: string, schemaPath: string): OperationDescriptor | undefined {
  byRoute ??= new Map(operationTable.map(([, , op]) => [`${op.method} ${op.path}`, op]));
  return byRoute.get(`${method.toUpperCase()} ${schemaPath}`);
}

async function bodyOf(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return /json/i.test(response.headers.get('content-type') ?? '') && text ? JSON.parse(text) : text;
  } catch {
    return undefined;
  }
}

/** Rejects every response outside 2xx with a `ServiceApiError` (after the client's own retries and redirects). */
export const throwServiceErrors: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    if (response.ok) return undefined;
    const op = operationOf(request.method, schemaPath);
    throw new ServiceApiError(
      op?.id ?? `${request.method.toUpperCase()} ${schemaPath}`,
      response.status,
      await bodyOf(response),
      response.headers,
      response.url || request.url,
      op?.errors?.includes(response.status) ?? false,
    );
  },
};
