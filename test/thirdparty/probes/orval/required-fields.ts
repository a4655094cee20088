/** Fidelity (types): MergeRequest and Job keep their required fields; each @ts-expect-error must meet an error. */
import type { Job, MergeRequest } from '../../out/orval/model/index.ts';

// @ts-expect-error MergeRequest requires id, iid, project_id, title, state, source_branch, target_branch, web_url
export const emptyMergeRequest: MergeRequest = {};
// @ts-expect-error Job requires id, name, stage, status, ref and the rest of its record
export const emptyJob: Job = {};
// @ts-expect-error one required field missing is still an error
export const mergeRequestWithoutIid: Pick<MergeRequest, 'id' | 'iid'> = { id: 1 };
