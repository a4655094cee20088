/**
 * Parses a raw query string keeping parameter names exactly as sent (`scope[]`, `range[start]`), so that
 * bracketed names match the parameters of the document. Every value of a name is kept, in order. Linear in the
 * input; a Map, so that no name (`__proto__`) can reach a prototype. An empty value (`?sudo=`) is a value. A malformed
 * escape (`%`, `%FF`, which is not UTF-8) is reported rather than guessed at.
 */
export function parseQuery(rawQuery: string, maxParameters = Infinity): Map<string, string[]> | { tooMany: number } | { malformed: string } {
  const query = new Map<string, string[]>();
  let count = 0;
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    if (++count > maxParameters) return { tooMany: countPairs(rawQuery) };
    const at = pair.indexOf('=');
    const name = decodeFormComponent(at < 0 ? pair : pair.slice(0, at));
    const value = decodeFormComponent(at < 0 ? '' : pair.slice(at + 1));
    if (name === undefined || value === undefined) return { malformed: pair.slice(0, 100) };
    const values = query.get(name);
    if (values) values.push(value);
    else query.set(name, [value]);
  }
  return query;
}

/** `application/x-www-form-urlencoded` decoding of one name or value; undefined when an escape is malformed. */
export function decodeFormComponent(text: string): string | undefined {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

function countPairs(rawQuery: string): number {
  let count = 0;
  for (const part of rawQuery.split('&')) if (part) count++;
  return count;
}

/** The query as a plain record (one value → string, several → array), for display and tests. */
export function queryRecord(query: Map<string, string[]>): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const [name, values] of query) Object.defineProperty(record, name, { value: values.length === 1 ? values[0] : values, enumerable: true, writable: true, configurable: true });
  return record;
}
