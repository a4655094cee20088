/**
 * In responses, a field is required only where it is always there for every caller and tier: a field that is
 * tier-, offering-, flag- or stability-bound, admin-only, marked as varying with the caller or described as
 * conditional is optional; and a nullable object is that object or null (`oneOf: [{$ref}, {type: 'null'}]`), never an
 * untyped schema. Inside a view that is itself administrator-only (`x-admin-only` on the object), the fields'
 * `x-admin-only` says nothing about who sees them there, so it does not make them optional.
 */
const BOUND = ['x-admin-only', 'x-tiers', 'x-offerings', 'x-feature-flag', 'x-stability', 'x-varies-with-caller'];
const CONDITIONAL =
  /\b(only (when|if|for|with|to|on)|present (only )?(when|if)|omitted (when|if|for)|absent (when|if|for|otherwise)|returned (only )?(when|if|with)|when `[a-z_]+=|vary with|conditional|optional key)\b/i;

/**
 * Why a response field may be absent, as its property schema says (undefined: nothing says so). `adminView`: the
 * record is an administrator-only view, where `x-admin-only` on a field is no reason.
 */
export function whyOptional(property, adminView = false) {
  if (!property || typeof property !== 'object') return undefined;
  const bound = BOUND.find((key) => property[key] !== undefined && !(adminView && key === 'x-admin-only'));
  if (bound) return `it carries ${bound}`;
  if (typeof property.description === 'string' && CONDITIONAL.test(property.description))
    return 'its description makes it conditional';
  return undefined;
}

const isNull = (s) => s && typeof s === 'object' && (s.type === 'null' || s.const === null);
const isUntyped = (s) =>
  s &&
  typeof s === 'object' &&
  !['type', '$ref', 'oneOf', 'anyOf', 'allOf', 'const', 'enum', 'not', 'properties', 'items'].some((k) => k in s);
/** Keywords whose schemas describe the same value: an administrator-only view stays one inside them. */
const SAME_VALUE = new Set(['allOf', 'anyOf', 'oneOf', 'then', 'else']);

export default function responseRequired(schema) {
  const problems = [];
  const visit = (node, path, seen, adminView) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const admin = adminView || node['x-admin-only'] === true;
    if (node.properties && typeof node.properties === 'object') {
      for (const name of Array.isArray(node.required) ? node.required : []) {
        const why = whyOptional(node.properties[name], admin);
        if (why)
          problems.push({
            message: `Response field "${name}" must not be required: ${why}`,
            path: [...path, 'required'],
          });
      }
      for (const [name, property] of Object.entries(node.properties)) {
        for (const key of ['oneOf', 'anyOf']) {
          const members = property?.[key];
          if (Array.isArray(members) && members.some(isNull) && members.some(isUntyped)) {
            problems.push({
              message: `Nullable field "${name}" must keep its type (that type or null), not an untyped member`,
              path: [...path, 'properties', name, key],
            });
          }
        }
      }
    }
    for (const [key, value] of Object.entries(node)) {
      const inside = Array.isArray(node) ? adminView : SAME_VALUE.has(key) ? admin : false;
      visit(value, [...path, key], seen, inside);
    }
  };
  visit(schema, [], new Set(), false);
  return problems;
}
