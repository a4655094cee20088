/**
 * Parses a raw query string keeping parameter names exactly as sent (`scope[]`, `range[start]`), so that
 * bracketed names match the parameters of the document. A name sent more than once becomes an array.
 */
export function parseQuery(rawQuery: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    const previous = query[name];
    if (previous === undefined) query[name] = value;
    else query[name] = Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return query;
}
