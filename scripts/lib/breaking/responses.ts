/** An operation's responses, by status: removed or added statuses, their headers and their content. */
import type { Comparison, Json } from './comparison.ts';
import { compareContent } from './bodies.ts';
import { compareSchema } from './schemas.ts';

export function compareResponses(c: Comparison, at: string, rawOld: unknown, rawCurrent: unknown) {
  const old = (rawOld ?? {}) as Json;
  const current = (rawCurrent ?? {}) as Json;
  for (const [status, raw] of Object.entries(old)) {
    const where = `${at} › ${status}`;
    if (!(status in current)) {
      // Clients read success bodies; a dropped error status only narrows what they may see.
      const success = /^2/.test(status);
      c.addEither(success, ['success-response-removed', 'error-response-removed'], where);
      continue;
    }
    const response = c.before.get<Json>(raw);
    const next = c.after.get<Json>(current[status]);
    compareHeaders(c, where, (response.headers ?? {}) as Json, (next.headers ?? {}) as Json);
    compareContent(c, 'response', where, response.content as Json | undefined, next.content as Json | undefined);
  }
  for (const status of Object.keys(current))
    if (!(status in old)) c.add('compatible', 'response-added', `${at} › ${status}`);
}

/** A response's headers, matched without regard to case. */
function compareHeaders(c: Comparison, where: string, oldHeaders: Json, newHeaders: Json) {
  const lower = new Map(Object.entries(newHeaders).map(([name, header]) => [name.toLowerCase(), header]));
  for (const [name, header] of Object.entries(oldHeaders)) {
    const found = lower.get(name.toLowerCase());
    if (!found) c.add('breaking', 'response-header-removed', `${where} › header ${name}`);
    else {
      const [before, after] = [c.before.get<Json>(header).schema, c.after.get<Json>(found).schema];
      compareSchema(c, 'response', `${where} › header ${name}`, before, after);
    }
  }
  for (const name of Object.keys(newHeaders)) {
    if (!Object.keys(oldHeaders).some((o) => o.toLowerCase() === name.toLowerCase()))
      c.add('compatible', 'response-header-added', `${where} › header ${name}`);
  }
}
