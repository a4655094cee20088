/** Fidelity (types): enums stay unions of their values, not `string`. */
import type { Job, MergeRequest } from '../../out/orval/model/index.ts';

export const status: Job['status'] = 'failed';
export const state: MergeRequest['state'] = 'merged';
// @ts-expect-error a job's status is one of its documented values
export const unknownStatus: Job['status'] = 'no-such-status';
// @ts-expect-error a merge request's state is one of its documented values
export const unknownState: MergeRequest['state'] = 'no-such-state';
