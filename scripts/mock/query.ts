/**
 * Parses a raw query string keeping parameter names exactly as sent (`scope[]`, `range[start]`), so that
 * bracketed names match the parameters of the document. Every value of a name is kept, in order. Linear in the
 * input; a Map, so that no name (`__proto__`) can reach a prototype. An empty value (`?sudo=`) is a value.
 */
export function parseQuery(rawQuery: string, maxParameters = Infinity): Map<string, string[]> | { tooMany: number } {
  const query = new Map<string, string[]>();
  let count = 0;
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    if (++count > maxParameters) return { tooMany: countPairs(rawQuery) };
    const values = query.get(name);
    if (values) values.push(value);
    else query.set(name, [value]);
  }
  return query;
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
