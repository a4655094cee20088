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
  type ResponseBody,
  type StandardSchemaV1,
  type StatusCode,
  standardBody,
  standardRequest,
  type ValidatedRequest,
} from './standard.js';
import {
  allErrors,
  checkRequest,
  checkResponse,
  checkWith,
  type RequestParts,
  type RequestValidationResult,
  type RequestValidators,
  type ValidateFunction,
  type ValidationError,
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
export type { Guard, ResponseBody, StandardSchemaV1, StatusCode, ValidatedRequest } from './standard.js';
export type * from './types.js';
export type {
  PathSegment,
  RequestParts,
  RequestProblem,
  RequestValidationResult,
  ValidateFunction,
  ValidationError,
  ValidationResult,
} from './validation.js';
export { formatErrors, formatRequestErrors, MAX_ERRORS, problemMessage } from './validation.js';

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

/**
 * Every problem of a JSON response body as Ajv reports it (path, keyword, params), uncapped, for tools that group
 * them (the proxy's report); `validateResponse` describes at most `MAX_ERRORS`.
 */
export function responseErrors<Op extends keyof ResponseStatuses>(
  operationId: Op,
  status: ResponseStatuses[Op] | number,
  body: unknown,
): ValidationError[] {
  const full = (responseValidators[operationId] as Record<string, ValidateFunction> | undefined)?.[String(status)];
  if (!full) throw new Error(`Operation ${String(operationId)} documents no JSON body for status ${String(status)}`);
  return allErrors(
    (responseChecks[operationId] as Record<string, ValidateFunction>)[String(status)] ?? full,
    full,
    body,
  );
}

/**
 * The Standard Schema of an operation's JSON response body by status, for any consumer of Standard Schema v1: issues
 * carry the path into the body (`[0, 'duration']`) and the message.
 */
export function responseSchema<
  Op extends keyof ResponseStatuses,
  S extends ResponseStatuses[Op] | StatusCode<ResponseStatuses[Op]>,
>(operationId: Op, status: S): StandardSchemaV1<ResponseBody<Op, S>, ResponseBody<Op, S>> {
  const full = (responseValidators[operationId] as Record<string, ValidateFunction> | undefined)?.[String(status)];
  if (!full) throw new Error(`Operation ${String(operationId)} documents no JSON body for status ${String(status)}`);
  const check = (responseChecks[operationId] as Record<string, ValidateFunction>)[String(status)] ?? full;
  return standardBody(check, full);
}

/**
 * The Standard Schema of an operation's request `{ params, query, headers, body }`: its output is the request with
 * strings coerced to the documented types; each issue's path starts with the part (`['query', 'per_page']`).
 */
export function requestSchema(operationId: RequestOperationId): StandardSchemaV1<RequestParts, ValidatedRequest> {
  const request = requestValidators[operationId];
  if (!request) throw new Error(`Unknown operation ${String(operationId)}`);
  return standardRequest(requestParts(operationId, request));
}

/** Validates a request of an operation; errors name the bad field (`query parameter per_page must be <= 100`). */
export function validateRequest(operationId: RequestOperationId, request: RequestParts): RequestValidationResult {
  const validate = requestValidators[operationId];
  if (!validate) throw new Error(`Unknown operation ${String(operationId)}`);
  return checkRequest(requestParts(operationId, validate), request);
}

function requestParts(operationId: RequestOperationId, request: ValidateFunction): RequestValidators {
  return {
    request,
    body: bodyValidators[operationId],
    bodyCheck: bodyChecks[operationId],
    queryRules: queryRules[operationId],
  };
}
