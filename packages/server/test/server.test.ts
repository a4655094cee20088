/**
 * The generated server stubs with a small in-memory jobs domain, driven end to end through the generated client.
 * `Handlers` is type-checked here against the real document's types (npm run typecheck covers this file).
 */
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApi, isServiceApiError } from '@service-api/client';
import { registerServiceApi, type Handlers } from '@service-api/server';
import { resolve } from '@service-api/server/internal';
import type { components } from '@service-api/types';
import { publishedDocument } from '../../../test/support/documents.ts';

type Job = components['schemas']['Job'];

/** The documented example jobs are the store. */
function exampleJobs(): Job[] {
  const doc = publishedDocument() as unknown as {
    paths: Record<
      string,
      {
        get: {
          responses: Record<
            string,
            { content: Record<string, { examples: Record<string, { $ref?: string; value?: unknown }> }> }
          >;
        };
      }
    >;
    components: { examples: Record<string, { value: unknown }> };
  };
  const example = Object.values(
    doc.paths['/projects/{id}/jobs']!.get.responses['200']!.content['application/json']!.examples,
  )[0]!;
  const { value } = resolve<{ value?: unknown }>(doc, example);
  return structuredClone(value) as Job[];
}

const projects = new Map<string, Job[]>([['my-group/my-project', exampleJobs()]]);
const users = new Map([
  ['user-token', 'jdoe'],
  ['job-token', 'ci'],
]);
const sudoSeen: unknown[] = [];

const handlers: Handlers<{ user: string }> = {
  'jobs/list-project-jobs': ({ params, query, headers }, { principal }) => {
    sudoSeen.push([principal.user, headers.sudo ?? query.sudo]);
    const jobs = projects.get(String(params.id));
    if (!jobs) return { status: 404, body: { message: '404 Project Not Found' } };
    const scoped = query['scope[]'] ? jobs.filter((j) => query['scope[]']!.includes(j.status)) : jobs;
    const perPage = query.per_page ?? 20;
    const page = query.page ?? 1;
    const slice = scoped.slice((page - 1) * perPage, page * perPage);
    const more = page * perPage < scoped.length;
    const next = `</api/v4/projects/${encodeURIComponent(String(params.id))}/jobs?page=${page + 1}&per_page=${perPage}>; rel="next"`;
    return {
      status: 200,
      body: slice,
      headers: { 'x-page': String(page), ...(more ? { Link: next, 'x-next-page': String(page + 1) } : {}) },
    };
  },
  'jobs/get-project-job': ({ params }) => {
    const job = projects.get(String(params.id))?.find((j) => j.id === params.job_id);
    return job ? { status: 200, body: job } : { status: 404, body: { message: '404 Job Not Found' } };
  },
  'jobs/get-token-job': (_input, { principal }) => {
    const job = projects.get('my-group/my-project')![0]!;
    return { status: 200, body: { ...job, user: { ...job.user, username: principal.user } } };
  },
};

let app: FastifyInstance;
let origin = '';

beforeAll(async () => {
  app = Fastify();
  await registerServiceApi(app, {
    handlers,
    validateResponses: true,
    authenticate: ({ credentials }) => {
      const user = credentials.map((c) => users.get(c.value)).find(Boolean);
      return user ? { user } : null;
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await app?.close();
});

describe('server stubs with an in-memory jobs domain, through the generated client', () => {
  const client = () => createServiceApi({ host: origin, auth: { privateToken: 'user-token' } });

  it('lists, filters and pages through jobs by URL-encoded project path', async () => {
    const all = projects.get('my-group/my-project')!;
    const listed = await client().jobs.listProjectJobs.all({
      path: { id: 'my-group/my-project' },
      query: { per_page: 1 },
    });
    expect(listed.map((j) => j.id)).toEqual(all.map((j) => j.id));
    const status = all[0]!.status;
    const scoped = await client().jobs.listProjectJobs({
      path: { id: 'my-group/my-project' },
      query: { 'scope[]': [status] },
    });
    expect(scoped.every((j) => j.status === status)).toBe(true);
  });

  it('gets one job, with path parameters decoded and coerced', async () => {
    const id = projects.get('my-group/my-project')![0]!.id;
    expect(await client().jobs.getProjectJob({ path: { id: 'my-group/my-project', job_id: id } })).toMatchObject({
      id,
    });
  });

  it('passes sudo through, from the client options or per call', async () => {
    await createServiceApi({ host: origin, auth: { privateToken: 'user-token' }, sudo: 'root' }).jobs.listProjectJobs({
      path: { id: 'my-group/my-project' },
    });
    await client().jobs.listProjectJobs({ path: { id: 'my-group/my-project' } }, { sudo: 'other' });
    expect(sudoSeen.slice(-2)).toEqual([
      ['jdoe', 'root'],
      ['jdoe', 'other'],
    ]);
  });

  it('authenticates a job token on the operation that accepts one, and refuses it elsewhere', async () => {
    const ci = createServiceApi({ host: origin, auth: { jobToken: 'job-token' } });
    expect((await ci.jobs.getTokenJob()).user.username).toBe('ci');
    await expect(ci.jobs.listProjectJobs({ path: { id: 'my-group/my-project' } })).rejects.toMatchObject({
      status: 401,
    });
  });

  it('answers documented errors as typed ServiceApiErrors', async () => {
    const error = await client()
      .jobs.listProjectJobs({ path: { id: 'nope/nope' } })
      .catch((e: unknown) => e);
    expect(isServiceApiError(error, 'jobs/list-project-jobs') && error.body).toEqual({
      message: '404 Project Not Found',
    });
    await expect(createServiceApi({ host: origin }).jobs.listProjectJobs({ path: { id: 1 } })).rejects.toMatchObject({
      status: 401,
      body: { message: '401 Unauthorized' },
    });
  });

  it('answers 400 naming the field, and 501 for an operation without a handler', async () => {
    await expect(client().jobs.listProjectJobs({ path: { id: 1 }, query: { per_page: 500 } })).rejects.toMatchObject({
      status: 400,
      body: { message: '400 Bad request - query parameter per_page must be <= 100' },
    });
    await expect(client().jobs.listPipelineBridges({ path: { id: 1, pipeline_id: 2 } })).rejects.toMatchObject({
      status: 501,
    });
  });
});

describe('a streamed body arrives whole, whatever the handler or authenticate returns', () => {
  const pieces = ['first piece, ', 'second piece, ', 'last piece'];
  /** A stream whose pieces come a turn of the event loop apart: the reply is still open when the handler returns. */
  const slowly = <T>(make: (text: string) => T) =>
    new ReadableStream<T>({
      async start(controller) {
        for (const piece of pieces) {
          await new Promise((resolve) => setImmediate(resolve));
          controller.enqueue(make(piece));
        }
        controller.close();
      },
    });
  const web = () => slowly((text) => new TextEncoder().encode(text));
  const node = () => Readable.fromWeb(slowly((text) => text) as import('node:stream/web').ReadableStream<string>);
  const bodies = { web, node } as const;
  let streaming: FastifyInstance;
  let base = '';
  beforeAll(async () => {
    streaming = Fastify();
    const reply = (kind: string) => ({
      status: 200 as const,
      body: bodies[kind as keyof typeof bodies](),
      headers: { 'content-type': 'application/octet-stream' },
    });
    await registerServiceApi(streaming, {
      handlers: {
        // `sha` picks the kind of stream; `path` whether the handler is asynchronous.
        'repository/download-archive': async ({ query }) => {
          if (query.path === 'sync') return reply(query.sha ?? 'web');
          await new Promise((resolve) => setImmediate(resolve));
          return reply(query.sha ?? 'web');
        },
      },
      // Asynchronous: the handler runs in a promise even when it is synchronous itself.
      authenticate: async ({ credentials }) => (credentials.length > 0 ? { user: 'jdoe' } : null),
    });
    await streaming.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(streaming.server.address() as { port: number }).port}/api/v4/projects/1/repository/archive`;
  });
  afterAll(async () => {
    await streaming?.close();
  });

  it.each([
    ['an async handler, a web ReadableStream', 'web', 'async'],
    ['an async handler, a Node Readable', 'node', 'async'],
    ['async authentication, a web ReadableStream', 'web', 'sync'],
    ['async authentication, a Node Readable', 'node', 'sync'],
  ])('%s', async (_title, kind, path) => {
    const response = await fetch(`${base}?sha=${kind}&path=${path}`, { headers: { 'private-token': 'token' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(pieces.join(''));
  });
});
