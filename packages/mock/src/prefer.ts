/**
 * Reads Prism's `Prefer` request header (`Prefer: code=404, example=SudoUserNotFoundError`) so that a test can ask
 * the mock for a documented response other than the first success.
 */
export interface Preferred {
  code?: number;
  exampleKey?: string;
  dynamic?: boolean;
  /** A `code=` value that is not a status (`code=abc`), kept to be reported. */
  invalidCode?: string;
}

export function parsePrefer(header: string | string[] | undefined): Preferred {
  const preferred: Preferred = {};
  for (const part of [header ?? ''].flat().join(',').split(',')) {
    const [key, value] = part.split('=').map((s) => s.trim());
    if (!key || value === undefined) continue;
    if (key === 'code') {
      if (/^\d{3}$/.test(value)) preferred.code = Number(value);
      else preferred.invalidCode = value.slice(0, 40);
    } else if (key === 'example') preferred.exampleKey = value.slice(0, 200);
    else if (key === 'dynamic') preferred.dynamic = value === 'true';
  }
  return preferred;
}

/**
 * Checks a preference against the operation's documented statuses and example names. An example named without a
 * status selects the status that documents it. Returns the message of a 400 when the preference cannot be met.
 */
export function resolvePreference(
  preferred: Preferred,
  operationId: string,
  examples: Map<string, string[]>,
): { code?: number; exampleKey?: string } | { error: string } {
  const listing = () =>
    [...examples].map(([status, names]) => `${status}${names.length ? ` (${names.join(', ')})` : ''}`).join('; ');
  if (preferred.invalidCode !== undefined)
    return {
      error: `400 Bad request - Prefer: code=${preferred.invalidCode} is not a status; ${operationId} documents ${listing()}`,
    };
  let { code, exampleKey } = preferred;
  if (code !== undefined && !examples.has(String(code))) {
    return {
      error: `400 Bad request - Prefer: code=${code} is not documented for ${operationId}; it documents ${listing()}`,
    };
  }
  if (exampleKey !== undefined) {
    const statuses = code !== undefined ? [String(code)] : [...examples.keys()];
    const status = statuses.find((s) => examples.get(s)?.includes(exampleKey!));
    if (!status) {
      const where = code !== undefined ? ` with status ${code}` : '';
      return {
        error: `400 Bad request - Prefer: example=${exampleKey} is not documented${where} for ${operationId}; it documents ${listing()}`,
      };
    }
    code = Number(status);
  }
  return { code, exampleKey };
}
