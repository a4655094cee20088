/**
 * `@service-api/server/internal`: the request readers the mock, the fake and the proxy share with the server runtime.
 * Outside semver: any release may change them. A list of re-exports only.
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
export { clientErrorHandler } from './errors.js';
export { essence, formFields, InputError, parseForm, parseQuery } from './input.js';
export { parseBody, parseJsonBody, sourceOf } from './parsers.js';
export { filePathProblem } from './repository-path.js';
export type { MatchedOperation } from './route.js';
export { fastifyPath, operationMatcher } from './routing.js';
export { normalizeInput, Tolerances, type InputShape, type Shape, type Source } from './tolerance.js';
