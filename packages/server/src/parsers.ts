/**
 * The body parsers of the server: JSON, forms and multipart, bounded and prototype-safe. An empty body is no body,
 * whatever its media type, as in the Service.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bytes, essence, exceedsValues, formFields, InputError, parseForm } from './input.js';
import type { Source } from './tolerance.js';

type Done = (error: Error | null, value?: unknown) => void;

export interface ParserLimits {
  bodyFields: number;
  jsonValues: number;
}

/** The message of a multipart file above its documented maximum, as the API words it. */
export function tooBig(field: string, max: number): InputError {
  return new InputError(400, `${field} is too big (should be at most ${bytes(max)})`, field, 'body');
}

const SOURCES: Record<string, Source> = {
  'application/json': 'json',
  'application/x-www-form-urlencoded': 'form',
  'multipart/form-data': 'multipart',
};

/** How a body of this `Content-Type` is read (JSON also as `application/*+json`); undefined: not at all (415). */
export function sourceOf(contentType: string | undefined): Source | undefined {
  const type = essence(contentType);
  return SOURCES[type] ?? (/^application\/[\w.+-]+\+json$/.test(type) ? 'json' : undefined);
}

const INVALID_JSON = 'body is not valid JSON (or names __proto__ or constructor.prototype)';

/** Whether a parsed value names `__proto__`, or `constructor` holding `prototype`, as a key anywhere. */
function namesPrototype(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === null || typeof next !== 'object') continue;
    if (Object.hasOwn(next, '__proto__')) return true;
    const named = (next as Record<string, unknown>).constructor;
    if (
      Object.hasOwn(next, 'constructor') &&
      named !== null &&
      typeof named === 'object' &&
      Object.hasOwn(named, 'prototype')
    )
      return true;
    for (const child of Array.isArray(next) ? next : Object.values(next)) stack.push(child);
  }
  return false;
}

/**
 * A JSON body: refused (400) when it is not JSON, names `__proto__` or `constructor.prototype`, or holds more than
 * `maxValues` values (validation costs time per value). An empty text is no body.
 */
export function parseJsonBody(text: string, maxValues: number): unknown {
  if (text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new InputError(400, INVALID_JSON, '', 'body');
  }
  // The walk only when the text could name them: most bodies pay nothing for it.
  if ((text.includes('__proto__') || text.includes('constructor')) && namesPrototype(value))
    throw new InputError(400, INVALID_JSON, '', 'body');
  if (exceedsValues(value, maxValues))
    throw new InputError(400, `the JSON body holds more than ${maxValues} values`, '', 'body');
  return value;
}

/**
 * A request body from its bytes, read as the server's parsers read it (for tools that see raw requests, such as a
 * proxy): JSON, a form or multipart by `Content-Type`; an empty body is no body; another media type is a 415.
 */
export async function parseBody(
  contentType: string | undefined,
  body: Uint8Array,
  limits: ParserLimits,
  files?: Record<string, number | null>,
): Promise<unknown> {
  if (body.length === 0) return undefined;
  const source = sourceOf(contentType);
  const text = () => Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  if (source === 'json') return parseJsonBody(text(), limits.jsonValues);
  if (source === 'form') return parseForm(text(), limits.bodyFields);
  if (source === 'multipart') return parseMultipart(String(contentType), body, limits.bodyFields, files);
  throw new InputError(415, 'the operation does not read this media type', '', 'body');
}

/**
 * Replaces the scope's parsers. `filesOf` gives the documented maximum of each multipart file of the request's
 * operation. Media types other than JSON, forms and multipart are refused (415) before their body is read, unless the
 * body is empty.
 */
export function registerBodyParsers(
  scope: FastifyInstance,
  limits: ParserLimits,
  filesOf: (request: FastifyRequest) => Record<string, number | null> | undefined,
): void {
  scope.removeAllContentTypeParsers();
  const json = (_request: FastifyRequest, body: string, done: Done) => {
    try {
      done(null, parseJsonBody(body, limits.jsonValues));
    } catch (error) {
      done(error as Error);
    }
  };
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, json);
  scope.addContentTypeParser(/^application\/[\w.+-]+\+json$/, { parseAs: 'string' }, json);
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request: FastifyRequest, body: string, done: Done) => {
      if (body === '') return done(null, undefined);
      try {
        done(null, parseForm(body, limits.bodyFields));
      } catch (error) {
        done(error as Error);
      }
    },
  );
  scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request: FastifyRequest, body: Buffer) =>
    body.length === 0
      ? Promise.resolve(undefined)
      : parseMultipart(String(request.headers['content-type']), body, limits.bodyFields, filesOf(request)),
  );
  // Reached only by an empty body (admission refuses any other with 415 before reading it).
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request: FastifyRequest, body: Buffer, done: Done) => {
    if (body.length === 0) return done(null, undefined);
    done(new InputError(415, 'the operation does not read this media type', '', 'body'));
  });
}

async function parseMultipart(
  contentType: string,
  body: Uint8Array,
  maxFields: number,
  files: Record<string, number | null> = {},
): Promise<Record<string, unknown>> {
  if (!/;\s*boundary=/i.test(contentType)) throw new InputError(400, 'multipart body without a boundary', '', 'body');
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), {
      headers: { 'content-type': contentType },
    }).formData();
  } catch {
    throw new InputError(400, 'malformed multipart body', '', 'body');
  }
  const fields = formFields(form, maxFields);
  for (const [name, max] of Object.entries(files)) {
    const value = fields[name];
    if (max !== null && value instanceof Blob && value.size > max) throw tooBig(name, max);
  }
  return fields;
}
