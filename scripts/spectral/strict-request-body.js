/**
 * Request bodies are checked strictly: an object schema closes with `additionalProperties: false` or
 * `unevaluatedProperties: false`, unless the seed does not show its fields (`x-not-shown: true`).
 */
export default function strictRequestBody(schema) {
  if (!schema || typeof schema !== 'object' || schema['x-not-shown'] === true) return [];
  const closed = schema.additionalProperties === false || schema.unevaluatedProperties === false;
  if (!closed) return [{ message: 'Request body schema must set additionalProperties: false (or unevaluatedProperties: false), or be marked x-not-shown' }];
  return [];
}
