/**
 * The consumer program of the pack-and-install test: it uses each published package the way another team would,
 * from an npm install of the tarballs. `__MOCK__` is replaced with the mock's API root.
 */
export const consumerSource = `import Fastify from 'fastify';
import { createServiceApi, createServiceClient, isServiceApiError, specVersion, type Item } from '@service-api/client';
import { registerServiceApi, type Handlers } from '@service-api/server';
import { isJob, validateRequest, validateResponse } from '@service-api/validators';

const MOCK = '__MOCK__';
const report: Record<string, unknown> = { specVersion };

// Client against the mock: typed methods, typed errors and the low-level client.
const api = createServiceApi({ baseUrl: MOCK, auth: { privateToken: async () => 'token' } });
const jobs = await api.jobs.listProjectJobs({ path: { id: 'my-group/my-project' }, query: { 'scope[]': ['failed'] } });
const first: Item<'jobs/list-project-jobs'> | undefined = jobs[0];
report.firstJobStatus = first?.status;
report.jobsValid = validateResponse('jobs/list-project-jobs', 200, jobs).valid;
report.isJob = isJob(first);
const anonymous = createServiceApi({ baseUrl: MOCK });
try {
  await anonymous.jobs.listProjectJobs({ path: { id: 42 } });
} catch (error) {
  if (isServiceApiError(error, 'jobs/list-project-jobs')) report.anonymous = [error.status, 'error' in error.body ? error.body.error : error.body.message]; // the union of documented error bodies
}
const low = await createServiceClient({ baseUrl: MOCK, auth: { jobToken: 'job' } }).GET('/job');
report.tokenJobId = low.data?.id;
report.badRequest = validateRequest('jobs/list-project-jobs', { params: { id: '1' }, query: { per_page: '500' } }).errors;

// Server stubs on the consumer's Fastify, driven by the client.
const handlers: Handlers<string> = {
  'jobs/list-project-jobs': ({ params }, { principal }) => ({ status: 200, body: jobs.map((job) => ({ ...job, name: principal + ':' + String(params.id) })) }),
};
const app = Fastify();
await registerServiceApi(app, { handlers, authenticate: ({ credentials }) => credentials[0]?.value ?? null });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
const own = createServiceApi({ host: 'http://127.0.0.1:' + port, auth: { privateToken: 'alice' } });
report.served = (await own.jobs.listProjectJobs({ path: { id: 'a/b' } })).map((job) => job.name);
report.notImplemented = await own.jobs.getProjectJob({ path: { id: 1, job_id: 2 } }).catch((error: unknown) => (isServiceApiError(error) ? error.status : 'other'));
report.wrongScheme = await own.jobs.getTokenJob().catch((error: unknown) => (isServiceApiError(error) ? error.status : 'other')); // 401 before 501
await app.close();

console.log(JSON.stringify(report));
`;
