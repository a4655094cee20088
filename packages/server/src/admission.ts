/**
 * Admission: what is decided about a request before its body is read, from its URL and headers alone. One pure
 * function for every reader of requests (the server runtime, the checking proxy), so that they refuse alike: a query
 * string above the limit (414) or malformed (400), an anonymous call of an authenticated operation (401), then a body
 * of a media type the operation does not read (415) or declared above its limit (413, or 400 with the file's message
 * where the operation documents every file's maximum).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { DISCARD_FACTOR } from './answer.js';
import { credentialReader, type Credential, type CredentialReader, type SchemeLocation } from './credentials.js';
import { bytes, essence, hasBody, InputError, parseQuery, shown } from './input.js';
import { sourceOf, tooBig } from './parsers.js';
import type { RouteDescriptor, ServiceApiLimits } from './route.js';

/** A problem of a request, as a 400 lists it. */
export interface Problem {
  in: string;
  field: string;
  problem: string;
}

/** A refused request: its status and what the error body says. */
export interface Refusal {
  status: number;
  detail?: string;
  problems?: Problem[];
  /** How many problems there were, when `problems` is cut. */
  total?: number;
  /** How many bytes of an unread body are discarded before answering (default `DISCARD_BYTES`). */
  discard?: number;
}

/**
 * What admission read of a request (its query, parsed, and the credentials it sent of the schemes the operation
 * accepts) and, when it refuses the request, why. A request refused before its query was read has neither.
 */
export interface Verdict {
  query: Record<string, unknown>;
  credentials: Credential[];
  refusal?: Refusal;
}

/** An operation prepared for admission (once, not per request). */
export interface AdmissionRoute {
  route: RouteDescriptor;
  readCredentials: CredentialReader;
  /** The largest body the operation reads. */
  limit: number;
  readsBody: boolean;
}

export function admissionRoute(
  route: RouteDescriptor,
  schemes: Record<string, SchemeLocation>,
  limits: ServiceApiLimits,
): AdmissionRoute {
  return {
    route,
    readCredentials: credentialReader(route, schemes),
    limit: bodyLimitOf(route, limits).limit,
    readsBody: route.method !== 'GET' && route.method !== 'HEAD',
  };
}

/**
 * The query (414 above `limits.queryLength`, 400 when malformed), the credentials, and 401 for an anonymous call of
 * an authenticated operation. Without an operation (a path none has), the query alone.
 */
export function admit(
  rawUrl: string,
  headers: IncomingHttpHeaders,
  operation: AdmissionRoute | undefined,
  limits: ServiceApiLimits,
): Verdict {
  const at = rawUrl.indexOf('?');
  const rawQuery = at < 0 ? '' : rawUrl.slice(at + 1);
  if (rawQuery.length > limits.queryLength)
    return refused({ status: 414, detail: `the query string is longer than ${bytes(limits.queryLength)}` });
  let query: Record<string, unknown>;
  try {
    query = parseQuery(rawQuery, operation?.route.query, limits.queryParameters);
  } catch (error) {
    if (error instanceof InputError) return refused(inputRefusal(error));
    throw error;
  }
  const credentials = operation ? operation.readCredentials(headers, query) : [];
  // An anonymous caller of an authenticated operation is refused before anything else is read.
  if (credentials.length === 0 && operation?.route.authenticated)
    return { query, credentials, refusal: { status: 401 } };
  return { query, credentials };
}

function refused(refusal: Refusal): Verdict {
  return { query: {}, credentials: [], refusal };
}

/** The body's media type (415) and declared length (413, or the file's 400), before it is read. */
export function admitBody(
  headers: IncomingHttpHeaders,
  operation: AdmissionRoute,
  limits: ServiceApiLimits,
): Refusal | undefined {
  if (!operation.readsBody || !hasBody(headers)) return undefined;
  const type = headers['content-type'];
  const source = sourceOf(type);
  if (!source) {
    const documented = operation.route.body ? essence(operation.route.body.type) : 'application/json';
    const sent = shown(essence(type) || 'a body without Content-Type');
    return { status: 415, detail: `the operation reads ${documented} (or a form, multipart or JSON), not ${sent}` };
  }
  const limit = source === 'multipart' ? operation.limit : Math.min(operation.limit, limits.jsonBody);
  if (Number(headers['content-length']) > limit)
    return overLimit(source === 'multipart' ? operation.route : undefined, limit, limits);
  return undefined;
}

/** A body above `limit`: the file's own message where the operation documents every file's maximum, else 413. */
export function overLimit(route: RouteDescriptor | undefined, limit: number, limits: ServiceApiLimits): Refusal {
  const file = route ? bodyLimitOf(route, limits).file : undefined;
  const discard = DISCARD_FACTOR * limit;
  if (file)
    return { status: 400, problems: [{ in: 'body', field: file[0], problem: tooBig(...file).message }], discard };
  return { status: 413, detail: `the body is larger than ${bytes(limit)}`, discard };
}

/** A reader's refusal, naming the field. */
export function inputRefusal(error: InputError): Refusal {
  return { status: error.statusCode, problems: [{ in: error.part, field: error.field, problem: error.message }] };
}

/** The largest body an operation reads, and the file whose documented maximum a larger one breaks. */
export function bodyLimitOf(
  route: RouteDescriptor,
  limits: ServiceApiLimits,
): { limit: number; file?: [string, number] } {
  if (route.body?.kind !== 'multipart') return { limit: limits.jsonBody };
  const files = Object.entries(route.files ?? {});
  const bounded = files.filter((f): f is [string, number] => typeof f[1] === 'number');
  if (files.length === 0 || bounded.length < files.length) return { limit: limits.multipartBody };
  // Every file has a documented maximum: the body may hold them and 64 KiB of other fields.
  const sum = bounded.reduce((total, [, max]) => total + max, 0);
  return { limit: Math.min(limits.multipartBody, sum + 64 * 1024), file: bounded[0] };
}
