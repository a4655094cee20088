/**
 * `@service-api/openapi/fixtures`: the documented examples as typed fixtures. Each is typed as the body its operation
 * documents for its status, or as its component schema (`@service-api/types`), and only a documented example name
 * compiles. Every call returns a fresh copy, so a test may change its fixture.
 */
import type { components, operations, ResponseBody } from '@service-api/types';
import type { ResponseExampleNames, SchemaExampleNames } from './example-names.js';
import { responseExample, responseExamples, schemaExamples } from './index.js';

export type { ResponseExampleNames, SchemaExampleNames };
/** The operations with documented response examples. */
export type FixtureOperation = keyof ResponseExampleNames & keyof operations;
/** The statuses for which the operation documents examples. */
export type FixtureStatus<K extends FixtureOperation> = keyof ResponseExampleNames[K] &
  keyof operations[K]['responses'];
/** The names of the examples the operation documents for the status. */
export type FixtureName<K extends FixtureOperation, S extends FixtureStatus<K>> = ResponseExampleNames[K][S] & string;
/** The component schemas with documented examples. */
export type FixtureSchema = keyof SchemaExampleNames & keyof components['schemas'];

/** One documented response example, typed as the operation's body for the status: `Job` for `jobs/get-project-job` 200. */
export function responseFixture<K extends FixtureOperation, S extends FixtureStatus<K>>(
  operationId: K,
  status: S,
  name: FixtureName<K, S>,
): ResponseBody<K, S> {
  return structuredClone(responseExample(operationId, status as number, name)) as ResponseBody<K, S>;
}

/** Every documented example of the operation's response for the status, by example name. */
export function responseFixtures<K extends FixtureOperation, S extends FixtureStatus<K>>(
  operationId: K,
  status: S,
): Record<FixtureName<K, S>, ResponseBody<K, S>> {
  const byName = responseExamples()[operationId]?.[String(status)];
  if (!byName) throw new Error(`${operationId} documents no examples for ${String(status)}`);
  return structuredClone(byName) as Record<FixtureName<K, S>, ResponseBody<K, S>>;
}

/** One documented example of a component schema (from the responses whose schema is that component). */
export function schemaFixture<N extends FixtureSchema>(
  schema: N,
  name: SchemaExampleNames[N] & string,
): components['schemas'][N] {
  const byName = schemaExamples()[schema];
  if (!byName) throw new Error(`No documented examples of the schema "${schema}"`);
  if (!(name in byName)) throw new Error(`${schema} has the examples ${Object.keys(byName).join(', ')}, not "${name}"`);
  return structuredClone(byName[name]) as components['schemas'][N];
}
