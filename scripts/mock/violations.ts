export interface Violation {
  path?: string[];
  message: string;
  code?: string | number;
}

export interface ValidationErrorBody {
  message: string;
  errors: { in: string; field: string; problem: string }[];
}

/**
 * Turns Prism's request violations into an error body that names each bad field, e.g.
 * `{message: "400 Bad request - query parameter per_page must be <= 100", errors: [{in: "query", field: "per_page", …}]}`.
 */
export function describeViolations(status: number, violations: Violation[]): ValidationErrorBody {
  const errors = violations.map((v) => {
    const [where = 'request', field = '', ...rest] = v.path ?? [];
    return { in: where, field: [field, ...rest].filter(Boolean).join('.'), problem: v.message.replace(/^Request /, '') };
  });
  const label = status === 400 ? 'Bad request' : 'Invalid request';
  return { message: `${status} ${label} - ${errors.map((e) => e.problem).join('; ')}`, errors };
}
