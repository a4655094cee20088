/** Every type of @service-api/types, re-exported: one copy of the types is installed and parsed. */
export type * from '@service-api/types';
