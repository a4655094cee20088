import { slashBanner } from './lib/banner.ts';
import { compilePackage } from './lib/compile.ts';
import type { GeneratedFile } from './lib/files.ts';
import { operationModels, type OperationModel } from './lib/model.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { packageJson, packageReadme, type PackageSpec } from './lib/package.ts';
import { template } from './lib/templates.ts';
import { typesDeclarations, typesDependency, typesModule, typesPackageName } from './types.ts';
import { packageName as validatorsPackage, validatorsDeclarationsFor } from './validators.ts';

export const folder = 'generated/server';

const spec: PackageSpec = {
  folder,
  name: '@service-api/server',
  description: 'Server stubs of the Service HTTP API v4: a typed Handlers map and a Fastify adapter that validates requests',
  // The application brings its own Fastify; the adapter registers routes on it.
  peerDependencies: { fastify: '^5.0.0' },
};

interface Scheme {
  type: string;
  in?: string;
  name?: string;
  scheme?: string;
}

/** Where each security scheme of the document carries its credential (Part 1 §5). */
export function schemeLocations(doc: OpenApiDocument): Record<string, { in: string; name: string }> {
  const out: Record<string, { in: string; name: string }> = {};
  for (const [id, scheme] of Object.entries((doc.components?.securitySchemes ?? {}) as Record<string, Scheme>)) {
    if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') out[id] = { in: 'bearer', name: 'Authorization' };
    else if (scheme.type === 'apiKey' && scheme.name && ['header', 'query', 'cookie'].includes(scheme.in ?? '')) out[id] = { in: scheme.in!, name: scheme.name };
    else throw new Error(`The server cannot read security scheme "${id}" (${scheme.type}${scheme.scheme ? ` ${scheme.scheme}` : ''})`);
  }
  return out;
}

/** The server package: typed handlers and the Fastify adapter; it validates with @service-api/validators. */
export async function generateServer(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const banner = slashBanner(doc, 'server');
  const sources: GeneratedFile[] = [
    { path: `${folder}/src/types.ts`, contents: typesModule(banner) },
    { path: `${folder}/src/runtime.ts`, contents: banner + (await template('server-runtime.ts')) },
    { path: `${folder}/src/handler-types.ts`, contents: banner + (await template('server-types.ts')) },
    { path: `${folder}/src/anonymous.ts`, contents: banner + anonymousModule(operationModels(doc)) },
    { path: `${folder}/src/index.ts`, contents: banner + indexModule(doc, operationModels(doc)) },
  ];
  // The validators are compiled once, in their own package, which this one depends on at the same version.
  const withValidators = { ...spec, dependencies: { [validatorsPackage]: doc.info.version } };
  return [
    packageJson(doc, { ...withValidators, dependencies: { ...withValidators.dependencies, ...typesDependency(doc) } }),
    packageReadme(doc, spec, 'server', README),
    ...sources,
    ...compilePackage(sources, banner, { types: ['node'], declarations: await validatorsDeclarationsFor(doc, folder), packages: { [typesPackageName]: await typesDeclarations(doc) } }),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The operations callable without credentials (`{}` among their security requirements, or none). */
function anonymousModule(models: OperationModel[]): string {
  const ids = models.filter((m) => !m.authenticated).map((m) => JSON.stringify(m.operationId));
  return `/** Operations that allow anonymous access: their handlers may get no principal. */\nexport type AnonymousOperationId = ${ids.join(' | ') || 'never'};\n`;
}

function route(m: OperationModel): string {
  const styled = m.query.filter((q) => q.style);
  return JSON.stringify({
    id: m.operationId,
    method: m.method,
    path: m.path,
    ...(styled.length ? { query: Object.fromEntries(styled.map((q) => [q.name, q.style])) } : {}),
    security: m.security,
    authenticated: m.authenticated,
    json: m.response === 'json',
  });
}

function indexModule(doc: OpenApiDocument, models: OperationModel[]): string {
  return `import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Handlers } from './handler-types.js';
import { mountOperations, type AnyHandler, type AuthenticateContext, type RouteDescriptor, type SchemeLocation } from './runtime.js';
import { validateRequest, validateResponse } from '@service-api/validators';

export type { Handler, HandlerContext, HandlerInput, HandlerResult, Handlers, OperationId } from './handler-types.js';
export type { AuthenticateContext, Credential } from './runtime.js';
export type * from './types.js';
export { extractCredentials, fastifyPath, parseQuery } from './runtime.js';
export { validateRequest, validateResponse } from '@service-api/validators';

export const specVersion = ${JSON.stringify(doc.info.version)};
export const apiPrefix = '/api/v4';

/** Every operation of the document. */
export const routes: RouteDescriptor[] = [
${models.map((m) => `  ${route(m)},`).join('\n')}
];

/** Where each security scheme carries its credential. */
export const securitySchemes: Record<string, SchemeLocation> = ${JSON.stringify(schemeLocations(doc), null, 2)};

export interface ServiceApiOptions<Principal = unknown> {
  handlers: Handlers<Principal>;
  /**
   * Decides who the caller is from the credentials the operation accepts; a falsy result answers 401. Without it,
   * every operation that requires authentication answers 401.
   */
  authenticate?: (context: AuthenticateContext) => Principal | false | null | undefined | Promise<Principal | false | null | undefined>;
  /** Check JSON responses against the document (a mismatch answers 500 naming it); for tests and development. */
  validateResponses?: boolean;
  /** Largest request body in bytes (default 100 MiB). */
  bodyLimit?: number;
  /** Where the API is served (default \`/api/v4\`). */
  prefix?: string;
}

/** A Fastify plugin that registers every operation; register it with \`{ prefix: '/api/v4' }\` or use \`registerServiceApi\`. */
export const serviceApiPlugin: FastifyPluginAsync<ServiceApiOptions<unknown>> = async (scope, options) => {
  await mountOperations(scope, routes, securitySchemes, { validateRequest: validateRequest as never, validateResponse: checkResponse }, {
    handlers: options.handlers as Record<string, AnyHandler | undefined>,
    authenticate: options.authenticate,
    validateResponses: options.validateResponses,
    bodyLimit: options.bodyLimit,
  });
};

function checkResponse(operationId: string, status: number, body: unknown) {
  try {
    return validateResponse(operationId as never, status, body);
  } catch {
    return undefined;
  }
}

/** Registers every operation under \`/api/v4\` (or \`options.prefix\`) on a Fastify instance. */
export async function registerServiceApi<Principal>(app: FastifyInstance, options: ServiceApiOptions<Principal>): Promise<void> {
  // Handlers<Principal> is not a Handlers<unknown> (handlers read the principal): the plugin only passes it through.
  await app.register(serviceApiPlugin, { ...(options as unknown as ServiceApiOptions<unknown>), prefix: options.prefix ?? apiPrefix });
}
`;
}

const README = `
\`\`\`ts
import Fastify from 'fastify';
import { registerServiceApi, type Handlers } from '@service-api/server';

const handlers: Handlers<{ user: string }> = {
  'jobs/list-project-jobs': async ({ params, query }, { principal }) => ({ status: 200, body: [] }),
};
const app = Fastify();
await registerServiceApi(app, {
  handlers,
  authenticate: ({ credentials }) => (credentials[0]?.value === 'secret' ? { user: 'root' } : null),
});
await app.listen({ port: 3000 });
\`\`\`

- Every operation is registered under \`/api/v4\`; one without a handler answers 501.
- The query is read as the API writes it (\`scope[]=a&scope[]=b\`, \`not[labels]=x\`, \`range[start]=1\`); URL-encoded
  ids and file paths (\`group%2Fproject\`) arrive decoded in \`params\`; query, path and header strings are coerced
  to their documented types.
- Requests are validated with \`@service-api/validators\` (a dependency): 400 \`{ message, errors }\` naming each bad field.
- Credentials of every scheme (\`PRIVATE-TOKEN\`, \`JOB-TOKEN\`, \`Authorization: Bearer\`, \`private_token\`,
  \`access_token\`, \`job_token\`, the session cookie) are extracted; \`authenticate\` decides (401 without it).
- A handler returns \`{ status, body, headers }\`, one of the operation's documented responses; files may be a
  \`Blob\`, bytes, text or a stream. \`validateResponses: true\` checks JSON bodies against the document.
`;
