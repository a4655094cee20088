/** The documented examples the bench sends and serves: the same bytes for every contender. */
import { readFileSync } from 'node:fs';
import { readDocument } from '@service-api/openapi';
import { PUBLISHED_JSON } from '../../lib/paths.ts';

type Dereferenced = {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { examples: Record<string, { value: unknown }> }> };
        responses: Record<string, { content?: Record<string, { examples?: Record<string, { value: unknown }> }> }>;
      }
    >
  >;
};

export const document = JSON.parse(readFileSync(PUBLISHED_JSON, 'utf8')) as {
  info: { version: string };
  components: { examples: Record<string, { value: unknown }>; schemas: Record<string, unknown> };
};
const dereferenced = readDocument({ dereferenced: true }) as unknown as Dereferenced;

function example(path: string, method: string, status: string, name?: string): unknown {
  const examples = dereferenced.paths[path]![method]!.responses[status]!.content!['application/json']!.examples!;
  return (name ? examples[name] : Object.values(examples)[0])!.value;
}

export const jobsList = example('/projects/{id}/jobs', 'get', '200');
export const mergeRequestList = example('/projects/{id}/merge_requests', 'get', '200', 'MergeRequestListFull');
export const mergeRequestCreated = example('/projects/{id}/merge_requests', 'post', '201');
export const createMergeRequestBody = Object.values(
  dereferenced.paths['/projects/{id}/merge_requests']!.post!.requestBody!.content['application/json']!.examples,
)[0]!.value;
/** The JSON Schema of the create body, as the document states it (for a plain Fastify route). */
export const createMergeRequestSchema = (
  dereferenced.paths['/projects/{id}/merge_requests']!.post!.requestBody!.content['application/json'] as unknown as {
    schema: unknown;
  }
).schema;
export const TOKEN = 'glpat-bench';

/** The branch of the documented create body, numbered: the source branch of the `n`th merge request the bench creates. */
export const benchBranch = (n: number | '[<n>]') =>
  `${(createMergeRequestBody as { source_branch: string }).source_branch}-${n}`;
/**
 * The documented create body with a source branch of its own in every request (the load generator numbers `[<n>]`):
 * the Service, and so the fake, answers 409 to a second open merge request for the same branches.
 */
const numberedMergeRequestBody = { ...(createMergeRequestBody as object), source_branch: benchBranch('[<n>]') };

/** The three requests of the HTTP sections, relative to the API root (`…/api/v4`). */
export const routes = [
  { name: 'GET jobs', method: 'GET', path: '/projects/42/jobs' },
  { name: 'GET merge requests ?state=opened', method: 'GET', path: '/projects/42/merge_requests?state=opened' },
  {
    name: 'POST merge request',
    method: 'POST',
    path: '/projects/42/merge_requests',
    body: JSON.stringify(numberedMergeRequestBody),
  },
] as const;
