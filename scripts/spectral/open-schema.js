/**
 * Bodies stay open: responses to fields added within v4, requests to parameters the Service ignores.
 * No `additionalProperties: false` or `unevaluatedProperties: false` anywhere in the schema.
 */
export default function openSchema(schema) {
  const problems = [];
  const visit = (node, path, seen) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    for (const keyword of ['additionalProperties', 'unevaluatedProperties']) {
      if (node[keyword] === false)
        problems.push({ message: `Body schema must stay open: remove "${keyword}: false"`, path: [...path, keyword] });
    }
    for (const [key, value] of Object.entries(node)) visit(value, [...path, key], seen);
  };
  visit(schema, [], new Set());
  return problems;
}
