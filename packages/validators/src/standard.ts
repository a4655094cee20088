/**
 * Standard Schema v1 (https://standardschema.dev) for the guards and the operations' validators: form libraries,
 * tRPC-style routers and other consumers of the interface validate with them without an adapter. Issues carry the
 * path as segments (array indices as numbers) and the same message as the string errors.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { operations } from './types.js';
import {
  checkRequest,
  described,
  pointerPath,
  problemMessage,
  type RequestParts,
  type RequestValidationResult,
  type RequestValidators,
  type ValidateFunction,
  type ValidationError,
} from './validation.js';

export type { StandardSchemaV1 };

/** The vendor name consumers see in `~standard.vendor`. */
export const VENDOR = 'service-api';

/** A type guard that is also a Standard Schema: `isJob(value)` narrows, `isJob['~standard'].validate(value)` explains. */
export type Guard<T> = ((value: unknown) => value is T) & StandardSchemaV1<T, T>;

/** A request as the validators read it, after coercion (`validateRequest(...).value`). */
export type ValidatedRequest = RequestValidationResult['value'];

/** A status as a number: `200` for `"200"`. */
export type StatusCode<Status extends string> = Status extends `${infer Code extends number}` ? Code : never;

type Responses<Op extends keyof operations> = operations[Op]['responses'];
/** The documented JSON body of an operation's response by status (`unknown` where it documents none). */
export type ResponseBody<Op extends keyof operations, Status extends string | number> = {
  [S in keyof Responses<Op>]: `${S & (string | number)}` extends `${Status}`
    ? Responses<Op>[S] extends { content: { 'application/json': infer Body } }
      ? Body
      : unknown
    : never;
}[keyof Responses<Op>];

type Issue = StandardSchemaV1.Issue;

function standard<Input, Output>(
  validate: (value: unknown) => StandardSchemaV1.Result<Output>,
): StandardSchemaV1<Input, Output>['~standard'] {
  return { version: 1, vendor: VENDOR, validate };
}

/**
 * One issue per Ajv error, at most `MAX_ERRORS` (every kind first) and then one that counts the rest, as the string
 * errors do. A missing
 * required property is reported at its own path ("is required"), so a form library puts the message on the field.
 */
export function issuesOf(errors: readonly ValidationError[], value: unknown): Issue[] {
  const issues = described([...errors]).map((error): Issue => {
    const path = pointerPath(error.instancePath, value);
    const missing = error.keyword === 'required' ? error.params?.missingProperty : undefined;
    if (typeof missing === 'string') return { message: 'is required', path: [...path, missing] };
    return path.length > 0 ? { message: problemMessage(error), path } : { message: problemMessage(error) };
  });
  const more = errors.length - issues.length;
  return more > 0 ? [...issues, { message: `and ${more} more problem(s)` }] : issues;
}

/** Validates with `check` first and, only when it fails, with `full` for the issues (as `checkWith` does). */
function validateWith<T>(check: ValidateFunction, full: ValidateFunction, value: unknown): StandardSchemaV1.Result<T> {
  if (check(value)) return { value: value as T };
  if (check !== full) full(value);
  return { issues: issuesOf(full.errors ?? [{ instancePath: '', message: 'is invalid' }], value) };
}

/** A type guard on the fast validator `check`, whose Standard Schema explains failures with the exact `full`. */
export function guard<T>(check: ValidateFunction, full: ValidateFunction): Guard<T> {
  const isValid = ((value: unknown) => check(value)) as Guard<T>;
  Object.defineProperty(isValid, '~standard', {
    value: standard<T, T>((value) => validateWith<T>(check, full, value)),
    enumerable: true,
  });
  return isValid;
}

/** A Standard Schema of a JSON body (a response's, by status): its output is the body, unchanged. */
export function standardBody<T>(check: ValidateFunction, full: ValidateFunction): StandardSchemaV1<T, T> {
  return { '~standard': standard<T, T>((value) => validateWith<T>(check, full, value)) };
}

/**
 * A Standard Schema of a whole request `{ params, query, headers, body }`: its output is the request with strings
 * coerced to the documented types; each issue's path starts with the part (`['query', 'per_page']`).
 */
export function standardRequest(validators: RequestValidators): StandardSchemaV1<RequestParts, ValidatedRequest> {
  return {
    '~standard': standard<RequestParts, ValidatedRequest>((value) => {
      const result = checkRequest(validators, (value ?? {}) as RequestParts);
      if (result.valid) return { value: result.value };
      const issues: Issue[] = result.problems.map(({ path, problem }) => ({ message: problem, path }));
      const more = (result.errorCount ?? 0) - issues.length;
      return { issues: more > 0 ? [...issues, { message: `and ${more} more problem(s)` }] : issues };
    }),
  };
}
