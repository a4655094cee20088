/**
 * The keyset cursor a list tool answers (`next_cursor`) and takes (`cursor`): the query of the Service's `Link`
 * `rel="next"` URL, base64url-encoded. Only its query parameters are read back, never its host or path: a cursor
 * cannot send a request anywhere but to the configured Service.
 */

export function encodeCursor(next: string): string {
  return Buffer.from(new URL(next).search.replace(/^\?/, ''), 'utf8').toString('base64url');
}

/** The query parameters of a cursor (repeated names as arrays), or undefined when it is not one of ours. */
export function decodeCursor(cursor: string): Record<string, string | string[]> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(cursor)) return undefined;
  const params = new URLSearchParams(Buffer.from(cursor, 'base64url').toString('utf8'));
  const out: Record<string, string | string[]> = Object.create(null);
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    out[name] = name.endsWith('[]') ? values : values[values.length - 1]!;
  }
  return out;
}
