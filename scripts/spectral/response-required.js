/**
 * In responses, a field is required only where it is always there for every caller and tier: a field that is
 * tier-, offering-, flag- or stability-bound, admin-only or described as conditional is optional; and a nullable
 * object is that object or null (`oneOf: [{$ref}, {type: 'null'}]`), never an untyped schema. A deprecated field is
 * still sent within v4, so it may be required; a schema that is itself an administrator view (`x-admin-only` on the
 * schema, not on its properties) requires the fields it lists.
 */
const BOUND = ['x-admin-only', 'x-tiers', 'x-offerings', 'x-feature-flag', 'x-stability'];
const CONDITIONAL = /\b(only (when|if|for|with|to)|present (only )?(when|if)|omitted (when|if|for)|absent (when|if|for)|returned (only )?(when|if|with)|when `[a-z_]+=|vary with)\b/i;

function whyOptional(property) {
  if (!property || typeof property !== 'object') return undefined;
  const bound = BOUND.find((key) => property[key] !== undefined);
  if (bound) return `it carries ${bound}`;
  if (typeof property.description === 'string' && CONDITIONAL.test(property.description)) return 'its description makes it conditional';
  return undefined;
}

const isNull = (s) => s && typeof s === 'object' && (s.type === 'null' || s.const === null);
const isUntyped = (s) => s && typeof s === 'object' && !['type', '$ref', 'oneOf', 'anyOf', 'allOf', 'const', 'enum', 'not', 'properties', 'items'].some((k) => k in s);

export default function responseRequired(schema) {
  const problems = [];
  const visit = (node, path, seen) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (node.properties && typeof node.properties === 'object') {
      for (const name of Array.isArray(node.required) ? node.required : []) {
        const why = whyOptional(node.properties[name]);
        if (why) problems.push({ message: `Response field "${name}" must not be required: ${why}`, path: [...path, 'required'] });
      }
      for (const [name, property] of Object.entries(node.properties)) {
        for (const key of ['oneOf', 'anyOf']) {
          const members = property?.[key];
          if (Array.isArray(members) && members.some(isNull) && members.some(isUntyped)) {
            problems.push({ message: `Nullable field "${name}" must keep its type (that type or null), not an untyped member`, path: [...path, 'properties', name, key] });
          }
        }
      }
    }
    for (const [key, value] of Object.entries(node)) visit(value, [...path, key], seen);
  };
  visit(schema, [], new Set());
  return problems;
}
