/**
 * What the third-party client tests share: which operation a request reaches (the server package's own route table
 * in a Fastify router), and the fake they call, started on a data set, listening on a free port and logging each
 * request it answered.
 */
import Fastify, { type HTTPMethods } from 'fastify';
import { apiPrefix, routes, serviceApiServerOptions } from '@service-api/server';
import { fastifyPath } from '@service-api/server/internal';
import { createFake, type FakeOptions } from '../../packages/fake/src/index.ts';
import { fakeTokens } from './gitbeaker-calls.ts';

export { fakeIds } from './gitbeaker-calls.ts';

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

/** The token of the fake's default data set that an operation needs (default: its administrator's). */
export function fakeToken(operationId: string): string {
  return fakeTokens[operationId] ?? 'admin-token';
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
