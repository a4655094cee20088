/**
 * Plain Fastify with the same three handlers: a PRIVATE-TOKEN presence check, and Fastify's own validation of the
 * POST body against the document's schema (ours also validates path, query and headers).
 */
import Fastify from 'fastify';
import { createMergeRequestSchema, jobsList, mergeRequestCreated, mergeRequestList } from '../lib/fixtures.ts';

/** Fastify's Ajv is strict about unknown keywords: drop the document's `x-` extensions and examples. */
function plain(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(plain);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k]) => !k.startsWith('x-') && k !== 'example' && k !== 'examples')
      .map(([k, v]) => [k, plain(v)]),
  );
}

const app = Fastify({ keepAliveTimeout: 60_000 });
app.addHook('onRequest', async (request, reply) => {
  if (!request.headers['private-token']) await reply.code(401).send({ message: '401 Unauthorized' });
});
app.get('/api/v4/projects/:id/jobs', async () => jobsList);
app.get('/api/v4/projects/:id/merge_requests', async () => mergeRequestList);
app.post(
  '/api/v4/projects/:id/merge_requests',
  { schema: { body: plain(createMergeRequestSchema) as object } },
  async (_request, reply) => reply.code(201).send(mergeRequestCreated),
);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${address}/api/v4`);
