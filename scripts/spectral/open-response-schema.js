/** Response bodies stay open to fields added within v4: no `additionalProperties: false` anywhere in their schema. */
export default function openResponseSchema(schema) {
  const problems = [];
  const visit = (node, path, seen) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    for (const keyword of ['additionalProperties', 'unevaluatedProperties']) {
      if (node[keyword] === false) problems.push({ message: `Response schema must stay open: remove "${keyword}: false"`, path: [...path, keyword] });
    }
    for (const [key, value] of Object.entries(node)) visit(value, [...path, key], seen);
  };
  visit(schema, [], new Set());
  return problems;
}
