/**
 * The consumer programs of the pack-and-install test. The first uses each published package the way another team
 * would, installed from a registry under `scope` (`@acme/client`), without a cast. It reads the API root of the mock its client calls go to from
 * `SERVICE_API_MOCK` (so that its source, and tsc's incremental record of it, stay the same from run to run); the fake,
 * another mock and a proxy in front of it are started in the program itself.
 */
export const consumerSource = (scope: string): string =>
  `import Fastify from 'fastify';
import {
  createServiceApi,
  createServiceClient,
  isServiceApiError,
  contractVersion,
  type CreateMergeRequestInput,
  type Item,
  type Job,
  type MergeRequest,
} from '@service-api/client';
import { registerServiceApi, type Handlers } from '@service-api/server';
import { startFake, type FakeData } from '@service-api/fake';
import { startMock, type RunningMock } from '@service-api/mock';
import { startProxy, type RunningProxy } from '@service-api/proxy';
import type { MergeRequest as SharedMergeRequest, Project } from '@service-api/types';
import { isJob, isMergeRequest, validateRequest, validateResponse, type Job as ValidatedJob } from '@service-api/validators';
import { documentPath, readDocument, responseExample, contractVersion as documentVersion } from '@service-api/openapi';
import examples from '@service-api/openapi/examples.json' with { type: 'json' };
import requestExamples from '@service-api/openapi/request-examples.json' with { type: 'json' };
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const MOCK = process.env.SERVICE_API_MOCK ?? 'http://127.0.0.1:4010/api/v4';
const report: Record<string, unknown> = { contractVersion };

// Client against the mock: typed methods, typed errors and the low-level client.
const api = createServiceApi({ baseUrl: MOCK, auth: { privateToken: async () => 'token' }, retry: { attempts: 1 } });
const jobs: Job[] = await api.jobs.listProjectJobs({ path: { id: 'my-group/my-project' }, query: { 'scope[]': ['failed'] } });
const first: Item<'jobs/list-project-jobs'> | ValidatedJob | undefined = jobs[0];
report.firstJobStatus = first?.status;
report.jobsValid = validateResponse('jobs/list-project-jobs', 200, jobs).valid;
report.isJob = isJob(first);
const anonymous = createServiceApi({ baseUrl: MOCK });
try {
  await anonymous.jobs.listProjectJobs({ path: { id: 42 } });
} catch (error) {
  if (isServiceApiError(error, 'jobs/list-project-jobs', 401)) report.anonymous = [error.status, error.body.message]; // 401 narrows the body
}
const low = await createServiceClient({ baseUrl: MOCK, auth: { jobToken: 'job' } }).GET('/job');
report.tokenJobId = low.data?.id;
report.badRequest = validateRequest('jobs/list-project-jobs', { params: { id: '1' }, query: { per_page: '500' } }).errors;

// 1. Errors narrow by status.
try {
  await api.mergeRequests.merge({ path: { id: 42, merge_request_iid: 1 }, body: { sha: 'abc' } }, { headers: { Prefer: 'code=409' } });
} catch (error) {
  if (isServiceApiError(error, 'merge-requests/merge') && error.status === 409) report.conflict = error.body.message;
}

// 2. Named types: a function over MergeRequest, and the named input of a method.
const describeMr = (mr: MergeRequest | SharedMergeRequest): string => '!' + mr.iid + ' ' + mr.state + ' ' + mr.title;
const input: CreateMergeRequestInput = { path: { id: 42 }, body: { source_branch: 'feature/login', target_branch: 'main', title: 'Add login page' } };
const created: MergeRequest = await api.mergeRequests.createMergeRequest(input);
report.created = describeMr(created);

// 3. A list keyed on a parameter: full records from the plain call, the simple view from its own method.
const full: MergeRequest[] = await api.mergeRequests.listMergeRequests({ query: { state: 'opened' } });
report.fullIid = full[0]?.iid;
const simple = await api.mergeRequests.listMergeRequests.simple();
report.simpleCount = simple.length;
const projects: Project[] = await api.projects.listProjects();
report.projectsArchived = projects.map((project) => project.archived);

// 4. Response metadata.
const page = await api.jobs.listProjectJobs.withResponse({ path: { id: 42 } });
report.page = [page.status, page.pagination.page, page.headers['x-page'], page.data.length > 0];

// 5. Escape hatch: a parameter the Service accepts that the contract does not list.
const opened = await api.mergeRequests.listProjectMergeRequests({ path: { id: 42 }, extra: { query: { state: 'opened' } } });
report.extraCount = opened.length;

// Server stubs on the consumer's Fastify, driven by the client; JSON responses checked against the contract.
const store: MergeRequest[] = [];
const handlers: Handlers<string> = {
  'jobs/list-project-jobs': ({ params }, { principal }) => ({ status: 200, headers: { 'x-page': 1 }, body: jobs.map((job) => ({ ...job, name: principal + ':' + String(params.id) })) }),
  'merge-requests/create-merge-request': ({ body }) => {
    // A new merge request as the Service answers it: opened, not merged, nobody assigned or reviewing yet.
    const mr: MergeRequest = { ...created, iid: store.length + 1, title: body.title, source_branch: body.source_branch, target_branch: body.target_branch, state: 'opened', assignees: [], reviewers: [], merged_at: null, closed_at: null, merge_commit_sha: null };
    store.push(mr);
    return { status: 201, body: mr };
  },
};
const app = Fastify();
await registerServiceApi(app, { handlers, validateResponses: true, authenticate: ({ credentials }) => credentials[0]?.value ?? null });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
const own = createServiceApi({ host: 'http://127.0.0.1:' + port, auth: { privateToken: 'alice' } });
report.served = (await own.jobs.listProjectJobs({ path: { id: 'a/b' } })).map((job) => job.name);
const fresh = await own.mergeRequests.createMergeRequest({ path: { id: 'a/b' }, body: { source_branch: 'fix', target_branch: 'main', title: 'Fix it' } });
report.fresh = [describeMr(fresh), fresh.assignees?.length ?? 0, fresh.merged_at, isMergeRequest(fresh)];
report.notImplemented = await own.jobs.getProjectJob({ path: { id: 1, job_id: 2 } }).catch((error: unknown) => (isServiceApiError(error) ? error.status : 'other'));
report.wrongScheme = await own.jobs.getTokenJob().catch((error: unknown) => (isServiceApiError(error) ? error.status : 'other')); // 401 before 501
await app.close();

// The stateful fake embedded in a test: what one call creates, the next one lists.
const fake = await startFake({ validateResponses: true });
const team = createServiceApi({ host: fake.url, auth: { privateToken: 'developer-token' } });
const project = { path: { id: 'my-group/my-project' } };
const countOpened = async () => (await team.mergeRequests.listProjectMergeRequests(project)).filter((mr) => mr.state === 'opened').length;
const before = await countOpened();
const mine = await team.mergeRequests.createMergeRequest({ ...project, body: { source_branch: 'feature/login', target_branch: 'feature/reset', title: 'Fix it' } });
const after = await countOpened();
const outsider = await createServiceApi({ host: fake.url, auth: { privateToken: 'outsider-token' } })
  .mergeRequests.listProjectMergeRequests({ path: { id: 'my-group/secret' } })
  .then(() => 200, (error: unknown) => (isServiceApiError(error) ? error.status : 'other'));
const data: FakeData = fake.state();
report.fake = { before, created: [mine.iid, mine.state, mine.title], after, outsider, records: data.merge_requests.length };
await fake.close();

// The mock embedded in a test: the documented answers, another one chosen with Prefer.
const mock: RunningMock = await startMock({ port: 0 });
const viaMock = createServiceApi({ host: mock.url, auth: { privateToken: 'any' }, retry: { attempts: 1 } });
const mockJobs = await viaMock.jobs.listProjectJobs({ path: { id: 42 } });
const missing = await viaMock.jobs
  .getProjectJob({ path: { id: 42, job_id: 7 } }, { headers: { Prefer: 'code=404' } })
  .then(() => 200, (error: unknown) => (isServiceApiError(error) ? error.status : 'other'));
report.mock = { jobs: mockJobs.length > 0, missing };

// The contract-checking proxy embedded in front of the mock: the answer forwarded, the call in its report.
const proxy: RunningProxy = await startProxy({ upstream: mock.url, port: 0 });
const proxied = await fetch(proxy.url + '/api/v4/projects/42/jobs', { headers: { 'PRIVATE-TOKEN': 'any' } });
await proxied.arrayBuffer();
report.proxy = { status: proxied.status, calls: proxy.report().operations['jobs/list-project-jobs']?.calls };
await proxy.close();
await mock.close();

// The document from the registry: both renditions, as files and parsed, the examples as fixtures, the HTML reference.
const resolveFile = (file: string) => createRequire(import.meta.url).resolve('${scope}/openapi/' + file);
const firstLine = (file: string) => readFileSync(resolveFile(file), 'utf8').split('\\n').find((line) => !line.startsWith('#'));
report.openapi = {
  version: documentVersion,
  renditions: [readDocument().openapi, readDocument({ rendition: '3.0' }).openapi, readDocument({ rendition: '3.0', dereferenced: true }).openapi],
  yaml: [firstLine('openapi.yaml'), firstLine('3.0/openapi.yaml'), firstLine('3.0/openapi.dereferenced.yaml')],
  yamlPath: documentPath({ rendition: '3.0', format: 'yaml' }) === resolveFile('3.0/openapi.yaml'),
  fixture: examples['jobs/list-project-jobs']['200'].ProjectJobs[0]?.status,
  sameFixture: responseExample('jobs/list-project-jobs', 200, 'ProjectJobs') === responseExample('jobs/list-project-jobs', '200', 'ProjectJobs'),
  requestExamples: Object.keys(requestExamples).length,
  reference: readFileSync(resolveFile('reference.html'), 'utf8').includes('<title>'),
};

console.log(JSON.stringify(report));
`.replaceAll("from '@service-api/", `from '${scope}/`);

/**
 * The second needs the client alone: typed calls to the API at `host` (its address written into the source, so that
 * the program needs no Node.js types), the status of a refusal.
 */
export const clientOnlySource = (
  scope: string,
  host: string,
): string => `import { createServiceApi, isServiceApiError, type MergeRequest } from '${scope}/client';

const api = createServiceApi({ host: ${JSON.stringify(host)}, auth: { privateToken: 'developer-token' } });
const mergeRequests: MergeRequest[] = await api.mergeRequests.listProjectMergeRequests({ path: { id: 'my-group/my-project' } });
const outsider = createServiceApi({ host: ${JSON.stringify(host)}, auth: { privateToken: 'outsider-token' } });
const missing = await outsider.mergeRequests
  .listProjectMergeRequests({ path: { id: 'my-group/secret' } })
  .then(() => 200, (error: unknown) => (isServiceApiError(error) ? error.status : 'other'));
console.log(JSON.stringify({ titles: mergeRequests.map((mr) => mr.title), missing }));
`;
