/** @service-api/server on Fastify with three in-memory handlers (the documented examples) and an accepting authenticate. */
import Fastify from 'fastify';
import { registerServiceApi, type Handlers } from '@service-api/server';
import { jobsList, mergeRequestCreated, mergeRequestList } from '../lib/fixtures.ts';

const handlers: Handlers<{ user: string }> = {
  'jobs/list-project-jobs': () => ({ status: 200, body: jobsList }) as never,
  'merge-requests/list-project-merge-requests': () => ({ status: 200, body: mergeRequestList }) as never,
  'merge-requests/create-merge-request': () => ({ status: 201, body: mergeRequestCreated }) as never,
};
const app = Fastify({ keepAliveTimeout: 60_000 });
await registerServiceApi(app, {
  handlers,
  authenticate: ({ credentials }) => (credentials.length ? { user: 'bench' } : null),
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${address}/api/v4`);
