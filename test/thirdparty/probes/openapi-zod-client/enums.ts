/** Fidelity (types): enums stay unions of their values, not `string`. */
import type { z } from '../../out/openapi-zod-client/node_modules/zod';
import type { schemas } from '../../out/openapi-zod-client/client.ts';

type MergeRequest = z.infer<typeof schemas.MergeRequest>;
type Job = z.infer<typeof schemas.Job>;

export const status: Job['status'] = 'failed';
export const state: MergeRequest['state'] = 'merged';
// @ts-expect-error a job's status is one of its documented values
export const unknownStatus: Job['status'] = 'no-such-status';
// @ts-expect-error a merge request's state is one of its documented values
export const unknownState: MergeRequest['state'] = 'no-such-state';
