/**
 * An answer against the contract: its status, its content type and relied-on headers (known as soon as the headers
 * arrive), then its JSON body against the generated response validators. Findings name paths and JSON types, never values.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import {
  essence,
  pointerValue,
  problemMessage,
  responseErrors,
  type ValidationError,
} from '@service-api/server/internal';
import { answerFor, documentsType, type DocumentedAnswer } from './contract.ts';
import type { Disagreement } from './report.ts';

export interface AnswerHead {
  method: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** Whether an answer carries a body: not for HEAD, 1xx, 204 and 304, nor a declared length of 0. */
export function carriesBody(head: AnswerHead): boolean {
  if (head.method === 'HEAD' || head.status < 200 || head.status === 204 || head.status === 304) return false;
  return head.headers['content-length'] !== '0';
}

/** What the head of an answer disagrees with, and the documented answer its body is checked against. */
export function checkHead(
  answers: Map<string, DocumentedAnswer>,
  head: AnswerHead,
): { found: Disagreement[]; answer?: DocumentedAnswer } {
  const answer = answerFor(answers, head.status);
  if (!answer) return { found: [{ kind: 'undocumented-status', detail: `status ${head.status}` }] };
  const found: Disagreement[] = [];
  for (const name of answer.headers)
    if (head.headers[name] === undefined)
      found.push({ kind: 'missing-header', detail: `${head.status} without ${name}` });
  // Allowed by the contract (on the hosted offering some pagination headers may be absent), but worth knowing.
  for (const name of answer.optional)
    if (head.headers[name] === undefined)
      found.push({ kind: 'absent-optional-header', detail: `${head.status} without ${name}` });
  const type = essence(head.headers['content-type'] as string | undefined);
  if (carriesBody(head) && type !== '' && !documentsType(answer, type))
    found.push({
      kind: 'undocumented-content-type',
      detail: `${head.status} as ${type}${answer.contentTypes.length ? ` (documented: ${answer.contentTypes.join(', ')})` : ' (no body documented)'}`,
    });
  return { found, answer };
}

/** Whether the body of this answer is one the proxy checks: JSON, documented as JSON. */
export function checksBody(head: AnswerHead, answer: DocumentedAnswer | undefined): boolean {
  if (!answer || !carriesBody(head)) return false;
  const type = essence(head.headers['content-type'] as string | undefined);
  return (
    (type === 'application/json' || type.endsWith('+json')) &&
    answer.contentTypes.some((t) => t === 'application/json' || t.endsWith('+json'))
  );
}

/** The JSON type of a value, as a report names it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const DECODERS: Record<string, (input: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/** The body as sent before its Content-Encoding, at most `max` bytes; a string says why it cannot be checked. */
export function decoded(bytes: Buffer, encoding: string | undefined, max: number): Buffer | string {
  const name = (encoding ?? 'identity').trim().toLowerCase();
  if (name === 'identity' || name === '') return bytes;
  const decode = DECODERS[name];
  if (!decode) return `body in ${name} encoding not checked`;
  try {
    return decode(bytes, { maxOutputLength: max });
  } catch {
    return 'body too large to check';
  }
}

/**
 * The findings of the last small body checked per operation and status: an answer byte for byte the same (a polled
 * list, a repeated read) has the same findings, and is not parsed again. Bounded: 64 entries of at most 64 KiB.
 */
export class BodyMemo {
  private readonly last = new Map<string, { bytes: Buffer; found: Disagreement[] }>();
  check(operationId: string, status: number, bytes: Buffer): Disagreement[] {
    if (bytes.length > 64 * 1024) return checkBody(operationId, status, bytes);
    const key = `${operationId} ${status}`;
    const seen = this.last.get(key);
    if (seen?.bytes.equals(bytes)) return seen.found;
    const found = checkBody(operationId, status, bytes);
    if (!seen && this.last.size >= 64) this.last.delete(this.last.keys().next().value!);
    this.last.set(key, { bytes: Buffer.from(bytes), found });
    return found;
  }
}

/** The disagreements of a JSON body with the operation's schema for this status (`bodyDisagreements`). */
export function checkBody(operationId: string, status: number, bytes: Buffer): Disagreement[] {
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    return [{ kind: 'body-schema', detail: `${status} body is not valid JSON` }];
  }
  let errors: ValidationError[];
  try {
    errors = responseErrors(operationId as never, status, body);
  } catch {
    return []; // a status documented only by range or `default` has no validator of its own
  }
  return bodyDisagreements(status, errors, body);
}

/**
 * Every distinct problem of a body, array items folded (the first item that has it stands for the others): one
 * finding per object path that misses required fields, naming them all (`200 /0 missing: name, stage`), and one per
 * other problem and place with the JSON type found (`200 /0/id must be integer (got string)`). Never a value.
 */
export function bodyDisagreements(status: number, errors: ValidationError[], body: unknown): Disagreement[] {
  const missing = new Map<string, { at: string; names: Set<string> }>();
  const others = new Map<string, Disagreement>();
  for (const error of errors) {
    const folded = error.instancePath.replace(/\/\d+(?=\/|$)/g, '/*');
    const name = error.keyword === 'required' ? error.params?.missingProperty : undefined;
    if (typeof name === 'string') {
      const group = missing.get(folded) ?? { at: error.instancePath, names: new Set<string>() };
      missing.set(folded, group.names.add(name) && group);
      continue;
    }
    const message = problemMessage(error);
    const got = jsonType(pointerValue(body, error.instancePath));
    const key = `${folded} ${message} ${got}`;
    if (!others.has(key))
      others.set(key, {
        kind: 'body-schema',
        detail: `${status} ${error.instancePath || '(root)'} ${message} (got ${got})`,
      });
  }
  const grouped = [...missing.values()].map(
    ({ at, names }): Disagreement => ({
      kind: 'body-schema',
      detail: `${status} ${at || '(root)'} missing: ${[...names].join(', ')}`,
    }),
  );
  return [...grouped, ...others.values()];
}
