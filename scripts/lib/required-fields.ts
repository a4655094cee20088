/**
 * The required/nullable rule of openapi/conventions.md checked against the seed inventory: every field the inventory
 * lists in a response record is a property of the record's schema, required unless the schema says why it may be
 * absent, and nullable where the inventory says it can be null.
 */
import { isReference, resolve } from '../../packages/server/src/openapi-model.ts';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { whyOptional } from '../spectral/response-required.js';
import { branches, resourceSchemas, type Aliases, type Schema } from './coverage.ts';

export interface InventoryField {
  name: string;
  nullable?: boolean;
}
export interface RecordInventory {
  resources: { name: string; fields: InventoryField[] }[];
}

/** One field that breaks the rule: `Job.coverage: not nullable`. */
export interface FieldViolation {
  field: string;
  problem: 'missing' | 'not required' | 'not nullable';
}

/** The marker of a record (or property) whose optional fields vary with the caller's permissions (openapi/extensions.md). */
export const VARIES_WITH_CALLER = 'x-varies-with-caller';

/** Every node reached from `schemas` only through a `then` or `else` branch: what it requires is conditional. */
function conditionalNodes(doc: OpenApiDocument, schemas: Schema[]): Set<Schema> {
  const out = new Set<Schema>();
  for (const schema of schemas)
    for (const node of branches(doc, schema))
      for (const key of ['then', 'else']) if (node[key]) for (const b of branches(doc, node[key])) out.add(b);
  return out;
}

/** The fields an `if` of one of the nodes tests: their presence is part of a condition. */
function testedFields(doc: OpenApiDocument, nodes: Schema[]): Set<string> {
  const out = new Set<string>();
  for (const node of nodes) {
    if (!node.if) continue;
    for (const b of branches(doc, node.if)) {
      for (const name of (b.required as string[] | undefined) ?? []) out.add(name);
      for (const name of Object.keys((b.properties as object | undefined) ?? {})) out.add(name);
    }
  }
  return out;
}

/** Whether a value of the schema may be `null` (an untyped schema may). */
export function acceptsNull(doc: OpenApiDocument, schema: unknown, seen = new Set<unknown>()): boolean {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return false;
  seen.add(schema);
  const node = (isReference(schema) ? resolve<Schema>(doc, schema) : schema) as Schema;
  if (node.const === null || (Array.isArray(node.enum) && node.enum.includes(null))) return true;
  if (node.type !== undefined) return node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null'));
  for (const key of ['oneOf', 'anyOf'] as const)
    if (Array.isArray(node[key])) return (node[key] as unknown[]).some((m) => acceptsNull(doc, m, seen));
  if (Array.isArray(node.allOf)) return (node.allOf as unknown[]).every((m) => acceptsNull(doc, m, seen));
  if (node.enum !== undefined || node.const !== undefined) return false;
  return !isReference(schema) || acceptsNull(doc, node, seen);
}

/** The rule's violations in the document, as `Resource.field: problem`, for every inventory record whose schema exists. */
export function requiredFieldViolations(
  doc: OpenApiDocument,
  inventory: RecordInventory,
  aliases: Aliases = {},
): FieldViolation[] {
  const violations: FieldViolation[] = [];
  for (const resource of inventory.resources) {
    const schemas = resourceSchemas(doc, resource.name, aliases);
    if (!schemas || schemas.length === 0 || resource.fields.length === 0) continue; // the coverage test reports absent records
    const conditional = conditionalNodes(doc, schemas);
    const nodes = [...new Set(schemas.flatMap((s) => branches(doc, s)))];
    const tested = testedFields(doc, nodes);
    const adminView = nodes.some((n) => n['x-admin-only'] === true);
    for (const field of resource.fields) {
      const holders = nodes.filter((n) => Object.hasOwn((n.properties as object | undefined) ?? {}, field.name));
      const id = `${resource.name}.${field.name}`;
      if (holders.length === 0) {
        violations.push({ field: id, problem: 'missing' });
        continue;
      }
      const properties = holders.map((n) => (n.properties as Record<string, unknown>)[field.name]);
      const required = nodes.some(
        (n) => !conditional.has(n) && ((n.required as string[] | undefined) ?? []).includes(field.name),
      );
      const excused =
        tested.has(field.name) ||
        nodes.some((n) => conditional.has(n) && ((n.required as string[] | undefined) ?? []).includes(field.name)) ||
        holders.some((n) => n[VARIES_WITH_CALLER] === true) ||
        properties.some(
          (p) =>
            whyOptional(isReference(p) ? { ...resolve<object>(doc, p), ...(p as object) } : p, adminView) !== undefined,
        );
      if (!required && !excused) violations.push({ field: id, problem: 'not required' });
      if (field.nullable === true && !properties.some((p) => acceptsNull(doc, p)))
        violations.push({ field: id, problem: 'not nullable' });
    }
  }
  return violations;
}
