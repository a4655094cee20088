/**
 * Reads Prism's `Prefer` request header (`Prefer: code=404, example=SudoUserNotFoundError`) so that a test can ask
 * the mock for a documented response other than the first success.
 */
export function parsePrefer(header: string | string[] | undefined): { code?: number; exampleKey?: string; dynamic?: boolean } {
  const preferred: { code?: number; exampleKey?: string; dynamic?: boolean } = {};
  for (const part of [header ?? ''].flat().join(',').split(',')) {
    const [key, value] = part.split('=').map((s) => s.trim());
    if (!key || value === undefined) continue;
    if (key === 'code' && /^\d{3}$/.test(value)) preferred.code = Number(value);
    else if (key === 'example') preferred.exampleKey = value;
    else if (key === 'dynamic') preferred.dynamic = value === 'true';
  }
  return preferred;
}
