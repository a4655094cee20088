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

function detail(error: ValidationError): string {
  const params = error.params ?? {};
  if (params.additionalProperty !== undefined) return ` (${String(params.additionalProperty)})`;
  if (Array.isArray(params.allowedValues)) return `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return '';
}

/** Readable messages for the errors of the last run of a validator: `<where> <message>`. */
export function formatErrors(errors: ValidationError[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${detail(e)}`);
}

/**
 * Validates with `check` (stops at the first failure, no messages); only when it fails runs `full`, which collects
 * every error, and describes the first `MAX_ERRORS`.
 */
export function checkWith(check: ValidateFunction, full: ValidateFunction, value: unknown): ValidationResult {
  if (check(value)) return { valid: true, errors: [] };
  const valid = full(value);
  if (valid) return { valid, errors: [] }; // cannot happen: both are compiled from the same schema
  const all = full.errors ?? [];
  const errors = formatErrors(all.slice(0, MAX_ERRORS));
  if (all.length > MAX_ERRORS) errors.push(`and ${all.length - MAX_ERRORS} more problem(s)`);
  return { valid, errors, errorCount: all.length };
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
): { field: string; in: string; problem: string }[] {
  const brokenRules = new Set<string>();
  return (errors ?? []).flatMap((e) => {
    const rule = queryRules[Number(QUERY_RULE.exec(e.schemaPath ?? '')?.[1] ?? 0) - 1];
    if (rule !== undefined) {
      if (brokenRules.has(rule)) return [];
      brokenRules.add(rule);
      return [{ in: 'query', field: '', problem: `query parameters break a rule: ${rule}` }];
    }
    const [part = '', ...rest] = e.instancePath.split('/').slice(1).map(unescapePointerSegment);
    const missing = e.keyword === 'required' ? String(e.params?.missingProperty ?? '') : '';
    const path = missing ? [...rest, missing] : rest;
    const where = PARTS[part] ?? 'request';
    if (path.length === 0)
      return [
        {
          in: part || 'request',
          field: part,
          problem: `${part === 'body' ? 'body' : where} ${e.message ?? 'is invalid'}${detail(e)}`,
        },
      ];
    const field =
      part === 'query' || part === 'params' || part === 'headers'
        ? `${path[0]}${path
            .slice(1)
            .map((p) => `[${p}]`)
            .join('')}`
        : path.join('.');
    const problem = missing ? 'is required' : `${e.message ?? 'is invalid'}${detail(e)}`;
    return [{ in: part, field, problem: `${where} ${field} ${problem}` }];
  });
}
