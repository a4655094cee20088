/** Readable messages for Ajv's errors, and the check of a value. No Node modules: it also runs in browsers. */

/** What an Ajv standalone validator is: a function that records the errors of its last run. */
export interface ValidateFunction {
  (value: unknown): boolean;
  errors?: ValidationError[] | null;
}

export interface ValidationError {
  instancePath: string;
  schemaPath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

export interface ValidationResult {
  valid: boolean;
  /**
   * One readable line per problem, e.g. `/job/id must be integer`: at most `MAX_ERRORS`, then one line
   * `and N more problem(s)` when there are more.
   */
  errors: string[];
  /** How many problems there are in all (only when invalid). */
  errorCount?: number;
}

/** At most this many problems are described; the rest are counted. */
export const MAX_ERRORS = 20;

/** A segment of a path into a value: an index into an array is a number. */
export type PathSegment = string | number;

function detail(error: ValidationError): string {
  const params = error.params ?? {};
  if (params.additionalProperty !== undefined) return ` (${String(params.additionalProperty)})`;
  if (Array.isArray(params.allowedValues)) return `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return '';
}

/** What is wrong, without where: `must be integer`, `must be equal to one of the allowed values: "a", "b"`. */
export function problemMessage(error: ValidationError): string {
  return `${error.message ?? 'is invalid'}${detail(error)}`;
}

/** Readable messages for the errors of the last run of a validator: `<where> <message>`. */
export function formatErrors(errors: ValidationError[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${problemMessage(e)}`);
}

/** The segments of a JSON pointer into `value`: an index into an array is a number. */
export function pointerPath(pointer: string, value: unknown): PathSegment[] {
  const path: PathSegment[] = [];
  let at: unknown = value;
  for (const raw of pointer === '' ? [] : pointer.split('/').slice(1)) {
    const key = unescapePointerSegment(raw);
    const index = Array.isArray(at) && /^(0|[1-9]\d*)$/.test(key) ? Number(key) : undefined;
    path.push(index ?? key);
    at = at !== null && typeof at === 'object' ? (at as Record<PathSegment, unknown>)[index ?? key] : undefined;
  }
  return path;
}

/** What kind of problem an error is: its rule and its place, array items folded (`/0/id` and `/7/id` are one kind). */
function kindOf(error: ValidationError): string {
  return `${error.keyword ?? ''} ${error.message ?? ''} ${error.instancePath.replace(/\/\d+(?=\/|$)/g, '/*')}`;
}

/**
 * The errors to describe, at most `MAX_ERRORS`: the first of each kind before any repeat, then repeats in order, so
 * that a wrong type is not hidden behind a hundred items missing the same field.
 */
export function described(all: ValidationError[]): ValidationError[] {
  if (all.length <= MAX_ERRORS) return all;
  const seen = new Set<string>();
  const firsts: ValidationError[] = [];
  const repeats: ValidationError[] = [];
  for (const error of all) {
    const kind = kindOf(error);
    if (seen.has(kind) || firsts.length >= MAX_ERRORS) {
      if (repeats.length < MAX_ERRORS) repeats.push(error);
      continue;
    }
    seen.add(kind);
    firsts.push(error);
  }
  const chosen = new Set([...firsts, ...repeats].slice(0, MAX_ERRORS));
  return all.filter((error) => chosen.has(error));
}

/**
 * Validates with `check` (stops at the first failure, no messages); only when it fails runs `full`, which collects
 * every error, and describes `MAX_ERRORS` of them, every kind first (`described`).
 */
export function checkWith(check: ValidateFunction, full: ValidateFunction, value: unknown): ValidationResult {
  if (check(value)) return { valid: true, errors: [] };
  // Without a fast twin (`check` is `full`), its run has already recorded the errors.
  const valid = check === full ? false : full(value);
  if (valid) return { valid, errors: [] }; // cannot happen: both are compiled from the same schema
  const all = full.errors ?? [];
  const errors = formatErrors(described(all));
  if (all.length > MAX_ERRORS) errors.push(`and ${all.length - MAX_ERRORS} more problem(s)`);
  return { valid, errors, errorCount: all.length };
}

/** Every error of a value, uncapped (none when valid): the fast `check` first, `full` only when it fails. */
export function allErrors(check: ValidateFunction, full: ValidateFunction, value: unknown): ValidationError[] {
  if (check(value)) return [];
  if (check !== full) full(value);
  return [...(full.errors ?? [{ instancePath: '', message: 'is invalid' }])];
}

/**
 * Validates a JSON response body with an operation's validators by status (`full`: every error; `check`: its fast
 * twin). A status without a JSON body has no validator.
 */
export function checkResponse(
  operationId: string,
  full: Record<string, ValidateFunction>,
  check: Record<string, ValidateFunction>,
  status: string | number,
  body: unknown,
): ValidationResult {
  const validate = full[String(status)];
  if (!validate) throw new Error(`Operation ${operationId} documents no JSON body for status ${status}`);
  return checkWith(check[String(status)]!, validate, body);
}

/** The parts of a request as a server sees them: path parameters, query, headers (any case) and body. */
export interface RequestParts {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  body?: unknown;
}

export interface RequestValidationResult extends ValidationResult {
  /** The request with query, path and header strings coerced to the documented types and header names in lower case. */
  value: {
    params: Record<string, unknown>;
    query: Record<string, unknown>;
    headers: Record<string, unknown>;
    body?: unknown;
  };
  /**
   * Each problem with the part (`params`, `query`, `headers`, `body`), the field it concerns as a caller writes it
   * (`scope[]`, `assignee.id`) and as path segments from the part (`['body', 'assignee', 'id']`).
   */
  problems: RequestProblem[];
}

export interface RequestProblem {
  in: string;
  field: string;
  path: PathSegment[];
  problem: string;
}

/** The validators of one operation's request. */
export interface RequestValidators {
  /** The whole request `{ params, query, headers, body }`, coercing strings (a JSON body is left to `body`). */
  request: ValidateFunction;
  /** The JSON body, exact (`body`) and its fast twin (`bodyCheck`). */
  body?: ValidateFunction | undefined;
  bodyCheck?: ValidateFunction | undefined;
  /** The descriptions of the operation's rules across the query parameters, in order. */
  queryRules?: readonly string[] | undefined;
}

/** Validates a request with an operation's validators; errors name the bad field. */
export function checkRequest(validators: RequestValidators, request: RequestParts): RequestValidationResult {
  const headers: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  const value: RequestValidationResult['value'] = {
    params: { ...request.params },
    query: { ...request.query },
    headers,
  };
  if (request.body !== undefined) value.body = request.body;
  const { request: validate, body: validateBody, bodyCheck = validateBody } = validators;
  const errors: ValidationError[] = validate(value) ? [] : [...(validate.errors ?? [])];
  if (validateBody && value.body !== undefined && !bodyCheck!(value.body) && !validateBody(value.body)) {
    for (const e of validateBody.errors ?? []) errors.push({ ...e, instancePath: `/body${e.instancePath}` });
  }
  if (errors.length === 0) return { valid: true, errors: [], problems: [], value };
  const problems = formatRequestErrors(described(errors), validators.queryRules, value);
  const more = errors.length - Math.min(errors.length, MAX_ERRORS);
  return {
    valid: false,
    errors: [...problems.map((p) => p.problem), ...(more > 0 ? [`and ${more} more problem(s)`] : [])],
    errorCount: errors.length,
    problems,
    value,
  };
}

const PARTS: Record<string, string> = {
  params: 'path parameter',
  query: 'query parameter',
  headers: 'header',
  body: 'body field',
};

function unescapePointerSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Where a rule across the query parameters sits in a request schema: `query.allOf[n]`, n >= 1 (see `queryRules`). */
const QUERY_RULE = /^#\/properties\/query\/allOf\/([1-9]\d*)(?:\/|$)/;

/**
 * Messages for a request's errors that name the bad field the way a caller sent it:
 * `query parameter per_page must be <= 100`, `path parameter id is required`, `body field title must be string`.
 * A broken rule across the query parameters (`queryRules`, the operation's `x-query-schema` rules in order) gives
 * one message with the rule's text, however many errors Ajv recorded for it.
 */
export function formatRequestErrors(
  errors: ValidationError[] | null | undefined,
  queryRules: readonly string[] = [],
  request?: unknown,
): RequestProblem[] {
  const brokenRules = new Set<string>();
  return (errors ?? []).flatMap((e) => {
    const rule = queryRules[Number(QUERY_RULE.exec(e.schemaPath ?? '')?.[1] ?? 0) - 1];
    if (rule !== undefined) {
      if (brokenRules.has(rule)) return [];
      brokenRules.add(rule);
      return [{ in: 'query', field: '', path: ['query'], problem: `query parameters break a rule: ${rule}` }];
    }
    const [part = '', ...rest] = pointerPath(e.instancePath, request).map(String);
    const missing = e.keyword === 'required' ? String(e.params?.missingProperty ?? '') : '';
    const path = missing ? [...rest, missing] : rest;
    const segments = [...pointerPath(e.instancePath, request), ...(missing ? [missing] : [])];
    const where = PARTS[part] ?? 'request';
    if (path.length === 0)
      return [
        {
          in: part || 'request',
          field: part,
          path: segments,
          problem: `${part === 'body' ? 'body' : where} ${problemMessage(e)}`,
        },
      ];
    const field =
      part === 'query' || part === 'params' || part === 'headers'
        ? `${path[0]}${path
            .slice(1)
            .map((p) => `[${p}]`)
            .join('')}`
        : path.join('.');
    const problem = missing ? 'is required' : problemMessage(e);
    return [{ in: part, field, path: segments, problem: `${where} ${field} ${problem}` }];
  });
}
