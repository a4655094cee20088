/**
 * A request read the Service's way, with the server package's own readers (`parseQuery`, `parseForm`, `formFields`,
 * `normalizeInput`) and the generated request validators: what it sent that the contract does not describe, in a
 * tolerated form, or that the Service refuses. Findings name fields, never their values.
 */
import {
  formFields,
  InputError,
  normalizeInput,
  parseForm,
  Tolerances,
  validateRequest,
  type MatchedOperation,
  type ServiceApiLimits,
} from '@service-api/server';
import type { Disagreement } from './report.ts';

/** How a request body was sent, from its media type; undefined for one the server package does not read. */
export function bodySource(type: string): 'json' | 'form' | 'multipart' | undefined {
  if (type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type)) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type === 'multipart/form-data') return 'multipart';
  return undefined;
}

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

async function readBody(parts: RequestParts, limits: ServiceApiLimits): Promise<unknown> {
  const { body, type } = parts;
  if (!body || body.length === 0) return undefined;
  const source = bodySource(type);
  if (source === 'json') {
    try {
      return JSON.parse(body.toString('utf8')) as unknown;
    } catch {
      throw new InputError(400, 'body is not valid JSON', '', 'body');
    }
  }
  if (source === 'form') return parseForm(body.toString('utf8'), limits.bodyFields);
  if (source === 'multipart') {
    const contentType = String(parts.headers['content-type']);
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), {
        headers: { 'content-type': contentType },
      }).formData();
    } catch {
      throw new InputError(400, 'malformed multipart body', '', 'body');
    }
    return formFields(form, limits.bodyFields);
  }
  throw new InputError(415, `the operation does not read ${type || 'a body without Content-Type'}`, '', 'body');
}

/** The disagreements of a documented operation's request. */
export async function checkRequest(parts: RequestParts, limits: ServiceApiLimits): Promise<Disagreement[]> {
  const { route, params } = parts.matched;
  let body: unknown;
  try {
    body = await readBody(parts, limits);
  } catch (error) {
    if (error instanceof InputError) return [{ kind: 'refused-request', detail: withoutValues(error.message) }];
    throw error;
  }
  const tolerances = new Tolerances(limits.errors);
  const documented = route.body?.type;
  const source = body === undefined ? undefined : bodySource(parts.type);
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
