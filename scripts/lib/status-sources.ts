/**
 * Every status an operation documents has a source: the general status table (a status with its general meaning),
 * or a sentence of the API's reference about that operation, quoted in test/fixtures/status-sources.yaml.
 */
import { isReference } from '../../packages/server/src/openapi-model.ts';
import { listOperations } from '../../generators/lib/document.ts';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';

export interface StatusSources {
  /** Status → its general meaning, as the general status table words it. */
  general: Record<string, string>;
  /** operationId → status → the sentence that states it for that operation, quoted. */
  operations: Record<string, Record<string, string>>;
  /**
   * Where the API's reference is silent on a status: operationId → status → the reference's words saying so
   * (`silent`, quoted and checked like the others) and what the Service's own source does (`service`).
   */
  service?: Record<string, Record<string, { silent: string; service: string }>>;
}

/** A documented status that needs a source of its own: why it needs one. */
export interface StatusNeed {
  operationId: string;
  status: string;
  reason:
    | 'not in the general table'
    | 'not the general status of its method'
    | 'its response states a cause'
    | 'the operation states a cause';
}

const isSuccess = (status: string) => /^2\d\d$/.test(status);

/** The general table's success statuses by method: GET, PUT or DELETE 200, POST 201, DELETE 204, any method 202. */
const GENERAL_SUCCESS: Record<string, string[]> = {
  '200': ['get', 'head', 'put', 'delete'],
  '201': ['post'],
  '204': ['delete'],
};
const isGeneralSuccess = (status: string, method: string) =>
  status === '202' || (GENERAL_SUCCESS[status]?.includes(method) ?? false);

/**
 * The statuses that need an operation-specific source: one outside the general table, and an error status whose
 * response is the operation's own (not a shared general response) or that the operation's description names.
 */
export function statusesNeedingSources(doc: OpenApiDocument, general: Record<string, string>): StatusNeed[] {
  const needs: StatusNeed[] = [];
  for (const entry of listOperations(doc)) {
    const description = `${entry.operation.summary ?? ''} ${entry.operation.description ?? ''}`;
    for (const [status, response] of Object.entries(entry.operation.responses ?? {})) {
      const need = (reason: StatusNeed['reason']) => needs.push({ operationId: entry.operationId, status, reason });
      if (!Object.hasOwn(general, status)) need('not in the general table');
      else if (isSuccess(status)) {
        if (!isGeneralSuccess(status, entry.method)) need('not the general status of its method');
      } else if (!isReference(response)) need('its response states a cause');
      else if (new RegExp(`(^|[^\\d.])${status}(?!\\d)`).test(description)) need('the operation states a cause');
    }
  }
  return needs;
}

/** Whitespace runs become one space, and Markdown table bars are separators: quotes match the text as read. */
export function normalise(text: string): string {
  return text
    .replace(/\s*\|\s*/g, ' | ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The problems of a sources file against the document and (when given) the seed texts. */
export function sourceProblems(doc: OpenApiDocument, sources: StatusSources, seeds?: string[]): string[] {
  const problems: string[] = [];
  const documented = new Map(
    listOperations(doc).map((e) => [e.operationId, new Set(Object.keys(e.operation.responses ?? {}))]),
  );
  for (const [operationId, statuses] of [
    ...Object.entries(sources.operations),
    ...Object.entries(sources.service ?? {}),
  ]) {
    for (const status of Object.keys(statuses)) {
      if (!documented.get(operationId)?.has(status))
        problems.push(`${operationId} ${status}: a source for a status the operation does not document`);
    }
  }
  if (seeds) {
    const text = normalise(seeds.join('\n'));
    const quotes = [
      ...Object.entries(sources.general).map(([status, quote]) => [`general ${status}`, quote] as const),
      ...Object.entries(sources.operations).flatMap(([operationId, statuses]) =>
        Object.entries(statuses).map(([status, quote]) => [`${operationId} ${status}`, quote] as const),
      ),
      ...Object.entries(sources.service ?? {}).flatMap(([operationId, statuses]) =>
        Object.entries(statuses).map(([status, { silent }]) => [`${operationId} ${status}`, silent] as const),
      ),
    ];
    for (const [where, quote] of quotes)
      if (!text.includes(normalise(quote)))
        problems.push(`${where}: the quoted sentence does not occur in the seeds: ${quote}`);
  }
  return problems;
}
