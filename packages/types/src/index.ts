/** @service-api/types: the document's types (generated), the operation helper types and the contract version. */
export type * from './anonymous.js';
export type * from './contract.js';
export type * from './operation-types.js';
export type * from './schema.js';
