/**
 * `@service-api/fake/msw` with MSW's Node interceptor: the typed client and plain fetch call the API's normal URL,
 * MSW intercepts, and the stateful fake answers in this process (no listening socket).
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServiceApi, isServiceApiError } from '@service-api/client';
import { createFake, type Fake } from '../src/index.ts';
import { fakeHandlers } from '../src/msw.ts';

describe('MSW handlers backed by the in-process fake', () => {
  let fake: Fake;
  let server: ReturnType<typeof setupServer>;
  const unhandled: string[] = [];
  beforeAll(async () => {
    fake = await createFake({ validateResponses: true });
    server = setupServer(...fakeHandlers(fake, { baseUrl: 'https://gitlab.acme.example/api/v4' }));
    server.listen({ onUnhandledRequest: (request) => void unhandled.push(`${request.method} ${request.url}`) });
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    server?.close();
    await fake?.app.close();
  });

  const api = (privateToken: string) =>
    createServiceApi({ host: 'https://gitlab.acme.example', auth: { privateToken } });

  it('runs a merge-request flow on the fake’s state through the typed client', async () => {
    const developer = api('developer-token');
    await developer.repository.createFile({
      path: { id: 'my-group/my-project', file_path: 'docs/msw.md' },
      body: { branch: 'feature/msw', start_branch: 'main', content: '# msw\n', commit_message: 'Add msw doc' },
    });
    const created = await developer.mergeRequests.createMergeRequest({
      path: { id: 'my-group/my-project' },
      body: { source_branch: 'feature/msw', target_branch: 'main', title: 'Through MSW' },
    });
    expect(created).toMatchObject({ state: 'opened', title: 'Through MSW' });
    const again = await developer.mergeRequests
      .createMergeRequest({
        path: { id: 'my-group/my-project' },
        body: { source_branch: 'feature/msw', target_branch: 'main', title: 'Twice' },
      })
      .catch((error: unknown) => error);
    expect(isServiceApiError(again, 'merge-requests/create-merge-request', 409)).toBe(true);
    const listed = await developer.mergeRequests.listProjectMergeRequests({
      path: { id: 'my-group/my-project' },
      query: { 'iids[]': [created.iid] },
    });
    expect(listed.map((mr) => mr.title)).toEqual(['Through MSW']);
    expect(unhandled).toEqual([]);
  });

  it('pages .all() and follows a renamed project’s 301 at the intercepted URL', async () => {
    const developer = api('developer-token');
    const all = await developer.jobs.listProjectJobs.all({ path: { id: 1 }, query: { per_page: 2 } });
    const one = await developer.jobs.listProjectJobs({ path: { id: 1 }, query: { per_page: 100 } });
    expect(all.map((job) => job.id)).toEqual(one.map((job) => job.id));
    const moved = await developer.jobs.listProjectJobs({ path: { id: 'my-group/old-project' } });
    expect(moved.length).toBeGreaterThan(0);
  });

  it('answers plain fetch, refusals included, and leaves other URLs alone', async () => {
    const anonymous = await fetch('https://gitlab.acme.example/api/v4/projects/1/jobs');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: '401 Unauthorized' });
    expect(unhandled).toEqual([]);
    await fetch('https://elsewhere.acme.example/api/v4/projects/1/jobs').catch(() => undefined);
    expect(unhandled).toEqual(['GET https://elsewhere.acme.example/api/v4/projects/1/jobs']);
  });
});
