/**
 * `@service-api/validators/standard`: Standard Schema v1 (https://standardschema.dev) of the document, for form
 * libraries, tRPC-style routers and any other consumer of the interface. Every guard here narrows as the package's
 * does and is also a Standard Schema (`isJob['~standard'].validate(value)`), which explains a refusal with the exact
 * validator; the package's own guards carry only the fast one, so a bundle that only narrows does not pay for it.
 */
export * from './standard-guards.js';
export { requestSchema, responseSchema } from './index.js';
export type { Guard, ResponseBody, StandardSchemaV1, StatusCode, ValidatedRequest } from './standard.js';
