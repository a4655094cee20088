/**
 * The bundle step's mark of every property that admits null: `x-nullable: true` beside its schema
 * (`openapi/conventions.md`, "Required and nullable in responses"). openapi-generator 7.25 (Java, Go, Python) reads a
 * property that `type: [X, 'null']`, `oneOf`/`anyOf` with `{type: 'null'}` or a `$ref` to a nullable component makes
 * nullable, except where a record inherits the property through `allOf: [{$ref: Base}]`: there it generates the
 * field non-nullable (Python `coverage: Union[StrictFloat, StrictInt]`), so a real `null` fails to parse. It reads
 * `x-nullable` there. The sources say nullability once, in JSON Schema; this step writes the mark, and the 3.0
 * rendition leaves it out (its `nullable` says the same).
 */
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { componentName } from '../../packages/server/src/openapi-model.ts';

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys whose values are data, never schemas. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'const', 'enum', 'value', 'x-query-schema']);

/** Whether a schema admits null by its type, a null member, or the component it names. */
export function admitsNull(schema: unknown, schemas: Record<string, unknown>, seen = new Set<string>()): boolean {
  if (!isObject(schema)) return false;
  const { type } = schema;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if ('const' in schema && schema.const === null) return true;
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const members = schema[keyword];
    if (Array.isArray(members) && members.some((member) => admitsNull(member, schemas, seen))) return true;
  }
  const name = typeof schema.$ref === 'string' ? componentName(schema.$ref) : undefined;
  if (name === undefined || seen.has(name)) return false;
  seen.add(name);
  return admitsNull(schemas[name], schemas, seen);
}

/** Marks, in place, every property schema of the document that admits null; returns the document. */
export function markNullable(doc: OpenApiDocument): OpenApiDocument {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isObject(node)) return;
    if (isObject(node.properties))
      for (const property of Object.values(node.properties))
        if (isObject(property) && admitsNull(property, schemas)) property['x-nullable'] = true;
    for (const [key, value] of Object.entries(node)) if (!DATA_KEYS.has(key)) visit(value);
  };
  visit(doc);
  return doc;
}
