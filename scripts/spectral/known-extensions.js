/** Every `x-` field is one of the documented extensions (openapi/extensions.md). */
export default function knownExtensions(document, options) {
  const allowed = new Set(options?.allowed ?? []);
  const problems = [];
  const visit = (node, path, propertyMap) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (!propertyMap && key.startsWith('x-') && !allowed.has(key)) {
        problems.push({
          message: `Extension "${key}" is not documented in openapi/extensions.md`,
          path: [...path, key],
        });
      }
      visit(value, [...path, key], !propertyMap && MAPS.has(key));
    }
  };
  visit(document, [], false);
  return problems;
}

/** Keywords whose keys are names chosen by the author (property names, example names …), not keywords. */
const MAPS = new Set([
  'properties',
  'patternProperties',
  'examples',
  'paths',
  'schemas',
  'parameters',
  'responses',
  'headers',
  'securitySchemes',
  'requestBodies',
  'content',
  'variables',
  'encoding',
  'value',
]);
