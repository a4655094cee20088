import oasExampleModule from '@stoplight/spectral-rulesets/dist/oas/functions/oasExample.js';

/** Spectral's own `oasExample` (the function of `oas3-valid-media-example` and `oas3-valid-schema-example`). */
const oasExample = oasExampleModule.default ?? oasExampleModule;

/**
 * Spectral's `oasExample`, sharing its work across the places a bundle repeats: the shared error responses and
 * parameters recur in every operation, and Spectral checks each occurrence, compiling its schema anew. An occurrence
 * whose schema, examples and kind (request or response media) were already found valid is valid again; anything else,
 * and every problem, goes through Spectral's function as before, so the rules report exactly what they did.
 */
const valid = new Set();

const startsWith = (path, prefix) => prefix.every((segment, i) => segment === '*' || segment === path[i]);

export default function oasExampleShared(target, options, context) {
  const path = context.path ?? [];
  const request =
    startsWith(path, ['components', 'requestBodies']) || startsWith(path, ['paths', '*', '*', 'requestBody']);
  const response = startsWith(path, ['components', 'responses']) || startsWith(path, ['paths', '*', '*', 'responses']);
  let key;
  try {
    key = `${request}/${response}\0${JSON.stringify(options)}\0${JSON.stringify(target)}`;
  } catch {
    return oasExample(target, options, context);
  }
  if (valid.has(key)) return [];
  const results = oasExample(target, options, context);
  if (results === undefined || (Array.isArray(results) && results.length === 0)) valid.add(key);
  return results;
}
