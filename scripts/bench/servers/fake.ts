/**
 * The stateful fake on a free port, with the default data set plus project 42 (the bench's routes) holding the branches
 * of the documented create body; every token is the administrator (`--any-token`).
 */
import { defaultData, startFake } from '../../../fake/src/index.ts';
import { createMergeRequestBody } from '../lib/fixtures.ts';

const body = createMergeRequestBody as { source_branch: string; target_branch: string };
const data = defaultData();
data.projects.push({ id: 42, name: 'Bench', path: 'bench', namespace_id: 1, visibility: 'public', default_branch: body.target_branch, members: [], files: { 'README.md': '# Bench\n' } });
data.merge_requests.push({ id: 5001, iid: 1, project_id: 42, title: 'Source branch of the bench', state: 'opened', author_id: 4, source_branch: body.source_branch, target_branch: body.target_branch });
data.jobs.push(...data.jobs.map((job, i) => ({ ...job, id: 4201 + i, project_id: 42, pipeline_id: 4200 })));
data.pipelines.push({ id: 4200, project_id: 42, ref: body.target_branch, sha: '', status: 'running' });
const fake = await startFake({ data, anyToken: true, port: 0 });
console.log(`listening ${fake.url}/api/v4`);
