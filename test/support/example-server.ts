/**
 * A Fastify app on the generated server package where every operation answers its first documented example
 * (lowest 2xx status) and `authenticate` accepts any token: what a team puts on a network first.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  registerServiceApi,
  serviceApiServerOptions,
  type Handlers,
  type ServiceApiOptions,
} from '@service-api/server';
import { resolve } from '../../packages/server/src/openapi-model.ts';
import { listOperations, successStatus } from '../../generators/lib/document.ts';
import type { Reference } from '../../packages/server/src/openapi-model.ts';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { publishedDocument } from './documents.ts';

interface Media {
  example?: unknown;
  examples?: Record<string, { value?: unknown } | Reference>;
}

/** The first documented example of a media type, if any. */
export function firstExampleOf(doc: OpenApiDocument, media: Media | undefined): unknown {
  if (!media) return undefined;
  const first = Object.values(media.examples ?? {})[0];
  if (first) return resolve<{ value?: unknown }>(doc, first).value;
  return media.example;
}

/** Handlers answering each operation's first documented success example. */
export function exampleHandlers(doc: OpenApiDocument = publishedDocument()): Handlers {
  const handlers: Record<string, unknown> = {};
  for (const entry of listOperations(doc)) {
    const status = successStatus(entry) ?? '200';
    const response = resolve<{ content?: Record<string, Media> }>(doc, entry.operation.responses[status] as Reference);
    const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
    const example = firstExampleOf(doc, media);
    const json = type === undefined || /json/i.test(type);
    handlers[entry.operationId] = () => ({
      status: Number(status),
      body: type === undefined ? undefined : json ? structuredClone(example) : new Uint8Array([0x1f, 0x8b, 0x08, 0x00]),
      headers: type && !json ? { 'content-type': type } : undefined,
    });
  }
  return handlers as Handlers;
}

export interface ExampleServer {
  app: FastifyInstance;
  origin: string;
  close(): Promise<void>;
}

/** Starts the example server on a free port of 127.0.0.1. */
export async function startExampleServer(
  options: Partial<ServiceApiOptions> = {},
  fastifyOptions: FastifyServerOptions = { logger: false },
): Promise<ExampleServer> {
  const app = Fastify(serviceApiServerOptions(fastifyOptions));
  await registerServiceApi(app, {
    handlers: exampleHandlers(),
    authenticate: ({ credentials }) => (credentials.length > 0 ? { user: 'any' } : null),
    ...options,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return { app, origin, close: () => app.close() };
}
