import { isReference, resolve } from '../../packages/server/src/openapi-model.ts';
import { listOperations } from '../../generators/lib/document.ts';
import type { JsonSchema, OpenApiDocument } from '../../generators/lib/openapi.ts';

export interface InventoryParameter {
  name: string;
  in: string;
}
export interface InventoryOperation {
  part: number;
  section: string;
  method: string;
  path: string;
  parameters: InventoryParameter[];
}
export interface InventoryResource {
  name: string;
  part: number;
  section: string;
  fields: { name: string }[];
}
export interface Inventory {
  operations: InventoryOperation[];
  resources: InventoryResource[];
}

/** Documented choices where the spec names an inventory item differently (each with its reason). */
export interface Aliases {
  /** By inventory resource name (`Job`, or a nested label such as `MergeRequest.user`): the schema or dotted path that holds it. */
  resources?: Record<string, { schema: string; reason: string }>;
  /** By `METHOD /path`, then inventory name: the spec's name, or no name where the seed gives none (`reason` says how it is described). */
  parameters?: Record<string, Record<string, { name?: string; names?: string[]; reason: string }>>;
}

export interface SectionCoverage {
  part: number;
  section: string;
  operations: { covered: number; total: number };
  parameters: { covered: number; total: number };
  fields: { covered: number; total: number };
  missing: string[];
  /** Items counted through a documented alias, with the reason. */
  choices: string[];
}

export type Schema = JsonSchema & { $ref?: string };

/** The schemas a value can take: follows `$ref` and composition (allOf, anyOf, oneOf, if/then/else). */
export function branches(doc: OpenApiDocument, schema: unknown, seen = new Set<unknown>()): Schema[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  const node = (isReference(schema) ? resolve<Schema>(doc, schema) : schema) as Schema;
  const out: Schema[] = [node];
  for (const key of ['allOf', 'anyOf', 'oneOf'])
    for (const part of (node[key] as unknown[]) ?? []) out.push(...branches(doc, part, seen));
  for (const key of ['then', 'else']) if (node[key]) out.push(...branches(doc, node[key], seen));
  return out;
}

/** Schemas reached by one step into a field: `name`, `<placeholder>` (map values) or through array items. */
function step(doc: OpenApiDocument, schemas: Schema[], field: string): Schema[] {
  const out: Schema[] = [];
  for (const schema of schemas) {
    for (const branch of branches(doc, schema)) {
      const target = /^<.+>$/.test(field)
        ? [branch.additionalProperties, ...Object.values((branch.patternProperties as object) ?? {})]
        : [(branch.properties as Record<string, unknown> | undefined)?.[field]];
      for (const t of target) if (t && typeof t === 'object') out.push(...withItems(doc, t));
    }
  }
  return out;
}

function withItems(doc: OpenApiDocument, schema: unknown): Schema[] {
  return branches(doc, schema).flatMap((b) => (b.items ? [b, ...branches(doc, b.items)] : [b]));
}

/** Whether a name is a property of one of the schemas (a `<placeholder>` name matches by patternProperties). */
function hasProperty(doc: OpenApiDocument, schemas: Schema[], name: string): boolean {
  const sample = name.replace(/<[^>]+>/g, 'acme').replace(/ /g, '_');
  return schemas.some((schema) =>
    branches(doc, schema).some(
      (b) =>
        Object.hasOwn((b.properties as object) ?? {}, name) ||
        Object.keys((b.patternProperties as object) ?? {}).some(
          (pattern) => name.includes('<') && new RegExp(pattern).test(sample),
        ),
    ),
  );
}

/** The schemas that hold an inventory resource (`Job`, `MergeRequest.user`), through the aliases; undefined when its schema is absent. */
export function resourceSchemas(doc: OpenApiDocument, resource: string, aliases: Aliases): Schema[] | undefined {
  const [inventoryRoot, ...inventoryPath] = resource.split('.');
  const target =
    aliases.resources?.[resource]?.schema ??
    [aliases.resources?.[inventoryRoot!]?.schema ?? inventoryRoot, ...inventoryPath].join('.');
  const [name = '', ...path] = target.split('.');
  const schema = (doc.components?.schemas as Record<string, Schema> | undefined)?.[name];
  if (!schema) return undefined;
  return path.reduce<Schema[]>((schemas, field) => step(doc, schemas, field), withItems(doc, schema));
}

/** Compares the document with the seed inventory, section by section. */
export function computeCoverage(doc: OpenApiDocument, inventory: Inventory, aliases: Aliases = {}): SectionCoverage[] {
  const sections = new Map<string, SectionCoverage>();
  const sectionOf = (part: number, section: string) => {
    const key = `${part}:${section}`;
    if (!sections.has(key))
      sections.set(key, {
        part,
        section,
        operations: { covered: 0, total: 0 },
        parameters: { covered: 0, total: 0 },
        fields: { covered: 0, total: 0 },
        missing: [],
        choices: [],
      });
    return sections.get(key)!;
  };
  const operations = new Map(listOperations(doc).map((e) => [`${e.method.toUpperCase()} ${e.path}`, e]));
  const schemes = (doc.components?.securitySchemes ?? {}) as Record<string, { in?: string; name?: string }>;

  for (const op of inventory.operations) {
    const key = `${op.method} ${op.path}`;
    const cov = sectionOf(op.part, op.section);
    cov.operations.total += 1;
    cov.parameters.total += op.parameters.length;
    const entry = operations.get(key);
    if (!entry) {
      cov.missing.push(`operation ${key} (and its ${op.parameters.length} parameters)`);
      continue;
    }
    cov.operations.covered += 1;
    const bodies = Object.values(
      resolve<{ content?: Record<string, { schema?: unknown }> }>(doc, entry.operation.requestBody ?? {}).content ?? {},
    )
      .map((media) => media.schema)
      .filter(Boolean)
      .flatMap((s) => withItems(doc, s));
    const securityHeaders = new Set(
      entry.security
        .flatMap((req) => Object.keys(req))
        .filter((id) => schemes[id]?.in === 'header')
        .map((id) => schemes[id]!.name!.toLowerCase()),
    );
    for (const parameter of op.parameters) {
      const alias = aliases.parameters?.[key]?.[parameter.name];
      if (alias) cov.choices.push(`parameter ${parameter.name} of ${key}: ${alias.reason}`);
      if (alias && alias.name === undefined && alias.names === undefined) {
        cov.parameters.covered += 1;
        continue;
      }
      const names = alias?.names ?? [alias?.name ?? parameter.name];
      const found = names.every(
        (name) =>
          entry.parameters.some((p) => p.name === name) ||
          hasProperty(doc, bodies, name) ||
          (parameter.in === 'header' && securityHeaders.has(name.toLowerCase())),
      );
      if (found) cov.parameters.covered += 1;
      else cov.missing.push(`parameter ${parameter.name} (${parameter.in}) of ${key}`);
    }
  }

  for (const resource of inventory.resources) {
    const cov = sectionOf(resource.part, resource.section);
    cov.fields.total += resource.fields.length;
    const alias =
      aliases.resources?.[resource.name] ??
      (resource.name.includes('.') ? undefined : aliases.resources?.[resource.name]);
    if (alias) cov.choices.push(`resource ${resource.name} is schema ${alias.schema}: ${alias.reason}`);
    const schemas = resourceSchemas(doc, resource.name, aliases);
    if (!schemas || schemas.length === 0) {
      if (resource.fields.length > 0 || !schemas)
        cov.missing.push(`resource ${resource.name} (${resource.fields.length} fields)`);
      continue;
    }
    for (const field of resource.fields) {
      if (hasProperty(doc, schemas, field.name)) cov.fields.covered += 1;
      else cov.missing.push(`field ${resource.name}.${field.name}`);
    }
  }

  return [...sections.values()].sort((a, b) => a.part - b.part || compareSections(a.section, b.section));
}

function compareSections(a: string, b: string): number {
  const [a1 = 0, a2 = 0] = a.split('.').map(Number);
  const [b1 = 0, b2 = 0] = b.split('.').map(Number);
  return a1 - b1 || a2 - b2;
}
