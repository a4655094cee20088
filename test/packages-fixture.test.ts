// biome-ignore-all lint/suspicious/noExplicitAny: modules generated at test time, typed by the first test, not here.
/**
 * The generated client and server packages end to end on the fixture document, whose operations have the shapes the
 * jobs domain lacks: multipart uploads, binary downloads, HEAD with X-Service-* headers, JSON bodies on PUT and
 * DELETE, deepObject, bracketed and comma-separated query parameters, an anonymous operation.
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.ts';
import { generateFixturePackages } from './support/fixture-packages.ts';

/** Modules generated at test time: their types are checked by the first test, not here. */
type Module = Record<string, any>;
let client: Module;
let server: Module;
let app: FastifyInstance;
let base = '';
let folder = '';
const seen: { op: string; input: any; principal: unknown }[] = [];

beforeAll(async () => {
  folder = await generateFixturePackages('fixture-packages');
  client = (await import(pathToFileURL(join(folder, 'client', 'dist', 'index.js')).href)) as Module;
  server = (await import(pathToFileURL(join(folder, 'server', 'dist', 'index.js')).href)) as Module;
  const record = (op: string) => (input: any, ctx: any) => {
    seen.push({ op, input, principal: ctx.principal });
    return undefined;
  };
  app = Fastify({ logger: { level: 'error' } });
  await server.registerServiceApi(app, {
    validateResponses: true,
    authenticate: ({ credentials }: { credentials: { scheme: string; value: string }[] }) =>
      credentials.some((c) => c.value === 'secret') ? { via: credentials.map((c) => c.scheme) } : null,
    handlers: {
      'jobs/list-project-jobs': (input: any, ctx: any) => {
        record('jobs/list-project-jobs')(input, ctx);
        const page = Number(input.query.page ?? 1);
        const next =
          page < 3
            ? `<${base}/projects/${encodeURIComponent(input.params.id)}/jobs?page=${page + 1}&per_page=2>; rel="next"`
            : undefined;
        return {
          status: 200,
          headers: next ? { Link: next } : {},
          body: [
            { id: page * 10 + 1, status: 'failed' },
            { id: page * 10 + 2, status: 'success' },
          ],
        };
      },
      'merge-requests/list-project-merge-requests': (input: any, ctx: any) => {
        record('merge-requests/list-project-merge-requests')(input, ctx);
        return { status: 200, body: [{ id: 1, iid: 1, title: 'A', state: 'opened' }] };
      },
      'merge-requests/merge': (input: any, ctx: any) => {
        record('merge-requests/merge')(input, ctx);
        if (input.params.merge_request_iid === 9) return { status: 405, body: { message: '405 Method Not Allowed' } };
        return { status: 200, body: { id: 5, iid: input.params.merge_request_iid, title: 'T', state: 'merged' } };
      },
      'repository/get-file-metadata': (input: any) => ({
        status: 200,
        headers: { 'X-Service-Size': 12, 'X-Service-File-Name': input.params.file_path.split('/').pop() },
      }),
      'repository/get-raw-file': (input: any) => ({
        status: 200,
        body: new Blob([`contents of ${input.params.file_path}`], { type: 'text/plain' }),
      }),
      'repository/delete-file': (input: any, ctx: any) => {
        record('repository/delete-file')(input, ctx);
        return { status: 204 };
      },
      'project-import-export/import-project': async (input: any) => ({
        status: 201,
        body: { id: 77, name: `${input.body.path}:${await input.body.file.text()}:${input.body.overwrite}` },
      }),
      'users/get-version': () => ({ status: 200, body: { version: '1' } }),
      'jobs/get-token-job': () => ({ status: 200, body: { id: 'not a number', status: 'x' } }),
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  base = `http://127.0.0.1:${address.port}/api/v4`;
}, 180_000); // generating four packages takes about 8 s of CPU: generous for a machine shared with the other steps of npm test

afterAll(async () => {
  await app?.close();
});

const api = (extra: object = {}) =>
  client.createServiceApi({ baseUrl: base, auth: { privateToken: 'secret' }, ...extra });

it('types the client and the handlers: inputs, bodies, files, HEAD headers, errors (test/fixtures/consumers/)', async () => {
  const files = ['fixture-client.ts', 'fixture-server.ts'].map((name) => join(folder, name));
  for (const file of files) await copyFile(join(ROOT, 'test', 'fixtures', 'consumers', file.split('/').pop()!), file);
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: ['node'],
    skipDefaultLibCheck: true,
  });
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file?.fileName.split('/').pop()} line ${d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1 : '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
  expect(diagnostics).toEqual([]);
}, 120_000);

describe('client and server on the fixture document', () => {
  it('paginate over Link rel="next" with iterate(), all() and a page cap', async () => {
    const ids = [];
    for await (const job of api().jobs.listProjectJobs.iterate({
      path: { id: 'g/p' },
      query: { 'scope[]': ['failed', 'success'] },
    }))
      ids.push(job.id);
    expect(ids).toEqual([11, 12, 21, 22, 31, 32]);
    expect((await api().jobs.listProjectJobs.all({ path: { id: 1 } }, { maxPages: 2 })).length).toBe(4);
    const first = seen.find((s) => s.op === 'jobs/list-project-jobs')!;
    expect(first.input.params.id).toBe('g/p');
    expect(first.input.query['scope[]']).toEqual(['failed', 'success']);
  });

  it('send deepObject, bracketed and comma-separated query parameters, and the server parses them', async () => {
    await api().mergeRequests.listProjectMergeRequests({
      path: { id: 3 },
      query: { not: { labels: 'bug', author_id: 4 }, 'range[start]': 1, labels: ['a', 'b'] },
    });
    const { input } = seen.filter((s) => s.op === 'merge-requests/list-project-merge-requests').pop()!;
    expect(input.query).toEqual({ not: { labels: 'bug', author_id: 4 }, 'range[start]': 1, labels: ['a', 'b'] });
    expect(input.params.id).toBe('3'); // [integer, string]: a string matches, so it is not coerced
  });

  it('send a JSON body on PUT and DELETE and decode URL-encoded file paths', async () => {
    expect(
      await api().mergeRequests.merge({ path: { id: 'g/p', merge_request_iid: 2 }, body: { squash: true } }),
    ).toMatchObject({ iid: 2, state: 'merged' });
    await expect(
      api().repository.deleteFile({
        path: { id: 1, file_path: 'dir/a b.txt' },
        body: { branch: 'main', commit_message: 'rm' },
      }),
    ).resolves.toBeUndefined();
    const { input } = seen.filter((s) => s.op === 'repository/delete-file').pop()!;
    expect(input.params.file_path).toBe('dir/a b.txt');
    expect(input.body).toEqual({ branch: 'main', commit_message: 'rm' });
  });

  it('upload multipart from a Blob and download a file as a Blob or a stream', async () => {
    const created = await api().projectImportExport.importProject({
      body: { file: new File(['zip!'], 'export.tar.gz'), path: 'new', overwrite: true },
    });
    expect(created).toEqual({ id: 77, name: 'new:zip!:true' });
    const blob = await api().repository.getRawFile({ path: { id: 1, file_path: 'src/main.ts' } });
    expect(await blob.text()).toBe('contents of src/main.ts');
    const stream = await api().repository.getRawFile({ path: { id: 1, file_path: 'x' } }, { as: 'stream' });
    expect(await new Response(stream).text()).toBe('contents of x');
  });

  it('return the X-Service-* headers of a HEAD operation as a typed object', async () => {
    const head = await api().repository.getFileMetadata({
      path: { id: 1, file_path: 'a/b.txt' },
      query: { ref: 'main' },
    });
    expect(head).toEqual({
      'X-Service-Size': 12,
      'X-Service-File-Name': 'b.txt',
      'X-Service-Last-Commit-Id': undefined,
    });
  });

  it('throw ServiceApiError with the status and the documented error body', async () => {
    const error = await api()
      .mergeRequests.merge({ path: { id: 1, merge_request_iid: 9 } })
      .catch((e: unknown) => e);
    expect(client.isServiceApiError(error, 'merge-requests/merge')).toBe(true);
    expect(error).toMatchObject({
      status: 405,
      body: { message: '405 Method Not Allowed' },
      operationId: 'merge-requests/merge',
    });
  });

  const schemes: [string, Record<string, string>, string, string[]][] = [
    ['PRIVATE-TOKEN', { 'PRIVATE-TOKEN': 'secret' }, '', ['privateTokenHeader']],
    ['private_token', {}, '?private_token=secret', ['privateTokenQuery']],
    ['Bearer', { Authorization: 'Bearer secret' }, '', ['bearerToken']],
    ['access_token', {}, '?access_token=secret', ['oauthAccessTokenQuery']],
    ['the session cookie', { Cookie: '_service_session=secret' }, '', ['sessionCookie']],
  ];
  it.each(schemes)(
    'extract credentials sent as %s and let authenticate decide',
    async (_title, headers, query, via) => {
      const response = await fetch(`${base}/projects/1/merge_requests${query}`, { headers });
      expect(response.status).toBe(200);
      expect(seen.filter((s) => s.op === 'merge-requests/list-project-merge-requests').pop()!.principal).toEqual({
        via,
      });
    },
  );

  it('answer 401 without credentials or with a scheme the operation does not accept', async () => {
    expect((await fetch(`${base}/projects/1/merge_requests`)).status).toBe(401);
    expect((await fetch(`${base}/projects/1/merge_requests`, { headers: { 'JOB-TOKEN': 'secret' } })).status).toBe(401);
    expect(await (await fetch(`${base}/job`, { headers: { 'JOB-TOKEN': 'wrong' } })).json()).toEqual({
      message: '401 Unauthorized',
    });
    expect((await fetch(`${base}/version`)).status).toBe(200);
  });

  it('answer 400 naming the bad field, 501 without a handler, 500 for a response that breaks the contract', async () => {
    const bad = await fetch(`${base}/projects/1/jobs?per_page=500`, { headers: { 'PRIVATE-TOKEN': 'secret' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('400 Bad request - query parameter per_page must be <= 100');
    const body = await fetch(`${base}/projects/1/merge_requests/2/merge`, {
      method: 'PUT',
      headers: { 'PRIVATE-TOKEN': 'secret', 'content-type': 'application/json' },
      body: '{"squash":"yes"}',
    });
    expect((await body.json()).message).toContain('body field squash must be boolean');
    const missing = await fetch(`${base}/projects/1/repository/files/x`, { headers: { 'PRIVATE-TOKEN': 'secret' } });
    expect((await missing.json()).message).toBe('501 Not Implemented - no handler for repository/get-file');
    const broken = await fetch(`${base}/job`, { headers: { 'JOB-TOKEN': 'secret' } });
    expect(broken.status).toBe(500);
    expect((await broken.json()).message).toContain('/id must be integer');
  });
});
