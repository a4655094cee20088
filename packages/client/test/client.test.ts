import { describe, expect, it } from 'vitest';
import {
  createServiceApi,
  createServiceClient,
  isServiceApiError,
  resolveBaseUrl,
  contractVersion,
  type Credentials,
} from '@service-api/client';
import { useMock } from '../../../test/support/mock.ts';

const api = useMock();

/** Records the request the client sends, then lets it through to the mock. */
function recordingFetch(seen: Request[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    seen.push(request.clone());
    return fetch(request);
  };
}

describe('generated client', () => {
  it('carries the spec version', () => {
    expect(contractVersion).toMatch(/^\d+\.\d+\.\d+/);
  });

  const kinds: [string, Credentials, string, string][] = [
    ['a private token', { privateToken: 'glpat-secret' }, 'PRIVATE-TOKEN', 'glpat-secret'],
    ['an OAuth token', { oauthToken: 'oauth-secret' }, 'Authorization', 'Bearer oauth-secret'],
    ['a token from an async function', { privateToken: async () => 'fresh-token' }, 'PRIVATE-TOKEN', 'fresh-token'],
  ];
  it.each(kinds)('authenticates with %s', async (_kind, auth, header, value) => {
    const seen: Request[] = [];
    const client = createServiceClient({ baseUrl: api(), auth, fetch: recordingFetch(seen) });
    const { data, response } = await client.GET('/projects/{id}/jobs', {
      params: { path: { id: 'my-group/my-project' }, query: { 'scope[]': ['failed'] } },
    });
    expect(response.status).toBe(200);
    expect(data?.[0]?.status).toBe('failed');
    expect(seen[0]!.headers.get(header)).toBe(value);
    expect(seen[0]!.url).toBe(`${api()}/projects/my-group%2Fmy-project/jobs?scope[]=failed`);
  });

  it('authenticates with a job token where the API accepts one', async () => {
    const seen: Request[] = [];
    const client = createServiceClient({
      baseUrl: api(),
      auth: { jobToken: 'job-secret' },
      fetch: recordingFetch(seen),
    });
    const { data, response } = await client.GET('/job');
    expect(response.status).toBe(200);
    expect(data?.id).toBe(12);
    expect(seen[0]!.headers.get('JOB-TOKEN')).toBe('job-secret');
  });

  it('gets 401 without credentials, with the error body typed', async () => {
    const client = createServiceClient({ baseUrl: api() });
    const { error, response } = await client.GET('/projects/{id}/jobs', { params: { path: { id: 42 } } });
    expect(response.status).toBe(401);
    expect(error).toEqual({ message: '401 Unauthorized' });
  });

  it('sends sudo on every request when configured', async () => {
    const seen: Request[] = [];
    const client = createServiceClient({
      baseUrl: api(),
      auth: { privateToken: 't' },
      sudo: 'jdoe',
      fetch: recordingFetch(seen),
    });
    await client.GET('/projects/{id}/jobs/{job_id}', { params: { path: { id: 42, job_id: 7 } } });
    expect(seen[0]!.headers.get('Sudo')).toBe('jdoe');
  });

  const bases: [string, { host?: string; baseUrl?: string }, string][] = [
    ['host gets /api/v4 appended', { host: 'https://service.example/' }, 'https://service.example/api/v4'],
    ['baseUrl is used as given', { baseUrl: 'https://service.example/api/v4/' }, 'https://service.example/api/v4'],
  ];
  it.each(bases)('%s', (_title, given, want) => {
    expect(resolveBaseUrl(given.host, given.baseUrl)).toBe(want);
  });

  it('refuses ambiguous or missing base URLs', () => {
    expect(() => resolveBaseUrl('https://a', 'https://b/api/v4')).toThrow('Pass either host or baseUrl, not both');
    expect(() => resolveBaseUrl(undefined, undefined)).toThrow('Pass host (the client adds /api/v4) or baseUrl');
  });
});

describe('generated client, high level, against the mock', () => {
  it('has one typed method per operation, grouped by tag', async () => {
    const client = createServiceApi({ baseUrl: api(), auth: { privateToken: 't' } });
    const jobs = await client.jobs.listProjectJobs({
      path: { id: 'my-group/my-project' },
      query: { 'scope[]': ['failed'] },
    });
    expect(jobs[0]?.status).toBe('failed');
    const single = await client.jobs.getProjectJob({ path: { id: 42, job_id: 7 } });
    expect([single.id, single.status, single.pipeline.id]).toEqual([7, 'success', 1001]);
  });

  it('reads every page with all(): the mock serves one page and says there is no next', async () => {
    const seen: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      seen.push(new Request(input, init).url);
      return fetch(input, init);
    };
    const client = createServiceApi({ baseUrl: api(), auth: { privateToken: 't' }, fetch: recording });
    const items = await client.jobs.listPipelineJobs.all({ path: { id: 42, pipeline_id: 6 } });
    expect(items.length).toBeGreaterThan(0);
    expect(seen).toHaveLength(1);
  });

  it('rejects with a typed ServiceApiError carrying the status and error body', async () => {
    const client = createServiceApi({ baseUrl: api() });
    const error = await client.jobs.listProjectJobs({ path: { id: 42 } }).catch((e: unknown) => e);
    expect(isServiceApiError(error, 'jobs/list-project-jobs')).toBe(true);
    if (isServiceApiError(error, 'jobs/list-project-jobs')) {
      expect(error.status).toBe(401);
      expect(error.body).toEqual({ message: '401 Unauthorized' });
    }
  });

  it('exposes the low-level client as raw, with the same credentials', async () => {
    const client = createServiceApi({ baseUrl: api(), auth: { jobToken: 'j' } });
    const { data } = await client.raw.GET('/job');
    expect(data?.id).toBe(12);
  });
});

describe('generated client, files and headers of the real operations, against the mock', () => {
  const seen: Request[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    seen.push(request.clone());
    return fetch(request);
  };
  const client = () => createServiceApi({ baseUrl: api(), auth: { privateToken: 't' }, fetch: recording });

  it('reads a HEAD operation as a typed object of the X-Service-* headers', async () => {
    const headers = await client().repository.getFileMetadata({
      path: { id: 42, file_path: 'app/models/key.rb' },
      query: { ref: 'main' },
    });
    expect(typeof headers['X-Service-Blob-Id']).toBe('string');
    expect(typeof headers['X-Service-Size']).toBe('number');
    expect(seen.at(-1)!.url).toContain('/repository/files/app%2Fmodels%2Fkey.rb?ref=main');
  });

  it('downloads an archive as a Blob, or as a stream', async () => {
    const blob = await client().repository.downloadArchive({ path: { id: 42 } });
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.size).toBeGreaterThan(0);
    const stream = await client().repository.downloadArchive({ path: { id: 42 } }, { as: 'stream' });
    expect(stream).toBeInstanceOf(ReadableStream);
  });

  it('uploads a project export as multipart, hashes as name[key] fields', async () => {
    const file = new File([new Uint8Array([0x1f, 0x8b, 0x08])], 'export.tar.gz', { type: 'application/gzip' });
    const created = await client().projectImportExport.importProject({
      body: { file, path: 'imported', override_params: { visibility: 'private' } },
    });
    expect(created).toMatchObject({ import_status: 'scheduled' });
    const form = await seen.at(-1)!.formData();
    expect((form.get('file') as File).name).toBe('export.tar.gz');
    expect(form.get('override_params[visibility]')).toBe('private');
  });
});

describe('generated client: errors by status, response metadata and extra parameters, against the mock', () => {
  const seen: Request[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    seen.push(request.clone());
    return fetch(request);
  };
  const client = () =>
    createServiceApi({ baseUrl: api(), auth: { privateToken: 't' }, fetch: recording, retry: { attempts: 1 } });

  const statuses: [number, string][] = [
    [409, 'SHA does not match HEAD of source branch'],
    [405, '405 Method Not Allowed'],
  ];
  it.each(statuses)('narrows a documented %i of merge-requests/merge by status', async (status, message) => {
    const error = await client()
      .mergeRequests.merge(
        { path: { id: 42, merge_request_iid: 1 }, body: { sha: 'x' } },
        { headers: { Prefer: `code=${status}` } },
      )
      .catch((e: unknown) => e);
    expect(isServiceApiError(error, 'merge-requests/merge')).toBe(true);
    expect(isServiceApiError(error, 'merge-requests/merge', status as 409)).toBe(true);
    expect(isServiceApiError(error, 'merge-requests/merge', (status === 409 ? 405 : 409) as 409)).toBe(false);
    expect(isServiceApiError(error, 'jobs/list-project-jobs')).toBe(false);
    if (isServiceApiError(error, 'merge-requests/merge') && (error.status === 409 || error.status === 405))
      expect(String(error.body.message ?? '')).toContain(message.slice(0, 10));
  });

  it('withResponse gives the body with the status, the documented headers and the pagination as numbers', async () => {
    const response = await client().jobs.listProjectJobs.withResponse({ path: { id: 42 } });
    expect(response.status).toBe(200);
    expect(Array.isArray(response.data)).toBe(true);
    expect(response.headers['x-page']).toBe('1');
    expect(response.pagination.page).toBe(1);
    expect(response.pagination.nextPage).toBeUndefined();
    expect(response.rawHeaders.get('content-type')).toContain('json');
    const single = await client().mergeRequests.merge.withResponse({ path: { id: 42, merge_request_iid: 1 } });
    expect(single).toMatchObject({ status: 200, data: { iid: expect.any(Number) }, pagination: {} });
  });

  it('sends extra query and body fields after the documented ones, and refuses a name given twice', async () => {
    await client().mergeRequests.listProjectMergeRequests({
      path: { id: 42 },
      query: { order_by: 'created_at' },
      extra: { query: { state: 'opened', search: 'login' } },
    });
    expect(seen.at(-1)!.url).toMatch(/\/projects\/42\/merge_requests\?order_by=created_at&state=opened&search=login$/);
    await client()
      .mergeRequests.createMergeRequest({
        path: { id: 42 },
        body: { source_branch: 'a', target_branch: 'main', title: 'T' },
        extra: { body: { merge_after: '2025-01-01T00:00:00Z' } },
      })
      .catch(() => undefined);
    expect(await seen.at(-1)!.json()).toEqual({
      source_branch: 'a',
      target_branch: 'main',
      title: 'T',
      merge_after: '2025-01-01T00:00:00Z',
    });
    await expect(
      client().mergeRequests.listProjectMergeRequests({
        path: { id: 42 },
        query: { order_by: 'title' },
        extra: { query: { order_by: 'x' } },
      }),
    ).rejects.toThrow('extra.query.order_by is also in query');
  });
});
