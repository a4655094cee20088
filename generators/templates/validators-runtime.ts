/**
 * The hand-written part of the generated validators: readable messages for Ajv's errors. generators/validators.ts
 * copies it into the package as `src/runtime.ts`. No Node modules: it also runs in browsers.
 */

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
  /** One readable line per problem, e.g. `/job/id must be integer`. */
  errors: string[];
}

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

const PARTS: Record<string, string> = { params: 'path parameter', query: 'query parameter', headers: 'header', body: 'body field' };

function unescape(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Messages for a request's errors that name the bad field the way a caller sent it:
 * `query parameter per_page must be <= 100`, `path parameter id is required`, `body field title must be string`.
 */
export function formatRequestErrors(errors: ValidationError[] | null | undefined): { field: string; in: string; problem: string }[] {
  return (errors ?? []).map((e) => {
    const [part = '', ...rest] = e.instancePath.split('/').slice(1).map(unescape);
    const missing = e.keyword === 'required' ? String(e.params?.missingProperty ?? '') : '';
    const path = missing ? [...rest, missing] : rest;
    const where = PARTS[part] ?? 'request';
    if (path.length === 0) return { in: part || 'request', field: part, problem: `${part === 'body' ? 'body' : where} ${e.message ?? 'is invalid'}${detail(e)}` };
    const field = part === 'query' || part === 'params' || part === 'headers' ? `${path[0]}${path.slice(1).map((p) => `[${p}]`).join('')}` : path.join('.');
    const problem = missing ? 'is required' : `${e.message ?? 'is invalid'}${detail(e)}`;
    return { in: part, field, problem: `${where} ${field} ${problem}` };
  });
}
