/**
 * A validator of the OpenAPI 3.0 rendition that reads `nullable` as OpenAPI 3.0.3 defines it: Ajv in draft-04 mode
 * (the JSON Schema dialect of OpenAPI 3.0) over the document with each `nullable: true` turned into `"null"` added to
 * the `type` of its own schema.
 */
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys whose values are data (examples, defaults, enum values), never schemas or OpenAPI objects. */
const DATA = new Set(['example', 'examples', 'default', 'enum', 'const', 'value']);

/**
 * OpenAPI 3.0.3's `nullable: true` as draft-04 says it: it adds `"null"` to the `type` of its own schema, and every
 * other keyword keeps its meaning (so an `enum` must list null, and an `allOf` member or a `$ref` still refuses it);
 * `nullable` without a `type` adds nothing. `x-` fields (3.1 keywords kept verbatim) and examples are left out (Ajv
 * reads an `id` anywhere but in its own keywords as a schema id).
 */
export function asDraft04(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asDraft04);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-') || key === 'example' || key === 'examples' || key === 'value') continue;
    out[key] = DATA.has(key) ? value : asDraft04(value);
  }
  const { nullable, ...rest } = out;
  if (nullable === true && typeof rest.type === 'string') rest.type = [rest.type, 'null'];
  return rest;
}

/** Ajv in draft-04 mode over a 3.0 document (as `doc`), reading `nullable` as 3.0.3 defines it. */
export function draft04Validator(doc30: unknown) {
  const ajv = new ajvDraft04.default({ strict: false, allErrors: true, logger: false });
  ajvFormats.default(ajv);
  ajv.addSchema(asDraft04(doc30) as object, 'doc');
  return ajv;
}
