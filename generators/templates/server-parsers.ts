/**
 * The body parsers of the server: JSON, forms and multipart, bounded and prototype-safe. An empty body is no body,
 * whatever its media type, as in the Service. generators/server.ts copies this file into the package as
 * `src/server-parsers.ts`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bytes, exceedsValues, formFields, InputError, parseForm } from './server-input.js';

type Done = (error: Error | null, value?: unknown) => void;

export interface ParserLimits {
  bodyFields: number;
  jsonValues: number;
}

/** The message of a multipart file above its documented maximum, as the API words it. */
export function tooBig(field: string, max: number): InputError {
  return new InputError(400, `${field} is too big (should be at most ${bytes(max)})`, field, 'body');
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
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  const json = (request: FastifyRequest, body: string, done: Done) => {
    if (body === '') return done(null, undefined);
    parseJson(request, body, (error: Error | null, value?: unknown) => {
      if (error) return done(error);
      if (exceedsValues(value, limits.jsonValues))
        return done(new InputError(400, `the JSON body holds more than ${limits.jsonValues} values`, '', 'body'));
      done(null, value);
    });
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
    body.length === 0 ? Promise.resolve(undefined) : parseMultipart(request, body, limits.bodyFields, filesOf(request)),
  );
  // Reached only by an empty body (admission refuses any other with 415 before reading it).
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request: FastifyRequest, body: Buffer, done: Done) => {
    if (body.length === 0) return done(null, undefined);
    done(new InputError(415, 'the operation does not read this media type', '', 'body'));
  });
}

async function parseMultipart(
  request: FastifyRequest,
  body: Buffer,
  maxFields: number,
  files: Record<string, number | null> = {},
): Promise<Record<string, unknown>> {
  const contentType = String(request.headers['content-type']);
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
