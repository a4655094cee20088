/**
 * orval's msw handlers answering orval's fetch client, offline, on the Node msw needs (>= 22.12): run by
 * orval.test.ts with NODE_LTS and tsx; prints `{ "status": …, "isArray": … }` for jobs/list-project-jobs.
 */
import { setupServer } from 'msw/node';
import { jobsListProjectJobs } from '../out/orval/api.ts';
import { getServiceHTTPAPIV4Mock } from '../out/orval/api.msw.ts';

const server = setupServer(...getServiceHTTPAPIV4Mock());
server.listen({ onUnhandledRequest: 'error' });
try {
  const jobs = await jobsListProjectJobs(1);
  console.log(JSON.stringify({ status: jobs.status, isArray: Array.isArray(jobs.data) }));
} finally {
  server.close();
}
