/** Fidelity (types): nullable fields stay nullable, and keep their type beside null. */
import type { Job, MergeRequest } from '../../out/hey-api/types.gen.ts';

export const notMerged: MergeRequest['merged_at'] = null;
export const merged: MergeRequest['merged_at'] = '2024-01-01T00:00:00Z';
export const noCoverage: Job['coverage'] = null;
// @ts-expect-error merged_at is a timestamp or null, not a number
export const mergedAtNumber: MergeRequest['merged_at'] = 1;
