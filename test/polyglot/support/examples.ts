/**
 * The documented success examples of the published document whose response schema is a component (or an array of
 * one): what each generated client's model of that component must parse. The drivers read them from a JSON file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../../scripts/lib/paths.ts';
import {
  componentName,
  HTTP_METHODS,
  isReference,
  resolve as resolveReference,
} from '../../../packages/server/src/openapi-model.ts';
import { PUBLISHED } from './generators.ts';

export interface ModelExample {
  operationId: string;
  status: string;
  name: string;
  /** The component the response is (`Job`), or the items' component when `array`. */
  model: string;
  array: boolean;
  value: unknown;
}

type Node = Record<string, unknown>;

const resolve = (document: Node, node: unknown): Node | undefined =>
  node === undefined ? undefined : resolveReference<Node>(document, node as Node);

const componentOf = (schema: Node | undefined) => (isReference(schema) ? componentName(schema.$ref) : undefined);

/** Every documented 2xx JSON example whose schema is a component or an array of one. */
export function modelExamples(rendition: '3.1' | '3.0' = '3.1'): ModelExample[] {
  const document = JSON.parse(readFileSync(join(ROOT, PUBLISHED[rendition]), 'utf8')) as Node;
  const found: ModelExample[] = [];
  for (const item of Object.values(document.paths as Record<string, Node>))
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Node | undefined;
      if (!operation?.operationId) continue;
      for (const [status, reference] of Object.entries((operation.responses ?? {}) as Node)) {
        if (!status.startsWith('2')) continue;
        const content = (resolve(document, reference)?.content as Node | undefined)?.['application/json'] as
          | Node
          | undefined;
        const schema = content?.schema as Node | undefined;
        const items = schema?.type === 'array' ? (schema.items as Node) : undefined;
        const model = componentOf(items ?? schema);
        if (!content || !model) continue;
        const base = { operationId: operation.operationId as string, status, model, array: items !== undefined };
        if (content.example !== undefined) found.push({ ...base, name: 'example', value: content.example });
        for (const [name, example] of Object.entries((content.examples ?? {}) as Node)) {
          const value = resolve(document, example)?.value;
          if (value !== undefined) found.push({ ...base, name, value });
        }
      }
    }
  return found;
}

/** The required properties of a component, its `allOf` members' included. */
function requiredOf(document: Node, schema: unknown): string[] {
  const resolved = resolve(document, schema);
  if (!resolved) return [];
  const own = Array.isArray(resolved.required) ? (resolved.required as string[]) : [];
  const members = Array.isArray(resolved.allOf) ? (resolved.allOf as unknown[]) : [];
  return [...new Set([...own, ...members.flatMap((member) => requiredOf(document, member))])];
}

/** Whether a schema admits null: 3.0 `nullable`, a `null` type, a reference to such a schema or a union with one. */
function admitsNull(document: Node, schema: unknown, depth = 0): boolean {
  const node = resolve(document, schema);
  if (!node || depth > 8) return false;
  if (node.nullable === true || node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null')))
    return true;
  return ['anyOf', 'oneOf'].some((key) =>
    ((node[key] ?? []) as unknown[]).some((member) => admitsNull(document, member, depth + 1)),
  );
}

/** The properties of a component, its `allOf` members' included. */
function propertiesOf(document: Node, schema: unknown): Node {
  const resolved = resolve(document, schema);
  if (!resolved) return {};
  const members = Array.isArray(resolved.allOf) ? (resolved.allOf as unknown[]) : [];
  return Object.assign({}, ...members.map((member) => propertiesOf(document, member)), resolved.properties ?? {});
}

/** The properties of a component that admit null. */
const nullableOf = (document: Node, schema: unknown): string[] =>
  Object.entries(propertiesOf(document, schema))
    .filter(([, property]) => admitsNull(document, property))
    .map(([name]) => name);

/** The component schemas the fidelity checks name. */
export const MODELS = { required: ['MergeRequest', 'Job'], enums: ['JobStatus', 'MergeRequestState'] } as const;

/** What a driver reads: the examples, and for the model checks the required and the nullable fields, the enums' values and one record of each. */
export function driverInput(rendition: '3.1' | '3.0') {
  const document = JSON.parse(readFileSync(join(ROOT, PUBLISHED[rendition]), 'utf8')) as Node;
  const schemas = (document.components as Node).schemas as Node;
  const examples = modelExamples(rendition);
  const sample = (model: string) => {
    const found = examples.find((example) => example.model === model);
    return found?.array ? (found.value as unknown[])[0] : found?.value;
  };
  return {
    examples,
    required: Object.fromEntries(MODELS.required.map((model) => [model, requiredOf(document, schemas[model])])),
    nullable: Object.fromEntries(MODELS.required.map((model) => [model, nullableOf(document, schemas[model])])),
    enums: Object.fromEntries(
      MODELS.enums.map((model) => [model, (resolve(document, schemas[model])?.enum ?? []) as unknown[]]),
    ),
    samples: Object.fromEntries(MODELS.required.map((model) => [model, sample(model)])),
  };
}

/** The document's operations (those with an operationId). */
export function countOperations(rendition: '3.1' | '3.0' = '3.0'): number {
  const document = JSON.parse(readFileSync(join(ROOT, PUBLISHED[rendition]), 'utf8')) as Node;
  return Object.values(document.paths as Record<string, Node>).reduce(
    (count, item) => count + HTTP_METHODS.filter((method) => (item[method] as Node | undefined)?.operationId).length,
    0,
  );
}
