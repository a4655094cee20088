/**
 * @service-api/validators: Ajv standalone validators of the document (no schema compiled at run time), looked up by
 * schema name, by operationId and status. The tables, the guards and the contract version are generated beside this
 * module; a fast check answers valid values, the full error list is computed only for invalid ones.
 */
import {
  bodyChecks,
  bodyValidators,
  queryRules,
  type RequestOperationId,
  type ResponseStatuses,
  requestValidators,
  responseChecks,
  responseValidators,
  type SchemaName,
  schemaChecks,
  schemaValidators,
} from './tables.js';
import {
  checkRequest,
  checkResponse,
  checkWith,
  type RequestParts,
  type RequestValidationResult,
  type ValidateFunction,
  type ValidationResult,
} from './validation.js';

export { contractVersion } from './contract.js';
export * from './guards.js';
export {
  bodyValidators,
  type RequestOperationId,
  type ResponseStatuses,
  requestValidators,
  responseValidators,
  type SchemaName,
  schemaValidators,
} from './tables.js';
export type * from './types.js';
export type {
  RequestParts,
  RequestValidationResult,
  ValidateFunction,
  ValidationError,
  ValidationResult,
} from './validation.js';
export { formatErrors, formatRequestErrors, MAX_ERRORS } from './validation.js';

/** Validates a value against a component schema by name (at most MAX_ERRORS messages, then a count). */
export function validateSchema(name: SchemaName, value: unknown): ValidationResult {
  const validate = schemaValidators[name];
  if (!validate) throw new Error(`Unknown schema ${String(name)}`);
  return checkWith(schemaChecks[name], validate, value);
}

/** Validates a JSON response body of an operation; statuses without a JSON body have no validator. */
export function validateResponse<Op extends keyof ResponseStatuses>(
  operationId: Op,
  status: ResponseStatuses[Op] | number,
  body: unknown,
): ValidationResult {
  const byStatus = responseValidators[operationId] as Record<string, ValidateFunction> | undefined;
  if (!byStatus) throw new Error(`Unknown operation ${String(operationId)}`);
  return checkResponse(operationId, byStatus, responseChecks[operationId]!, status, body);
}

/** Validates a request of an operation; errors name the bad field (`query parameter per_page must be <= 100`). */
export function validateRequest(operationId: RequestOperationId, request: RequestParts): RequestValidationResult {
  const validate = requestValidators[operationId];
  if (!validate) throw new Error(`Unknown operation ${String(operationId)}`);
  return checkRequest(
    {
      request: validate,
      body: bodyValidators[operationId],
      bodyCheck: bodyChecks[operationId],
      queryRules: queryRules[operationId],
    },
    request,
  );
}
