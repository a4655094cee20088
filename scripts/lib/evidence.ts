/**
 * Evidence for every required and every non-null response field (openapi/conventions.md, "Evidence"): each claim a
 * response record makes is backed by a seed sentence, the Service's source or a stated rule, read from
 * `openapi/evidence.yaml`. `docs/evidence.md` is the table this module writes; `test/evidence.test.ts` fails on a
 * claim without evidence and on a stale table.
 */
import { componentName, isReference, resolve } from '../../packages/server/src/openapi-model.ts';
import { listOperations } from '../../generators/lib/document.ts';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { acceptsNull } from './required-fields.ts';
import { branches, resourceSchemas, type Aliases, type Schema } from './coverage.ts';

/** The evidence of one field: a seed quote (string), or the sources of each claim. */
export type FieldEvidence =
  | string
  | { seed?: string; type?: string; required?: string; nonNull?: string; conditional?: string };

/** The evidence of one record: the seed section it is listed in, the Service's entity, and each field's evidence. */
export interface RecordEvidence {
  seed?: string;
  service?: string;
  /** Another record whose evidence holds for this one too (a view of the same Service entity). */
  as?: string;
  fields?: Record<string, FieldEvidence>;
}

/** `openapi/evidence.yaml`: records by seed-inventory name (`Job.commit`) or by response record name. */
export interface EvidenceSource {
  /** Stated rules a field may cite by name (`rule: identity`), each with the conventions' words. */
  rules: Record<string, { statement: string; fields?: string[]; types?: string[] }>;
  records: Record<string, RecordEvidence>;
}

/** One property of a response record and its claims. */
export interface FieldClaim {
  record: string;
  field: string;
  required: boolean;
  nonNull: boolean;
  whyRequired?: string;
  whyNonNull?: string;
  /** The Service's source that exposes the field only under a condition (then it cannot be required). */
  conditional?: string;
}

/** A response record: an object schema reached from a 2xx JSON body, named by its component or its path. */
interface RecordNode {
  name: string;
  node: Schema;
  /** Reached through a `then` or `else`: what it requires, it requires under the rule's condition. */
  underRule: boolean;
}

function properties(node: Schema): Record<string, unknown> {
  return (node.properties as Record<string, unknown> | undefined) ?? {};
}

function schemaName(doc: OpenApiDocument, ref: string): string | undefined {
  return doc.components?.schemas ? componentName(ref) : undefined;
}

/** Every object schema a 2xx JSON response body can hold, each named once (component name, or parent.field). */
export function responseRecords(doc: OpenApiDocument): RecordNode[] {
  const found = new Map<Schema, { name: string; underRule: boolean }>();
  const visit = (schema: unknown, name: string, underRule = false): void => {
    if (!schema || typeof schema !== 'object') return;
    const own = isReference(schema) ? (schemaName(doc, (schema as { $ref: string }).$ref) ?? name) : name;
    const node = (isReference(schema) ? resolve<Schema>(doc, schema) : schema) as Schema;
    if (found.has(node)) return;
    if (node.properties || node.required) found.set(node, { name: own, underRule });
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const)
      for (const part of (node[key] as unknown[] | undefined) ?? []) visit(part, own, underRule);
    for (const key of ['then', 'else'] as const) visit(node[key], own, true);
    for (const key of ['items', 'additionalProperties'] as const) visit(node[key], own);
    for (const [field, value] of Object.entries(properties(node))) visit(value, `${own}.${field}`);
  };
  for (const { operation } of listOperations(doc))
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (!/^2/.test(status)) continue;
      const content = resolve<{ content?: Record<string, { schema?: unknown }> }>(doc, response).content ?? {};
      for (const [type, media] of Object.entries(content))
        if (/json/.test(type)) visit(media.schema, `${operation.operationId} ${status}`);
    }
  return [...found].map(([node, { name, underRule }]) => ({ node, name, underRule }));
}

/** The evidence records (inventory names, through their schemas) that describe a node. */
function evidenceFor(doc: OpenApiDocument, source: EvidenceSource, aliases: Aliases): Map<Schema, RecordEvidence[]> {
  const out = new Map<Schema, RecordEvidence[]>();
  for (const [name, record] of Object.entries(source.records)) {
    const schemas = resourceSchemas(doc, name, aliases) ?? [];
    for (const node of new Set(schemas.flatMap((s) => branches(doc, s))))
      out.set(node, [...(out.get(node) ?? []), record]);
  }
  return out;
}

function seedQuote(evidence: FieldEvidence | undefined): string | undefined {
  return typeof evidence === 'string' ? evidence : evidence?.seed;
}

/** Why the field is required, or undefined when nothing says so. */
function whyRequired(records: RecordEvidence[], field: string): string | undefined {
  for (const record of records) {
    const evidence = record.fields?.[field];
    if (typeof evidence === 'object' && evidence.required) return evidence.required;
    const quote = seedQuote(evidence);
    if (quote !== undefined) return `listed in ${record.seed ?? 'the seed'}: “${quote}”`;
  }
  return undefined;
}

/** Why the field is never null, or undefined when nothing says so. */
function whyNonNull(
  source: EvidenceSource,
  records: RecordEvidence[],
  field: string,
  type: string | undefined,
): string | undefined {
  for (const record of records) {
    const evidence = record.fields?.[field];
    if (typeof evidence === 'object' && evidence.nonNull) return evidence.nonNull;
    if (typeof evidence === 'object' && evidence.type)
      return `typed ${evidence.type} in ${record.seed ?? 'the seed'}: “${evidence.seed}”`;
  }
  for (const [name, rule] of Object.entries(source.rules))
    if (rule.fields?.includes(field) || (type !== undefined && rule.types?.includes(type)))
      return `rule “${name}”: ${rule.statement}`;
  return undefined;
}

/** The single type of a schema (through a `$ref`), or undefined. */
function schemaType(doc: OpenApiDocument, schema: unknown): string | undefined {
  const node = (isReference(schema) ? resolve<Schema>(doc, schema) : schema) as Schema;
  return typeof node?.type === 'string' ? node.type : undefined;
}

/** Every property of every response record with its claims and the evidence found for each. */
export function fieldClaims(doc: OpenApiDocument, source: EvidenceSource, aliases: Aliases = {}): FieldClaim[] {
  const byNode = evidenceFor(doc, source, aliases);
  const claims: FieldClaim[] = [];
  for (const { name, node, underRule } of responseRecords(doc)) {
    const own = source.records[name];
    const records = [
      ...(own ? [own] : []),
      ...(byNode.get(node) ?? []),
      ...(own?.as && source.records[own.as] ? [source.records[own.as]!] : []),
    ];
    const required = new Set((node.required as string[] | undefined) ?? []);
    for (const [field, schema] of Object.entries(properties(node))) {
      const target = isReference(schema) ? { ...resolve<object>(doc, schema), ...(schema as object) } : schema;
      if ((target as Schema).not !== undefined && Object.keys(target as object).length <= 2) continue; // never sent
      const claim: FieldClaim = {
        record: name,
        field,
        required: required.has(field),
        nonNull: !acceptsNull(doc, schema),
      };
      const conditional = records
        .map((r) => r.fields?.[field])
        .find((e): e is { conditional: string } => typeof e === 'object' && e.conditional !== undefined);
      if (conditional && !underRule) claim.conditional = conditional.conditional;
      if (claim.required) claim.whyRequired = whyRequired(records, field);
      if (claim.nonNull) claim.whyNonNull = whyNonNull(source, records, field, schemaType(doc, schema));
      claims.push(claim);
    }
  }
  return claims.sort((a, b) => a.record.localeCompare(b.record) || a.field.localeCompare(b.field));
}

/** The claims without evidence: `Job.duration: non-null`. */
export function unsupportedClaims(claims: FieldClaim[]): string[] {
  return claims.flatMap((c) => [
    ...(c.required && !c.whyRequired ? [`${c.record}.${c.field}: required`] : []),
    ...(c.required && c.conditional
      ? [`${c.record}.${c.field}: required, but the Service sends it only conditionally`]
      : []),
    ...(c.nonNull && !c.whyNonNull ? [`${c.record}.${c.field}: non-null`] : []),
  ]);
}
