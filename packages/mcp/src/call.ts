/**
 * One tool call: the arguments split into the request's parts, checked (the request stays on the configured host)
 * and validated by the generated validators before anything is sent, then sent by the typed client. A refused input
 * or an error answer is a result with `isError` and its issues, never a thrown error or a stack trace.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isServiceApiError, type ServiceApi } from '@service-api/client';
import { defaultLimits } from '@service-api/server';
import { type RequestOperationId, validateRequest } from '@service-api/validators';
import { successResult } from './answer.ts';
import { decodeCursor } from './cursor.ts';
import { applySecrets, type OperatorSecrets, secretIssue } from './secrets.ts';
import type { Issue, ToolEntry } from './tool-entry.ts';

export type { Issue };

export interface CallContext {
  api: ServiceApi;
  /** Largest answer in characters. */
  maxAnswerChars: number;
  /** Text that must never appear in a result (the credential, the operator's secrets). */
  secrets: readonly string[];
  /** The credentials of request bodies that the operator supplies. */
  operatorSecrets: OperatorSecrets;
  /** Whether no secret has a character JSON may write as a short escape (see `plainSecrets`); unset: some may. */
  plainSecrets?: boolean;
}

/** Whether JSON may write one of the characters as a short escape: `\"`, `\\`, `\/`, `\n` and the other controls. */
const hasShortEscaped = (text: string): boolean =>
  [...text].some((c) => c < ' ' || c === '"' || c === '\\' || c === '/');

/** Whether no secret has a character JSON may write as a short escape: made once, when the server starts. */
export function plainSecrets(secrets: readonly string[]): boolean {
  return !secrets.some(hasShortEscaped);
}

interface Parts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  hasBody: boolean;
}

/** A result that says the call failed, with its issues (and the Service's status and answer, when it answered). */
export function errorResult(
  message: string,
  issues: Issue[] = [],
  extra: Record<string, unknown> = {},
): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: message, ...extra, issues }) }] };
}

/**
 * Whether the arguments hold more values (objects, arrays, scalars) than a server on the contract reads in a JSON body:
 * counted up to the limit only, so that refusing a huge input costs no more than the limit.
 */
function tooManyValues(value: unknown, limit = defaultLimits.jsonValues): boolean {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (++count > limit) return true;
    if (typeof next !== 'object' || next === null) continue;
    const items = Array.isArray(next) ? next : Object.values(next);
    if (count + stack.length + items.length > limit) return true;
    for (const item of items) stack.push(item);
  }
  return false;
}

/** A path parameter as the client sends it: one segment, never `.` or `..` (a URL would resolve those). */
function pathValue(name: string, value: unknown, issues: Issue[]): unknown {
  if (typeof value !== 'string') return value;
  let decoded = value;
  if (/%[0-9A-Fa-f]{2}/.test(value)) {
    try {
      decoded = decodeURIComponent(value);
    } catch {
      issues.push({ path: [name], message: `${name} is not a valid URL-encoded value` });
      return value;
    }
  }
  if (decoded.split(/[/\\]/).some((segment) => segment === '.' || segment === '..'))
    issues.push({ path: [name], message: `${name} must not contain "." or ".." path segments` });
  return decoded;
}

/** A file argument (base64) as the File a form sends. */
function fileValue(name: string, value: unknown, issues: Issue[]): unknown {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(value)) {
    issues.push({ path: [name], message: `${name} must be the file's content in base64` });
    return value;
  }
  return new File([Buffer.from(value, 'base64')], name);
}

/** The arguments by where they go; names the tool does not take (and prototype keys) are ignored. */
function split(entry: ToolEntry, args: Record<string, unknown>, issues: Issue[]): Parts {
  const parts: Parts = { params: {}, query: {}, body: {}, hasBody: false };
  for (const [name, place] of Object.entries(entry.inputs)) {
    if (!Object.hasOwn(args, name) || args[name] === undefined) continue;
    const value = args[name];
    if (place === 'path') parts.params[name] = pathValue(name, value, issues);
    else if (place === 'query') parts.query[name] = value;
    else if (place === 'cursor') {
      const query = typeof value === 'string' ? decodeCursor(value) : undefined;
      if (query) Object.assign(parts.query, query);
      else issues.push({ path: [name], message: 'cursor must be the next_cursor of an earlier answer' });
    } else {
      parts.body[name] = place === 'file' ? fileValue(name, value, issues) : value;
      parts.hasBody = true;
    }
  }
  return parts;
}

/** The validators' problems as issues on the tool's arguments (body fields are top-level arguments). */
function validate(entry: ToolEntry, parts: Parts): { issues: Issue[]; params: object; query: object } {
  const request = { params: parts.params, query: parts.query, ...(parts.hasBody ? { body: parts.body } : {}) };
  const result = validateRequest(entry.operationId as RequestOperationId, request);
  const issues = result.valid
    ? []
    : result.problems.map((problem) => ({ path: problem.path.slice(1), message: problem.problem }));
  return { issues, params: result.value.params, query: result.value.query };
}

/** Calls the tool's operation; every outcome is a result. */
export async function callTool(
  entry: ToolEntry,
  args: Record<string, unknown>,
  context: CallContext,
): Promise<CallToolResult> {
  if (tooManyValues(args))
    return errorResult('The arguments were refused before any request', [
      { path: [], message: `the arguments hold more than ${defaultLimits.jsonValues} values` },
    ]);
  const issues: Issue[] = [];
  const parts = split(entry, args, issues);
  if (applySecrets(entry, args, parts.body, context.operatorSecrets, issues)) parts.hasBody = true;
  if (issues.length > 0) return errorResult('The arguments were refused before any request', issues);
  const checked = validate(entry, parts);
  if (checked.issues.length > 0)
    return errorResult(
      'The arguments were refused before any request',
      checked.issues.map((issue) => secretIssue(entry, issue, context.operatorSecrets)),
    );
  const method = (context.api as unknown as Record<string, Record<string, MethodWithResponse>>)[entry.group]?.[
    entry.method
  ];
  if (!method) return errorResult(`${entry.name} has no client method`);
  try {
    const input = { path: checked.params, query: checked.query, ...(parts.hasBody ? { body: parts.body } : {}) };
    const answer = await method.withResponse(input, { keepText: true });
    const text = reusable(answer.text, context.secrets, context.plainSecrets === true);
    return await successResult(entry, answer, context.maxAnswerChars, text);
  } catch (error) {
    return failureResult(error);
  }
}

type MethodWithResponse = {
  withResponse(input: object, options: { keepText: true }): Promise<Parameters<typeof successResult>[1]>;
};

/**
 * The answer's text, when the result may carry it as received: it holds no secret as it is, nor spelt with an escape
 * that the redaction, matching text, would miss (a `\u` escape, or a short one of a character some secret has).
 * Otherwise the result's text is made from the parsed body, where every secret is spelt as it is, and redacted.
 */
function reusable(text: string | undefined, secrets: readonly string[], plain: boolean): string | undefined {
  if (text === undefined || secrets.length === 0) return text;
  if (secrets.some((secret) => text.includes(secret))) return undefined;
  return text.includes(plain ? '\\u' : '\\') ? undefined : text;
}

/** An error answer or a failed call, without a stack: the status and the Service's message and body. */
function failureResult(error: unknown): CallToolResult {
  if (isServiceApiError(error) && error.kind === 'http') {
    const body = error.body as { message?: unknown; error?: unknown; errors?: unknown } | undefined;
    const text = body && typeof body === 'object' ? (body.message ?? body.error) : body;
    const message = typeof text === 'string' ? text : JSON.stringify(text ?? `HTTP ${error.status}`);
    return errorResult(`The Service answered ${error.status}: ${message}`, serviceIssues(body), {
      status: error.status,
      body,
    });
  }
  if (isServiceApiError(error)) return errorResult(`The request failed (${error.kind}): ${error.message}`);
  return errorResult(`The request failed: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * The fields an error answer names as issues: a 400's `message` hash (`{ title: ['is too long'] }`) or its `errors`
 * list (`[{ field, problem }]`).
 */
function serviceIssues(body: { message?: unknown; errors?: unknown } | undefined): Issue[] {
  if (Array.isArray(body?.errors))
    return (body.errors as { field?: unknown; problem?: unknown }[])
      .filter((error) => typeof error?.field === 'string')
      .map((error) => ({ path: [error.field as string], message: String(error.problem ?? 'refused') }));
  const message = body?.message;
  if (!message || typeof message !== 'object' || Array.isArray(message)) return [];
  return Object.entries(message).map(([field, problems]) => ({
    path: [field],
    message: [problems].flat().map(String).join('; '),
  }));
}

/** The result with every secret replaced: a credential never reaches a model. */
export function redact(result: CallToolResult, secrets: readonly string[]): CallToolResult {
  const active = secrets.filter((secret) => secret.length > 0);
  if (active.length === 0) return result;
  const texts = result.content.map((part) => (part.type === 'text' ? part.text : ''));
  if (!active.some((secret) => texts.some((text) => text.includes(secret)))) return result;
  let text = JSON.stringify(result);
  for (const secret of active) text = text.split(secret).join('[redacted]');
  return JSON.parse(text) as CallToolResult;
}
