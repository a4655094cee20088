/**
 * What the third-party client tests share: which operation a request reaches (the server package's own route table
 * in a Fastify router), and the fake they call, started on a data set, listening on a free port and logging each
 * request it answered.
 */
import Fastify, { type HTTPMethods } from 'fastify';
import { apiPrefix, fastifyPath, routes, serviceApiServerOptions } from '../../generated/server/dist/index.js';
import { createFake, type FakeOptions } from '../../fake/src/index.ts';
import type { CallIds } from './gitbeaker-calls.ts';

const router = Fastify(serviceApiServerOptions({ logger: false }));
for (const route of routes) {
  router.route({
    method: route.method as HTTPMethods,
    url: `${apiPrefix}${fastifyPath(route.path)}`,
    exposeHeadRoute: false,
    handler: (_request, reply) => reply.header('x-operation', route.id).code(204).send(),
  });
}

/** The operations that request lines (`METHOD /api/v4/path?query → status …`) reached, in order. */
export async function reached(lines: string[]): Promise<string[]> {
  const operations: string[] = [];
  for (const line of lines) {
    const match = /^([A-Z]+) (\/\S*) → /.exec(line);
    if (!match) continue;
    const answer = await router.inject({ method: match[1] as HTTPMethods, url: match[2]! });
    const operation = answer.headers['x-operation'];
    if (typeof operation === 'string') operations.push(operation);
  }
  return operations;
}

/** The tokens of the fake's default data set that an operation needs (default: its administrator's). */
const fakeTokens: Record<string, string> = {
  // Runner creation takes a token with the create_runner scope (the group owner's); migration 1 is Dev's, read by its owner.
  'runners/create-user-runner': 'runner-creator-token',
  ...Object.fromEntries(
    ['get-migration', 'list-migration-entities', 'get-migration-entity', 'get-entity-failures'].map((id) => [
      `bulk-imports/${id}`,
      'developer-token',
    ]),
  ),
};

export function fakeToken(operationId: string): string {
  return fakeTokens[operationId] ?? 'admin-token';
}

/** The records of the fake's default data set that the calls name (`readmeBlob`: see `LoggedFake`). */
export function fakeIds(readmeBlob: string): CallIds {
  return {
    project: 'my-group/my-project',
    numericProject: 1,
    namespace: 'my-group',
    namespacePath: 'my-group',
    pipeline: 11,
    bridgePipeline: 12,
    job: 101,
    migration: 1,
    entity: 2,
    file: 'README.md',
    blob: readmeBlob,
    branch: 'feature/login',
    user: 4,
    impersonationToken: 1,
    twoFactorUser: 3,
    group: 1,
    hook: 1,
    sharingGroup: 2,
    sharedGroup: 1,
    badge: 1,
    groupMember: 2,
    projectMember: 3,
    runner: 3,
    integration: 'chat-notifications',
    mergeRequest: 1,
    deletedMergeRequest: 2,
    approvalRule: 1,
  };
}

export interface LoggedFake {
  origin: string;
  /** The blob id of README.md on the default branch of project 1. */
  readmeBlob: string;
  close(): Promise<void>;
}

/** Starts the fake (responses validated against the contract) on a free port of 127.0.0.1, logging into `lines`. */
export async function startLoggedFake(options: FakeOptions, lines: string[]): Promise<LoggedFake> {
  const fake = await createFake({ validateResponses: true, ...options });
  fake.app.addHook('onResponse', async (request, reply) => {
    lines.push(`${request.method} ${request.url.split('?', 1)[0]} → ${reply.statusCode}`);
  });
  await fake.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(fake.app.server.address() as { port: number }).port}`;
  const readme = await fetch(`${origin}/api/v4/projects/1/repository/files/README.md?ref=main`, {
    headers: { 'PRIVATE-TOKEN': 'admin-token' },
  });
  const readmeBlob = ((await readme.json()) as { blob_id: string }).blob_id;
  lines.length = 0;
  return { origin, readmeBlob, close: () => fake.app.close() };
}
