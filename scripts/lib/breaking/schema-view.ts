/** How the comparator reads a schema: its JSON types, and `allOf` and nullable alternatives folded into one view. */
import { isObject, type Json, type Side } from './comparison.ts';

/** The JSON types a schema admits (`null` included); `undefined` for "any". */
export function typeSet(schema: Json): Set<string> | undefined {
  const declared =
    schema.type === undefined
      ? undefined
      : Array.isArray(schema.type)
        ? (schema.type as string[])
        : [schema.type as string];
  if (!declared) return undefined;
  const types = new Set(declared);
  if (schema.nullable === true) types.add('null');
  if (types.has('number')) types.add('integer');
  return types;
}

/** A type set as a message shows it (`integer` left out beside `number`). */
export function show(types: Set<string> | undefined): string {
  return types ? [...types].filter((t) => !(t === 'integer' && types.has('number'))).join('|') : 'any';
}

/** `oneOf`/`anyOf` of a schema and `{type: 'null'}` read as that schema with `null` added to its types. */
function unwrapNullable(side: Side, schema: Json): Json {
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const members = schema[keyword];
    if (!Array.isArray(members) || members.length !== 2) continue;
    const resolved = members.map((member) => side.get<Json>(member) ?? {});
    const nullAt = resolved.findIndex((member) => member.type === 'null');
    if (nullAt < 0) continue;
    const other = flatten(side, resolved[1 - nullAt]!);
    const rest: Json = { ...schema };
    delete rest[keyword];
    const types = typeSet(other) ?? (isObject(other.properties) ? new Set(['object']) : undefined);
    return { ...other, ...rest, ...(types ? { type: [...types, 'null'] } : {}) };
  }
  return schema;
}

/** allOf members folded into one object view: properties and required are unions, the schema's own keywords win. */
function flatten(side: Side, schema: Json): Json {
  if (!Array.isArray(schema.allOf)) return schema;
  const merged: Json = { ...schema };
  delete merged.allOf;
  const properties: Json = {};
  const required = new Set<string>();
  for (const raw of [...(schema.allOf as unknown[]), schema]) {
    const member = raw === schema ? schema : flatten(side, side.get<Json>(raw) ?? {});
    Object.assign(properties, isObject(member.properties) ? member.properties : {});
    for (const name of (member.required as string[] | undefined) ?? []) required.add(name);
    for (const [key, value] of Object.entries(member))
      if (!(key in merged) && key !== 'properties' && key !== 'required') merged[key] = value;
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

/** The view a schema is compared in: nullable alternatives unwrapped, then `allOf` folded. */
export function schemaView(side: Side, schema: Json): Json {
  return flatten(side, unwrapNullable(side, schema));
}
