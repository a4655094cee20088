/**
 * What the contract says an answer looks like, per operation and status: its documented content types and the headers
 * a client relies on (`Link`, `X-Total`, `Location`, and any header marked required). Read from the published
 * `openapi.json`, shipped inside the package (copied there by the build; from the sources, the one
 * `npm run build` publishes).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { HTTP_METHODS, resolve } from '@service-api/server/internal';

export const documentPath = fileURLToPath(
  import.meta.url.endsWith('.ts')
    ? new URL('../../../generated/openapi/openapi.json', import.meta.url)
    : new URL('../openapi.json', import.meta.url),
);

/** One documented answer of an operation. */
export interface DocumentedAnswer {
  /** Documented media types, lower case (`*\/*` and `type/*` match by prefix). */
  contentTypes: string[];
  /** Headers the answer must carry (documented as required), lower case. */
  headers: string[];
  /** Headers documented as optional that clients rely on (`Link`, `X-Total`), lower case: their absence is reported apart. */
  optional: string[];
}

/** Documented answers by status key (`200`, `4XX`, `default`), per operation id. */
export type AnswersByOperation = Map<string, Map<string, DocumentedAnswer>>;

/** Headers documented as optional that clients nevertheless rely on where they are documented (`Location` is required). */
const RELIED_ON = new Set(['link', 'x-total', 'location']);

interface HeaderObject {
  required?: boolean;
}
interface ResponseObject {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, unknown>;
}
interface Document {
  paths: Record<string, Partial<Record<string, { operationId?: string; responses?: Record<string, ResponseObject> }>>>;
  components?: { responses?: Record<string, ResponseObject>; headers?: Record<string, HeaderObject> };
}

export function documentedAnswers(document: Document): AnswersByOperation {
  const out: AnswersByOperation = new Map();
  for (const item of Object.values(document.paths)) {
    for (const operation of HTTP_METHODS.map((method) => item[method])) {
      if (!operation?.operationId || !operation.responses) continue;
      const answers = new Map<string, DocumentedAnswer>();
      for (const [status, raw] of Object.entries(operation.responses)) {
        const response = resolve<ResponseObject>(document, raw);
        const documented = Object.entries(response.headers ?? {}).map(
          ([name, header]) => [name.toLowerCase(), resolve<HeaderObject>(document, header).required === true] as const,
        );
        const headers = documented.filter(([, required]) => required).map(([name]) => name);
        const optional = documented
          .filter(([name, required]) => !required && RELIED_ON.has(name))
          .map(([name]) => name);
        answers.set(status.toUpperCase(), {
          contentTypes: Object.keys(response.content ?? {}).map((type) => type.toLowerCase()),
          headers,
          optional,
        });
      }
      out.set(operation.operationId, answers);
    }
  }
  return out;
}

export async function loadAnswers(path = documentPath): Promise<AnswersByOperation> {
  const text = await readFile(path, 'utf8').catch(() => {
    throw new Error(`${path} is missing${import.meta.url.endsWith('.ts') ? ': run `npm run build` first' : ''}`);
  });
  return documentedAnswers(JSON.parse(text) as Document);
}

/** The documented answer a status falls under: its own, its range (`4XX`), or `default`. */
export function answerFor(answers: Map<string, DocumentedAnswer>, status: number): DocumentedAnswer | undefined {
  return answers.get(String(status)) ?? answers.get(`${String(status)[0]}XX`) ?? answers.get('DEFAULT');
}

/** Whether a media type (essence, lower case) is one of the documented ones. */
export function documentsType(answer: DocumentedAnswer, type: string): boolean {
  return answer.contentTypes.some(
    (documented) =>
      documented === type ||
      documented === '*/*' ||
      (documented.endsWith('/*') && type.startsWith(documented.slice(0, -1))),
  );
}
