/**
 * `@service-api/server/internal`: what the sibling packages (the mock, the fake, the proxy) and this repository's tools
 * share with the server: the request readers of the runtime and the OpenAPI model. Outside semver: any release may
 * change them. A list of re-exports only.
 */
export {
  admissionRoute,
  admit,
  admitBody,
  type AdmissionRoute,
  type Problem,
  type Refusal,
  type Verdict,
} from './admission.js';
export { clientErrorHandler, parserRefusal, type ParserAnswer } from './errors.js';
export { corsPolicy, originListed, type CorsPolicy } from './cors.js';
export { essence, formFields, InputError, parseForm, parseQuery } from './input.js';
export { parseBody, parseJsonBody, sourceOf } from './parsers.js';
export { filePathProblem } from './repository-path.js';
export { isNamespaceReference, referencedRecord } from './references.js';
export type { MatchedOperation } from './route.js';
export { fastifyPath, operationMatcher } from './routing.js';
export { normalizeInput, Tolerances, type InputShape, type Shape, type Source } from './tolerance.js';
export * from './openapi-model.js';
export { problemMessage, responseErrors, type ValidationError } from '@service-api/validators';
