/**
 * The stateful fake on a free port, with the default data set plus project 42 (the bench's routes) holding the target
 * branch of the documented create body and BRANCHES numbered source branches, one per merge request the bench creates
 * (a POST beyond them answers 400, counted as a failure); every token is the administrator (`--any-token`).
 */
import { defaultData, startFake, type FakeCommit } from '../../../packages/fake/src/index.ts';
import { benchBranch, createMergeRequestBody } from '../lib/fixtures.ts';

/** More than the POSTs of a `--full` run of the fake section on a fast machine (5 rounds of 1.5 s and their warm-ups at up to ~60 k/s). */
const BRANCHES = 1_000_000;

const body = createMergeRequestBody as { source_branch: string; target_branch: string };
const head: FakeCommit = {
  id: '42'.repeat(20),
  parent_ids: [],
  message: 'Initial commit',
  author_name: 'Bench',
  author_email: 'bench@example.com',
  created_at: '2024-01-01T00:00:00Z',
  tree: {},
};
const branches: Record<string, string> = { [body.target_branch]: head.id };
for (let n = 0; n < BRANCHES; n += 1) branches[benchBranch(n)] = head.id;
const data = defaultData();
data.projects.push({
  id: 42,
  name: 'Bench',
  path: 'bench',
  namespace_id: 1,
  visibility: 'public',
  default_branch: body.target_branch,
  members: [],
  repository: { branches, commits: [head], blobs: {} },
});
data.merge_requests.push({
  id: 5001,
  iid: 1,
  project_id: 42,
  title: 'Source branch of the bench',
  state: 'opened',
  author_id: 4,
  source_branch: body.source_branch,
  target_branch: body.target_branch,
});
data.jobs.push(...data.jobs.map((job, i) => ({ ...job, id: 4201 + i, project_id: 42, pipeline_id: 4200 })));
data.pipelines.push({ id: 4200, project_id: 42, ref: body.target_branch, sha: head.id, status: 'running' });
const fake = await startFake({ data, anyToken: true, port: 0 });
console.log(`listening ${fake.url}/api/v4`);
