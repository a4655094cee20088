/** One problem or tolerance of a request, naming the part (`query`, `body`, …) and the field as the caller sent it. */
export interface Issue {
  in: string;
  field: string;
  problem: string;
}

/** The first problems listed in an error body, a header or a log line; the rest are only counted. */
export const MAX_LISTED = 20;

/** Keeps the first `MAX_LISTED` issues and counts all of them, so that no input can grow a report without bound. */
export class IssueList {
  readonly items: Issue[] = [];
  total = 0;

  add(issue: Issue): void {
    this.total += 1;
    if (this.items.length < MAX_LISTED) this.items.push({ ...issue, field: clip(issue.field), problem: clip(issue.problem) });
  }

  addAll(issues: Iterable<Issue>): void {
    for (const issue of issues) this.add(issue);
  }
}

/** User-supplied names appear in messages: keep them short. */
function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export interface ValidationErrorBody {
  message: string;
  errors: Issue[];
  /** How many problems there are in all; `errors` lists the first 20. */
  error_count: number;
}

/**
 * The API's 400 body naming each bad field, e.g. `{message: "400 Bad request - query parameter per_page must be <= 100",
 * errors: [{in: "query", field: "per_page", problem: "query parameter per_page must be <= 100"}], error_count: 1}`.
 */
export function describeViolations(list: IssueList): ValidationErrorBody {
  const more = list.total - list.items.length;
  const listed = list.items.map((e) => e.problem).join('; ');
  return { message: `400 Bad request - ${listed}${more > 0 ? `; and ${more} more` : ''}`, errors: list.items, error_count: list.total };
}

/**
 * Prism's `sl-violations` response header: a JSON array of `{location, severity, code, message}`. The mock lists what
 * it tolerated (severity `Warning`), the first 20 and, past them, one entry with the count. ASCII only, so that any
 * name a client sent can travel in a header.
 */
export function violationsHeader(list: IssueList): string {
  const entries: object[] = list.items.map((t) => ({ location: ['request', t.in, ...(t.field ? [t.field] : [])], severity: 'Warning', code: 'tolerated', message: t.problem }));
  const more = list.total - list.items.length;
  if (more > 0) entries.push({ location: ['request'], severity: 'Warning', code: 'tolerated', message: `and ${more} more` });
  return JSON.stringify(entries).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The tolerances of a request on one log line. */
export function toleranceLogLine(list: IssueList): string {
  const more = list.total - list.items.length;
  return `  tolerated: ${list.items.map((t) => t.problem).join('; ')}${more > 0 ? `; and ${more} more` : ''}`.replace(/[\r\n]/g, ' ');
}
