/**
 * `@service-api/server/internal`: what the sibling packages (the mock, the proxy) and this repository's tools share
 * with the server. Outside semver: any release may change it.
 */
export * from './openapi-model.js';
