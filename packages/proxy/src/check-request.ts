/**
 * A request read the Service's way, with the server package's own readers (`parseQuery`, `parseBody`,
 * `normalizeInput`) and the generated request validators: what it sent that the contract does not describe, in a
 * tolerated form, or that the Service refuses. Findings name fields, never their values.
 */
import { validateRequest, type ServiceApiLimits } from '@service-api/server';
import {
  InputError,
  normalizeInput,
  parseBody,
  sourceOf,
  Tolerances,
  type MatchedOperation,
} from '@service-api/server/internal';
import type { Disagreement } from './report.ts';

/** A problem's text without the values it quotes (`"1" read as true` → `a string read as true`). */
export function withoutValues(problem: string): string {
  return problem.replace(/"(?:[^"\\]|\\.)*"/g, 'a string');
}

const UNDOCUMENTED = /is not (a )?documented/;

export interface RequestParts {
  matched: MatchedOperation;
  method: string;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  /** The body's media type essence, and its bytes (undefined: no body). */
  type: string;
  body: Buffer | undefined;
}

/** The disagreements of a documented operation's request. */
export async function checkRequest(parts: RequestParts, limits: ServiceApiLimits): Promise<Disagreement[]> {
  const { route, params } = parts.matched;
  let body: unknown;
  try {
    body = await parseBody(
      parts.headers['content-type'] as string | undefined,
      parts.body ?? new Uint8Array(),
      limits,
      route.files,
    );
  } catch (error) {
    if (error instanceof InputError) return [{ kind: 'refused-request', detail: withoutValues(error.message) }];
    throw error;
  }
  const tolerances = new Tolerances(limits.errors);
  const documented = route.body?.type;
  const source = body === undefined ? undefined : sourceOf(parts.type);
  let input: { query: Record<string, unknown>; body: unknown };
  try {
    input = normalizeInput(
      { method: route.method, shape: route.input, params, query: parts.query, body, source, documented },
      tolerances,
    );
  } catch (error) {
    if (error instanceof InputError) return [{ kind: 'refused-request', detail: withoutValues(error.message) }];
    throw error;
  }
  const found: Disagreement[] = tolerances.list.map((t) => ({
    kind: UNDOCUMENTED.test(t.problem) ? 'undocumented-parameter' : 'tolerated-form',
    detail: withoutValues(t.problem),
  }));
  const headers: Record<string, unknown> = {};
  for (const name of route.headers ?? []) if (parts.headers[name] !== undefined) headers[name] = parts.headers[name];
  const check = validateRequest(route.id as never, { params, query: input.query, headers, body: input.body } as never);
  // The validators' messages name fields and the contract's rules (patterns, allowed values), never what was sent.
  if (!check.valid)
    for (const problem of check.problems) found.push({ kind: 'refused-request', detail: problem.problem });
  return found;
}
