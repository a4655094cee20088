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

/** The coverage of each section, made on first use. */
function sectionTable(): {
  sectionOf: (part: number, section: string) => SectionCoverage;
  sorted: () => SectionCoverage[];
} {
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
  const sorted = () => [...sections.values()].sort((a, b) => a.part - b.part || compareSections(a.section, b.section));
  return { sectionOf, sorted };
}

/** Compares the document with the seed inventory, section by section. */
export function computeCoverage(doc: OpenApiDocument, inventory: Inventory, aliases: Aliases = {}): SectionCoverage[] {
  const { sectionOf, sorted } = sectionTable();
  const operations = new Map(listOperations(doc).map((e) => [`${e.method.toUpperCase()} ${e.path}`, e]));
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
    coverParameters(doc, op, entry, aliases, cov);
  }
  for (const resource of inventory.resources)
    coverResource(doc, resource, aliases, sectionOf(resource.part, resource.section));
  return sorted();
}

type OperationEntry = ReturnType<typeof listOperations>[number];

/** Counts the inventory parameters of an operation that the document's operation has (a parameter, a body field or a credential header). */
function coverParameters(
  doc: OpenApiDocument,
  op: InventoryOperation,
  entry: OperationEntry,
  aliases: Aliases,
  cov: SectionCoverage,
): void {
  const key = `${op.method} ${op.path}`;
  const schemes = (doc.components?.securitySchemes ?? {}) as Record<string, { in?: string; name?: string }>;
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
        entry.parameters.some((p) => bare(p.name) === bare(name)) ||
        hasProperty(doc, bodies, name) ||
        (parameter.in === 'header' && securityHeaders.has(name.toLowerCase())),
    );
    if (found) cov.parameters.covered += 1;
    else cov.missing.push(`parameter ${parameter.name} (${parameter.in}) of ${key}`);
  }
}

/** Counts the fields of an inventory resource that its schema (or its alias's) has. */
function coverResource(
  doc: OpenApiDocument,
  resource: InventoryResource,
  aliases: Aliases,
  cov: SectionCoverage,
): void {
  cov.fields.total += resource.fields.length;
  const alias = aliases.resources?.[resource.name];
  if (alias) cov.choices.push(`resource ${resource.name} is schema ${alias.schema}: ${alias.reason}`);
  const schemas = resourceSchemas(doc, resource.name, aliases);
  if (!schemas || schemas.length === 0) {
    if (resource.fields.length > 0 || !schemas)
      cov.missing.push(`resource ${resource.name} (${resource.fields.length} fields)`);
    return;
  }
  for (const field of resource.fields) {
    if (hasProperty(doc, schemas, field.name)) cov.fields.covered += 1;
    else cov.missing.push(`field ${resource.name}.${field.name}`);
  }
}

function compareSections(a: string, b: string): number {
  const [a1 = 0, a2 = 0] = a.split('.').map(Number);
  const [b1 = 0, b2 = 0] = b.split('.').map(Number);
  return a1 - b1 || a2 - b2;
}

/**
 * Where the contract goes beyond the seed inventory, with the source of each addition (scripts/coverage-sources.json).
 * A source is a seed part and section (`Part 1 §4.5: …`, whose text names every listed name) or the Service's source
 * file (`GitLab: lib/api/…`).
 */
export interface Sources {
  /** Parameters any operation may take, by `in:name` (`query:sudo`): the convention that defines them. */
  everywhere?: Record<string, string>;
  /** Operations the inventory lacks, by `METHOD /path`; `sameAs` is the inventory operation whose parameters they take. */
  operations?: Record<string, { sameAs?: string; source: string }>;
  /** By `METHOD /path`: parameters and body fields the inventory lacks, or the inventory operation whose parameters it shares. */
  parameters?: Record<string, { names?: string[]; sameAs?: string; source: string }>;
  /** By schema location (`Job`, `ExportProjectRequest.upload`, `Query.items[]`): fields the inventory lacks, or the inventory resource whose fields it takes. */
  schemas?: Record<string, { names?: string[]; fieldsOf?: string; source: string }>;
}

export interface ReverseCoverage {
  /** Contract operations, parameters and fields found neither in the inventory nor in the sources. */
  unlisted: string[];
  /** Source entries (and names in them) that nothing in the contract needs. */
  unused: string[];
}

const bare = (name: string) => name.replace(/\[\]$/, '');

/** What the reverse coverage collects: the names allowed on each schema node, the sources used, what is unlisted. */
interface ReverseState {
  known: Map<object, Set<string>>;
  used: Set<string>;
  unlisted: string[];
}

function allow(state: ReverseState, node: object, names: Iterable<string>): void {
  const set = state.known.get(node) ?? new Set<string>();
  for (const name of names) set.add(bare(name));
  state.known.set(node, set);
}

/** The reverse of `computeCoverage`: what the contract has that the inventory does not, unless its source is listed. */
export function reverseCoverage(
  doc: OpenApiDocument,
  inventory: Inventory,
  aliases: Aliases = {},
  sources: Sources = {},
): ReverseCoverage {
  const state: ReverseState = { known: new Map(), used: new Set(), unlisted: [] };
  for (const resource of inventory.resources)
    for (const schema of resourceSchemas(doc, resource.name, aliases) ?? [])
      for (const node of branches(doc, schema))
        allow(
          state,
          node,
          resource.fields.map((f) => f.name),
        );
  const { bodySchemas, listedAbsent } = reverseOperations(doc, inventory, aliases, sources, state);
  allowSourceSchemas(doc, inventory, sources, state);
  unlistedFields(doc, bodySchemas, state);
  return { unlisted: state.unlisted, unused: [...unusedSources(sources, state.used), ...listedAbsent] };
}

/**
 * The operations' parameters and body fields the inventory and the sources do not list; allows each body schema the
 * names its operation may take. Returns the inline body schemas (walked later) and the listed names no body has.
 */
function reverseOperations(
  doc: OpenApiDocument,
  inventory: Inventory,
  aliases: Aliases,
  sources: Sources,
  state: ReverseState,
): { bodySchemas: [string, unknown][]; listedAbsent: string[] } {
  const inventoryOperations = new Map(inventory.operations.map((op) => [`${op.method} ${op.path}`, op]));
  const bodySchemas: [string, unknown][] = [];
  const listedAbsent: string[] = [];
  for (const entry of listOperations(doc)) {
    const key = `${entry.method.toUpperCase()} ${entry.path}`;
    const names = parameterNames(key, inventoryOperations, aliases, sources, state.used, state.unlisted);
    if (!names) continue;
    for (const parameter of entry.parameters) {
      const everywhere = `${parameter.in}:${parameter.name}`;
      if (names.has(bare(parameter.name))) continue;
      if (sources.everywhere?.[everywhere]) state.used.add(`everywhere ${everywhere}`);
      else state.unlisted.push(`parameter ${parameter.name} (${parameter.in}) of ${key}`);
    }
    const body = resolve<{ content?: Record<string, { schema?: unknown }> }>(doc, entry.operation.requestBody ?? {});
    const present = new Set(entry.parameters.map((p) => bare(p.name)));
    for (const [mediaType, media] of Object.entries(body.content ?? {})) {
      for (const node of branches(doc, media.schema)) {
        allow(state, node, names);
        for (const name of Object.keys((node.properties as object | undefined) ?? {})) present.add(name);
      }
      if (media.schema && !isReference(media.schema)) bodySchemas.push([`${key} body (${mediaType})`, media.schema]);
    }
    for (const name of sources.parameters?.[key]?.names ?? [])
      if (!present.has(bare(name))) listedAbsent.push(`parameters ${key}: parameter ${name}`);
  }
  return { bodySchemas, listedAbsent };
}

/** Allows the fields that `sources.schemas` lists (by name, or an inventory resource's fields) at their locations. */
function allowSourceSchemas(doc: OpenApiDocument, inventory: Inventory, sources: Sources, state: ReverseState): void {
  const inventoryResources = new Map(inventory.resources.map((r) => [r.name, r]));
  for (const [location, entry] of Object.entries(sources.schemas ?? {})) {
    const nodes = schemaAt(doc, location);
    if (nodes.length === 0)
      state.unlisted.push(`schema ${location} of scripts/coverage-sources.json is not in the document`);
    const resource = entry.fieldsOf === undefined ? undefined : inventoryResources.get(entry.fieldsOf);
    if (entry.fieldsOf !== undefined && !resource)
      state.unlisted.push(`resource ${entry.fieldsOf} is not in the inventory`);
    for (const node of nodes)
      allow(state, node, [...(entry.names ?? []), ...(resource?.fields.map((f) => f.name) ?? [])]);
  }
}

/** Walks every component schema and inline body: each property not allowed on its node is unlisted. */
function unlistedFields(doc: OpenApiDocument, bodySchemas: [string, unknown][], state: ReverseState): void {
  const seen = new Set<object>();
  /** `inherited`: the names of the object a composition or condition (allOf, oneOf, then, not…) belongs to. */
  const walk = (schema: unknown, location: string, inherited = new Set<string>()): void => {
    if (!schema || typeof schema !== 'object' || isReference(schema) || seen.has(schema)) return;
    seen.add(schema);
    const node = schema as Schema;
    const names = new Set([...inherited, ...(state.known.get(node) ?? [])]);
    for (const [name, property] of Object.entries((node.properties as Record<string, unknown> | undefined) ?? {})) {
      if (isForbidden(property)) continue;
      if (names.has(name)) state.used.add(`schema ${location} ${name}`);
      else state.unlisted.push(`field ${location}.${name}`);
      walk(property, `${location}.${name}`);
    }
    for (const key of ['allOf', 'anyOf', 'oneOf'])
      for (const part of (node[key] as unknown[] | undefined) ?? []) walk(part, location, names);
    for (const key of ['if', 'then', 'else', 'not']) walk(node[key], location, names);
    walk(node.items, `${location}[]`);
    walk(node.additionalProperties, `${location}.*`);
  };
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) walk(schema, name);
  for (const [location, schema] of bodySchemas) walk(schema, location);
}

/** The parameter names an operation may have, or undefined (reported) when the operation itself is unlisted. */
function parameterNames(
  key: string,
  inventoryOperations: Map<string, InventoryOperation>,
  aliases: Aliases,
  sources: Sources,
  used: Set<string>,
  unlisted: string[],
): Set<string> | undefined {
  const extra = sources.operations?.[key];
  if (extra) used.add(`operation ${key}`);
  const own = inventoryOperations.get(key) ?? (extra?.sameAs ? inventoryOperations.get(extra.sameAs) : undefined);
  if (!own) {
    unlisted.push(extra ? `operation ${key}: its sameAs ${extra.sameAs} is not in the inventory` : `operation ${key}`);
    return undefined;
  }
  const listed = sources.parameters?.[key];
  if (listed) used.add(`parameters ${key}`);
  const shared = listed?.sameAs ? inventoryOperations.get(listed.sameAs) : undefined;
  if (listed?.sameAs && !shared)
    unlisted.push(`parameters of ${key}: its sameAs ${listed.sameAs} is not in the inventory`);
  const names: string[] = [...(listed?.names ?? [])];
  for (const op of [own, shared])
    for (const parameter of op?.parameters ?? []) {
      names.push(parameter.name);
      const alias = aliases.parameters?.[`${op!.method} ${op!.path}`]?.[parameter.name];
      names.push(...(alias?.names ?? (alias?.name ? [alias.name] : [])));
    }
  return new Set(names.map(bare));
}

/** The schema nodes at a location: a component name, then `.field`, `[]` (items) or `.*` (map values). */
function schemaAt(doc: OpenApiDocument, location: string): Schema[] {
  const [name = '', ...steps] = location.split(/\.|(?=\[\])/);
  const root = (doc.components?.schemas as Record<string, Schema> | undefined)?.[name];
  if (!root) return [];
  return steps.reduce<Schema[]>(
    (nodes, stepName) =>
      nodes.flatMap((node) =>
        branches(doc, node).flatMap((b) => {
          const next =
            stepName === '[]'
              ? b.items
              : stepName === '*'
                ? b.additionalProperties
                : (b.properties as Record<string, unknown> | undefined)?.[stepName];
          return next && typeof next === 'object' ? branches(doc, next) : [];
        }),
      ),
    branches(doc, root),
  );
}

/** `{ not: {} }`: a field the Service never sends, which adds nothing to the inventory. */
function isForbidden(schema: unknown): boolean {
  const node = schema as { not?: unknown } | null;
  return typeof node?.not === 'object' && node.not !== null && Object.keys(node.not).length === 0;
}

function unusedSources(sources: Sources, used: Set<string>): string[] {
  const unused: string[] = [];
  for (const key of Object.keys(sources.everywhere ?? {}))
    if (!used.has(`everywhere ${key}`)) unused.push(`everywhere ${key}`);
  for (const key of Object.keys(sources.operations ?? {}))
    if (!used.has(`operation ${key}`)) unused.push(`operation ${key}`);
  for (const key of Object.keys(sources.parameters ?? {}))
    if (!used.has(`parameters ${key}`)) unused.push(`parameters ${key}`);
  for (const [location, entry] of Object.entries(sources.schemas ?? {}))
    for (const name of entry.names ?? [])
      if (!used.has(`schema ${location} ${bare(name)}`)) unused.push(`schema ${location}: field ${name}`);
  return unused;
}

/**
 * Problems with the sources themselves: a source that names neither a seed part and section nor a file of the Service,
 * or (given the seed texts, Part 1 first) a seed part whose text does not name what the entry lists.
 */
export function sourceProblems(sources: Sources, seeds?: string[]): string[] {
  const problems: string[] = [];
  const check = (where: string, source: string, names: string[]) => {
    const part = /^Part ([1-9]) §[0-9.]+\b/.exec(source)?.[1];
    if (!part && !/^GitLab: \S+/.test(source)) {
      problems.push(`${where}: the source must start with "Part <n> §<section>" or "GitLab: <file>"`);
      return;
    }
    const text = part && seeds?.[Number(part) - 1];
    if (text === undefined || text === '') return;
    for (const name of names) if (!text.includes(name)) problems.push(`${where}: Part ${part} does not name ${name}`);
  };
  for (const [key, source] of Object.entries(sources.everywhere ?? {}))
    check(`everywhere ${key}`, source, [key.slice(key.indexOf(':') + 1)]);
  for (const [key, entry] of Object.entries(sources.operations ?? {}))
    check(`operation ${key}`, entry.source, [key.split('/').at(-1)!]);
  for (const [key, entry] of Object.entries(sources.parameters ?? {}))
    check(`parameters ${key}`, entry.source, entry.names ?? []);
  for (const [key, entry] of Object.entries(sources.schemas ?? {}))
    check(`schema ${key}`, entry.source, entry.names ?? []);
  return problems;
}
