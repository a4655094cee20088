/**
 * The generated sources of `@service-api/mcp`: one MCP tool per operation (`tools.ts`), the component schemas its
 * output schemas name (`definitions.ts`) and the contract version. The server itself is the package's hand-written
 * `src/`, compiled with these files by the build (scripts/lib/node-packages.ts).
 */
import type {
  Access,
  InputPlace,
  JsonSchema,
  ObjectSchema,
  OutputKind,
  ToolEntry,
} from '../packages/mcp/src/tool-entry.ts';
import { slashBanner } from './lib/banner.ts';
import { listOperations, listResponses, type OperationEntry } from './lib/document.ts';
import type { GeneratedFile } from './lib/files.ts';
import { isFileSchema, toJsonSchema } from './lib/json-schema.ts';
import { methodNames } from './lib/naming.ts';
import type { OpenApiDocument, Parameter } from './lib/openapi.ts';
import { contractModule } from './lib/package.ts';
import { componentName, resolve } from '../packages/server/src/openapi-model.ts';

export const mcpPackage = { name: '@service-api/mcp', id: 'mcp' };
export const folder = `generated/${mcpPackage.id}`;

/** MCP clients take tool names of at most 64 characters; ours are `[a-z0-9_]`. */
const MAX_NAME = 64;

/**
 * Inputs named like a credential, which a tool never takes: the credential is the server's (`SERVICE_API_TOKEN`),
 * and a secret typed by a model ends up in its context and logs. A flag (`reset_password: true`) is not a secret.
 */
export const CREDENTIAL_NAME =
  /^(sudo|password|token|secret|api_key|access_key_id)$|_(password|secret|token|api_key|key_id)$/i;

const DEF_PREFIX = '#/$defs/';

/** A component reference as the tools' schemas write it: `#/$defs/Name` (other references unchanged). */
function toDef(ref: string): string {
  const name = componentName(ref);
  return name === undefined ? ref : `${DEF_PREFIX}${name}`;
}

/** The component a `#/$defs/Name` reference names. */
function defName(ref: unknown): string | undefined {
  return typeof ref === 'string' && ref.startsWith(DEF_PREFIX) ? ref.slice(DEF_PREFIX.length) : undefined;
}

/** The component schemas as a model reads them (descriptions kept), references as `#/$defs/Name`. */
function definitionsOf(doc: OpenApiDocument): Record<string, JsonSchema> {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, readable(schema)]));
}

/** A schema of the document as a model reads it, its component references as `#/$defs/Name`. */
function readable(schema: unknown): JsonSchema {
  return toJsonSchema(schema, toDef, { annotations: true });
}

/** A copy of `schema` with every `#/$defs/Name` replaced by the definition (a cycle ends in `{}`). */
function inline(schema: unknown, defs: Record<string, JsonSchema>, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inline(item, defs, seen));
  if (typeof schema !== 'object' || schema === null) return schema;
  const name = defName((schema as JsonSchema).$ref);
  if (name !== undefined) {
    const { $ref: _, ...siblings } = schema as JsonSchema;
    if (seen.includes(name) || !defs[name]) return siblings;
    return { ...(inline(defs[name], defs, [...seen, name]) as JsonSchema), ...siblings };
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value, defs, seen)]));
}

/** The component names a schema refers to, directly or through other components. */
function referencedDefs(schema: unknown, defs: Record<string, JsonSchema>, found = new Set<string>()): Set<string> {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      const name = defName((value as JsonSchema).$ref);
      if (name !== undefined) {
        if (!found.has(name) && defs[name]) {
          found.add(name);
          visit(defs[name]);
        }
      }
      Object.values(value).forEach(visit);
    }
  };
  visit(schema);
  return found;
}

/**
 * Removes the credentials (named like one, or a write-only text) from every object of a schema and from its
 * `required`; `removed` collects where they were, as dotted body paths (`configuration.access_token`).
 */
function withoutCredentials(schema: unknown, removed: Set<string>, at: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withoutCredentials(item, removed, at));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      const entries = Object.entries(value as Record<string, JsonSchema>);
      for (const [name, property] of entries) if (isCredential(name, property)) removed.add([...at, name].join('.'));
      const kept = entries.filter(([name, property]) => !isCredential(name, property));
      out[key] = Object.fromEntries(
        kept.map(([name, property]) => [name, withoutCredentials(property, removed, [...at, name])]),
      );
    } else if (key === 'required' && Array.isArray(value)) {
      const properties = (schema as JsonSchema).properties as Record<string, JsonSchema> | undefined;
      out[key] = value.filter((name: string) => !properties?.[name] || !isCredential(name, properties[name]!));
    } else if (key === 'items' || key === 'prefixItems' || key === 'additionalProperties')
      out[key] = withoutCredentials(value, removed, [...at, '[]']);
    else out[key] = withoutCredentials(value, removed, at);
  }
  return out;
}

/** Named like a credential (a flag or a number is not one: `reset_password: true`), or a text sent only. */
function isCredential(name: string, schema: JsonSchema | undefined): boolean {
  const types = [schema?.type, typeof schema?.const === 'boolean' ? 'boolean' : undefined].flat();
  if (types.includes('boolean') || types.includes('integer')) return false;
  return CREDENTIAL_NAME.test(name) || (schema?.writeOnly === true && types.includes('string'));
}

/** `merge-requests/list-project-merge-requests` → `merge_requests_list_project_merge_requests`. */
export function toolName(operationId: string): string {
  const name = operationId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!name || name.length > MAX_NAME)
    throw new Error(`The tool name of ${operationId} is empty or longer than ${MAX_NAME} characters`);
  return name;
}

/** Verbs of operationIds that remove something or take a right away. */
const REMOVING = /^(delete|remove|revoke|disable|unshare|erase|purge|destroy|sync)(-|$)/;

/**
 * Whether an operation removes or overwrites: DELETE, a removing verb (`revoke-…`, `disable-two-factor`), a parameter
 * that asks to overwrite (`overwrite`), or a PUT of a file's content.
 */
function accessOf(entry: OperationEntry, bodyNames: string[]): Access {
  if (entry.method === 'get' || entry.method === 'head') return 'read';
  const verb = entry.operationId.slice(entry.operationId.lastIndexOf('/') + 1);
  if (entry.method === 'delete' || REMOVING.test(verb) || bodyNames.includes('overwrite')) return 'destructive';
  if (entry.method === 'put' && entry.path.endsWith('/{file_path}')) return 'destructive';
  return 'write';
}

interface Inputs {
  schema: ObjectSchema;
  places: Record<string, InputPlace>;
  /** The body's credentials (dotted paths): the operator supplies them, never the model. */
  secrets: string[];
}

/** The schema of one parameter, with its description, as a property of the tool's input. */
function parameterSchema(parameter: Parameter, defs: Record<string, JsonSchema>): JsonSchema {
  const schema = inline(readable(parameter.schema ?? {}), defs) as JsonSchema;
  const description = parameter.description ?? schema.description;
  return description === undefined ? schema : { ...schema, description };
}

/** The parameters a tool takes: path and query, never a header (the only ones are credentials: `Sudo`). */
function addParameters(
  doc: OpenApiDocument,
  entry: OperationEntry,
  defs: Record<string, JsonSchema>,
  into: Inputs,
  required: string[],
) {
  const keyset = entry.operation['x-pagination'];
  for (const parameter of entry.parameters) {
    if (parameter.in === 'header' || parameter.in === 'cookie') {
      if (!CREDENTIAL_NAME.test(parameter.name))
        throw new Error(`${entry.operationId}: the MCP tools take no header parameter, but ${parameter.name} is one`);
      continue;
    }
    if (isCredential(parameter.name, resolve<JsonSchema>(doc, parameter.schema ?? {}))) {
      if (parameter.in === 'path')
        throw new Error(`${entry.operationId}: path parameter ${parameter.name} is a secret`);
      continue;
    }
    (into.schema.properties as Record<string, JsonSchema>)[parameter.name] = parameterSchema(parameter, defs);
    into.places[parameter.name] = parameter.in as 'path' | 'query';
    if (parameter.required) required.push(parameter.name);
  }
  if (Array.isArray(keyset) && keyset.includes('keyset')) {
    (into.schema.properties as Record<string, JsonSchema>).cursor = {
      type: 'string',
      description:
        'The `next_cursor` of the previous answer: asks for the next page of a keyset-paginated list (the other parameters as before).',
    };
    into.places.cursor = 'cursor';
  }
}

/** Keywords of a body schema that relate its fields (`oneOf: [{ required: [cn] }, …]`): kept on the tool's input. */
const RULES = ['anyOf', 'oneOf', 'if', 'then', 'else', 'dependentSchemas', 'dependentRequired', 'not'];

/** The body's top-level fields merged into the tool's input, its cross-field rules beside them. */
function addBody(doc: OpenApiDocument, entry: OperationEntry, defs: Record<string, JsonSchema>, into: Inputs) {
  const raw = entry.operation.requestBody;
  if (!raw) return [];
  const body = resolve<{ content?: Record<string, { schema?: unknown }> }>(doc, raw);
  const [mediaType, media] = Object.entries(body.content ?? {})[0] ?? [];
  if (!media?.schema) return [];
  const removed = new Set<string>();
  const schema = withoutCredentials(inline(readable(media.schema), defs), removed) as JsonSchema;
  const nested = [...removed].filter((path) => path.includes('[]'));
  if (nested.length > 0) throw new Error(`${entry.operationId}: a credential inside a list (${nested.join(', ')})`);
  into.secrets.push(...[...removed].sort());
  const parts = [schema, ...((schema.allOf as JsonSchema[] | undefined) ?? [])];
  const properties = into.schema.properties as Record<string, JsonSchema>;
  const required: string[] = [];
  const rules: JsonSchema[] = [];
  for (const part of parts) {
    for (const [name, property] of Object.entries((part.properties ?? {}) as Record<string, JsonSchema>)) {
      if (into.places[name]) throw new Error(`${entry.operationId}: body field ${name} is also a parameter`);
      const file = /^multipart\//.test(mediaType ?? '') && isFileSchema(property);
      properties[name] = file ? fileInput(property) : property;
      into.places[name] = file ? 'file' : 'body';
    }
    required.push(...((part.required as string[] | undefined) ?? []));
    const rule = Object.fromEntries(RULES.filter((k) => k in part).map((k) => [k, part[k]]));
    if (Object.keys(rule).length > 0) rules.push(rule);
  }
  if (schema.patternProperties) into.schema.patternProperties = schema.patternProperties;
  if (rules.length > 0) into.schema.allOf = rules;
  return required;
}

/** A file part of a form, as a tool takes it: its content in base64. */
function fileInput(property: JsonSchema): JsonSchema {
  const description = typeof property.description === 'string' ? `${property.description} ` : '';
  return { type: 'string', contentEncoding: 'base64', description: `${description}The file's content in base64.` };
}

function inputsOf(doc: OpenApiDocument, entry: OperationEntry, defs: Record<string, JsonSchema>): Inputs {
  const into: Inputs = { schema: { type: 'object', properties: {} }, places: {}, secrets: [] };
  const required: string[] = [];
  addParameters(doc, entry, defs, into, required);
  required.push(...addBody(doc, entry, defs, into));
  const known = [...new Set(required)].filter((name) => into.places[name]);
  if (known.length > 0) into.schema.required = known;
  return into;
}

/** The paging fields of a list tool's answer, beside its `items`. */
const PAGING_FIELDS: Record<string, JsonSchema> = {
  page: { type: 'integer', description: 'The page answered (`x-page`).' },
  per_page: { type: 'integer', description: 'Items per page (`x-per-page`).' },
  next_page: { type: 'integer', description: 'The next page: call again with `page` set to it. Absent on the last.' },
  prev_page: { type: 'integer' },
  total: { type: 'integer', description: 'Items in all pages, when the Service counts them (`x-total`).' },
  total_pages: { type: 'integer' },
  next_cursor: {
    type: 'string',
    description: 'The next page of a keyset list: call again with `cursor` set to it. Absent on the last.',
  },
  truncated: {
    type: 'object',
    description:
      'Present when the answer was cut to stay under the size limit: how many items are shown and how to get the rest.',
    properties: {
      shown: { type: 'integer' },
      of: { type: 'integer' },
      rest: {
        type: 'object',
        description: 'Arguments to pass (with the others unchanged) to get the items not shown.',
      },
    },
  },
};

function isObjectSchema(schema: JsonSchema, defs: Record<string, JsonSchema>): boolean {
  const name = defName(schema.$ref);
  const target = name === undefined ? schema : defs[name];
  if (!target) return false;
  if (target.type !== undefined) return target.type === 'object';
  return Boolean(target.properties || target.allOf);
}

interface Output {
  output: OutputKind;
  outputSchema?: ObjectSchema;
}

/** How an operation's success answer becomes its tool's result, and the schema of that result. */
function outputOf(doc: OpenApiDocument, entry: OperationEntry, defs: Record<string, JsonSchema>): Output {
  if (entry.method === 'head') return { output: 'headers' };
  const successes = listResponses(doc, entry).filter((r) => /^2/.test(r.status));
  if (successes.some((r) => Object.keys(r.response.content ?? {}).some((t) => !r.json || r.json.mediaType !== t)))
    return { output: 'file' };
  const schemas = successes.filter((r) => r.json).map((r) => readable(r.json!.content.schema ?? {}));
  if (schemas.length === 0) return { output: 'none' };
  const one = schemas.length === 1 ? schemas[0]! : { anyOf: schemas };
  const empty = schemas.length < successes.length;
  if (!empty && one.type === 'array') {
    const properties = {
      items: { ...one, description: one.description ?? 'The items of this page.' },
      ...PAGING_FIELDS,
    };
    return { output: 'list', outputSchema: { type: 'object', properties, required: ['items'] } };
  }
  if (!empty && schemas.every((s) => isObjectSchema(s, defs))) {
    const top = typeof one.$ref === 'string' ? { allOf: [one] } : one;
    return { output: 'object', outputSchema: { ...top, type: 'object' } };
  }
  const value = { ...one, description: 'The answer (absent when the Service answers with no body).' };
  return { output: 'value', outputSchema: { type: 'object', properties: { value } } };
}

function describe(entry: OperationEntry, inputs: Inputs): string {
  const { summary, description, deprecated } = entry.operation;
  const parts = [summary, description].filter((text): text is string => typeof text === 'string' && text !== '');
  if (deprecated) parts.push('Deprecated.');
  if (inputs.places.cursor)
    parts.push("Pages by keyset: pass the answer's `next_cursor` as `cursor` for the next page.");
  if (inputs.secrets.length > 0)
    parts.push(
      `Not arguments: ${inputs.secrets.map((path) => `\`${path}\``).join(', ')}, credentials that the server's operator supplies (--secret).`,
    );
  return parts.join('\n\n');
}

function toolEntry(doc: OpenApiDocument, entry: OperationEntry, defs: Record<string, JsonSchema>): ToolEntry {
  const inputs = inputsOf(doc, entry, defs);
  const access = accessOf(entry, Object.keys(inputs.places));
  const { group, method } = methodNames(entry.operationId, entry.operation.tags?.[0]);
  const output = outputOf(doc, entry, defs);
  const used = output.outputSchema ? [...referencedDefs(output.outputSchema, defs)].sort() : [];
  const paging = entry.operation['x-pagination'];
  return {
    name: toolName(entry.operationId),
    operationId: entry.operationId,
    tag: entry.operation.tags?.[0] ?? 'default',
    group,
    method,
    http: entry.method.toUpperCase(),
    path: entry.path,
    title: entry.operation.summary ?? entry.operationId,
    description: describe(entry, inputs),
    access,
    annotations: {
      readOnlyHint: access === 'read',
      destructiveHint: access === 'destructive',
      idempotentHint: ['get', 'head', 'put', 'delete'].includes(entry.method),
      openWorldHint: false,
    },
    inputSchema: inputs.schema,
    inputs: inputs.places,
    ...(Array.isArray(paging) ? { paging: paging as string[] } : {}),
    ...(inputs.secrets.length > 0 ? { secrets: inputs.secrets } : {}),
    ...output,
    ...(used.length > 0 ? { defs: used } : {}),
  };
}

/** Every operation as a tool, checked: names unique. */
export function toolEntries(doc: OpenApiDocument): { tools: ToolEntry[]; definitions: Record<string, JsonSchema> } {
  const all = definitionsOf(doc);
  const tools = listOperations(doc).map((entry) => toolEntry(doc, entry, all));
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name)) throw new Error(`Two operations become the MCP tool ${tool.name}`);
    names.add(tool.name);
  }
  const used = new Set(tools.flatMap((tool) => tool.defs ?? []));
  const definitions = Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
  return { tools, definitions };
}

export async function generateMcp(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const banner = slashBanner(doc, 'mcp');
  const { tools, definitions } = toolEntries(doc);
  const toolLines = tools.map((tool) => `  ${JSON.stringify(tool)},`).join('\n');
  const defLines = Object.entries(definitions)
    .map(([name, schema]) => `  ${JSON.stringify(name)}: ${JSON.stringify(schema)},`)
    .join('\n');
  return [
    { path: `${folder}/contract.ts`, contents: banner + contractModule(doc, 'const') },
    {
      path: `${folder}/tools.ts`,
      contents: `${banner}import type { ToolEntry } from './tool-entry.ts';\n\n/** One MCP tool per operation of the document, in document order. */\nexport const toolTable: readonly ToolEntry[] = [\n${toolLines}\n] as unknown as ToolEntry[];\n`,
    },
    {
      path: `${folder}/definitions.ts`,
      contents: `${banner}import type { JsonSchema } from './tool-entry.ts';\n\n/** The component schemas the tools' output schemas name (\`#/$defs/Name\`). */\nexport const definitions: Readonly<Record<string, JsonSchema>> = {\n${defLines}\n} as unknown as Record<string, JsonSchema>;\n`,
    },
  ];
}
