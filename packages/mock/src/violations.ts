/**
 * What a request sent that the contract does not describe in that form (the server package's tolerance report), as
 * Prism's `sl-violations` response header and as the access log's `tolerated:` line.
 */
import type { ToleranceReport } from '@service-api/server';

/**
 * Prism's `sl-violations` header: a JSON array of `{location, severity, code, message}` listing what was tolerated
 * (severity `Warning`), the first ones and, past them, one entry with the count. ASCII only, so that any name a client
 * sent can travel in a header.
 */
export function violationsHeader(report: ToleranceReport): string {
  const entries: object[] = report.tolerated.map((t) => ({
    location: ['request', t.in, ...(t.field ? [t.field] : [])],
    severity: 'Warning',
    code: 'tolerated',
    message: t.problem,
  }));
  const more = report.count - report.tolerated.length;
  if (more > 0)
    entries.push({ location: ['request'], severity: 'Warning', code: 'tolerated', message: `and ${more} more` });
  return JSON.stringify(entries).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The tolerances of a request on one log line. */
export function toleranceLogLine(report: ToleranceReport): string {
  const more = report.count - report.tolerated.length;
  return `  tolerated: ${report.tolerated.map((t) => t.problem).join('; ')}${more > 0 ? `; and ${more} more` : ''}`.replace(
    /[\r\n]/g,
    ' ',
  );
}
