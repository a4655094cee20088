/**
 * The documented response examples of the published document, by operation and status: what a generated schema of
 * that response must accept. Read from the dereferenced document @service-api/openapi publishes (its `$ref`s resolved).
 */
import { readDocument } from '@service-api/openapi';
import { HTTP_METHODS } from '../../../packages/server/src/openapi-model.ts';

export interface ResponseExample {
  operationId: string;
  method: string;
  path: string;
  status: string;
  /** The example's name (`ProjectJobs`), or `example` for a lone `example`. */
  name: string;
  value: unknown;
}

interface Operation {
  operationId?: string;
  responses?: Record<
    string,
    { content?: Record<string, { example?: unknown; examples?: Record<string, { value?: unknown }> }> }
  >;
}

/** Every JSON response example of every operation. */
export function responseExamples(): ResponseExample[] {
  const document = readDocument({ dereferenced: true }) as { paths: Record<string, Record<string, Operation>> };
  const found: ResponseExample[] = [];
  for (const [path, item] of Object.entries(document.paths))
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation?.operationId) continue;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const content = response.content?.['application/json'];
        if (!content) continue;
        const base = { operationId: operation.operationId, method, path, status };
        if (content.example !== undefined) found.push({ ...base, name: 'example', value: content.example });
        for (const [name, example] of Object.entries(content.examples ?? {}))
          if (example.value !== undefined) found.push({ ...base, name, value: example.value });
      }
    }
  return found;
}

/** The success (2xx) examples. */
export const successExamples = () => responseExamples().filter((example) => example.status.startsWith('2'));

/** `jobs/list-project-jobs` → `JobsListProjectJobs`, the name the generators derive from an operationId. */
export const pascalCase = (operationId: string) =>
  operationId
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

export const camelCase = (operationId: string) => {
  const pascal = pascalCase(operationId);
  return pascal[0]!.toLowerCase() + pascal.slice(1);
};

/** The check every generated zod schema faces: which examples it refuses, with zod's first issues. */
export function refusedExamples(
  examples: ResponseExample[],
  schemaOf: (
    example: ResponseExample,
  ) => { safeParse(value: unknown): { success: boolean; error?: unknown } } | undefined,
): { checked: number; refused: string[] } {
  let checked = 0;
  const refused: string[] = [];
  for (const example of examples) {
    const schema = schemaOf(example);
    if (!schema) continue;
    checked++;
    let parsed: { success: boolean; error?: unknown };
    try {
      parsed = schema.safeParse(example.value);
    } catch (error) {
      // zod throws instead of answering for some schemas (an intersection whose sides transform a value differently).
      refused.push(`${example.operationId} ${example.status} ${example.name}: zod threw ${String(error)}`);
      continue;
    }
    if (!parsed.success)
      refused.push(
        `${example.operationId} ${example.status} ${example.name}: ${JSON.stringify((parsed.error as { issues?: unknown[] })?.issues?.slice(0, 2) ?? parsed.error).slice(0, 400)}`,
      );
  }
  return { checked, refused };
}
