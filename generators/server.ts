import { slashBanner } from './lib/banner.ts';
import { compilePackage } from './lib/compile.ts';
import type { GeneratedFile } from './lib/files.ts';
import { listOperations } from './lib/document.ts';
import { fileLimits, inputShape } from './lib/input-shape.ts';
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
  description:
    'Server stubs of the Service HTTP API v4: a typed Handlers map and a Fastify adapter that validates requests',
  // The application brings its own Fastify; the adapter registers routes on it.
  peerDependencies: { fastify: '^5.0.0' },
  valueExport: 'registerServiceApi',
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
    if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer')
      out[id] = { in: 'bearer', name: 'Authorization' };
    else if (scheme.type === 'apiKey' && scheme.name && ['header', 'query', 'cookie'].includes(scheme.in ?? ''))
      out[id] = { in: scheme.in!, name: scheme.name };
    else
      throw new Error(
        `The server cannot read security scheme "${id}" (${scheme.type}${scheme.scheme ? ` ${scheme.scheme}` : ''})`,
      );
  }
  return out;
}

/** The server package: typed handlers and the Fastify adapter; it validates with @service-api/validators. */
export async function generateServer(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const banner = slashBanner(doc, 'server');
  const sources: GeneratedFile[] = [
    { path: `${folder}/src/types.ts`, contents: typesModule(banner) },
    { path: `${folder}/src/runtime.ts`, contents: banner + (await template('server-runtime.ts')) },
    { path: `${folder}/src/server-cors.ts`, contents: banner + (await template('server-cors.ts')) },
    { path: `${folder}/src/server-answer.ts`, contents: banner + (await template('server-answer.ts')) },
    { path: `${folder}/src/server-input.ts`, contents: banner + (await template('server-input.ts')) },
    { path: `${folder}/src/server-json.ts`, contents: banner + (await template('server-json.ts')) },
    { path: `${folder}/src/server-parsers.ts`, contents: banner + (await template('server-parsers.ts')) },
    { path: `${folder}/src/server-tolerance.ts`, contents: banner + (await template('server-tolerance.ts')) },
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
    ...compilePackage(sources, banner, {
      types: ['node'],
      declarations: await validatorsDeclarationsFor(doc, folder),
      packages: { [typesPackageName]: await typesDeclarations(doc) },
    }),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The operations callable without credentials (`{}` among their security requirements, or none). */
function anonymousModule(models: OperationModel[]): string {
  const ids = models.filter((m) => !m.authenticated).map((m) => JSON.stringify(m.operationId));
  return `/** Operations that allow anonymous access: their handlers may get no principal. */\nexport type AnonymousOperationId = ${ids.join(' | ') || 'never'};\n`;
}

function route(doc: OpenApiDocument, m: OperationModel, credentialQuery: string[]): string {
  const styled = m.query.filter((q) => q.style);
  const entry = listOperations(doc).find((e) => e.operationId === m.operationId)!;
  const files = fileLimits(doc, entry);
  return JSON.stringify({
    id: m.operationId,
    method: m.method,
    path: m.path,
    ...(styled.length ? { query: Object.fromEntries(styled.map((q) => [q.name, q.style])) } : {}),
    security: m.security,
    authenticated: m.authenticated,
    json: m.response === 'json',
    ...(m.body && m.body.kind !== 'binary'
      ? { body: { kind: m.body.kind, type: m.body.mediaType, required: m.body.required } }
      : {}),
    ...(m.headers.length ? { headers: m.headers.map((h) => h.name.toLowerCase()) } : {}),
    input: inputShape(doc, entry, credentialQuery),
    ...(files ? { files } : {}),
  });
}

function indexModule(doc: OpenApiDocument, models: OperationModel[]): string {
  const credentialQuery = Object.values(schemeLocations(doc))
    .filter((s) => s.in === 'query')
    .map((s) => s.name);
  return `import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Handlers } from './handler-types.js';
import { mountOperations, type AccessLogEntry, type AnyHandler, type AuthenticateContext, type RouteDescriptor, type SchemeLocation, type ServiceApiLimits, type ToleranceReport } from './runtime.js';
import { validateRequest, validateResponse } from '@service-api/validators';

export type { Handler, HandlerContext, HandlerInput, HandlerResult, Handlers, OperationId } from './handler-types.js';
export type { AccessLogEntry, AuthenticateContext, Credential, MatchedOperation, RouteDescriptor, ServiceApiLimits, ToleranceReport, Tolerated } from './runtime.js';
export type * from './types.js';
export { defaultLimits, DISCARD_BYTES, DISCARD_FACTOR, errorBody, essence, extractCredentials, fastifyPath, formFields, InputError, normalizeInput, operationMatcher, parseBody, parseForm, parseJsonBody, parseQuery, serviceApiServerOptions, sourceOf, Tolerances } from './runtime.js';
export { validateRequest, validateResponse } from '@service-api/validators';

export const specVersion = ${JSON.stringify(doc.info.version)};
export const apiPrefix = '/api/v4';

/** Every operation of the document. */
export const routes: RouteDescriptor[] = [
${models.map((m) => `  ${route(doc, m, credentialQuery)},`).join('\n')}
];

/** Where each security scheme carries its credential. */
export const securitySchemes: Record<string, SchemeLocation> = ${JSON.stringify(schemeLocations(doc), null, 2)};

export interface ServiceApiOptions<Principal = unknown> {
  handlers: Handlers<Principal>;
  /**
   * Decides who the caller is from the credentials the operation accepts; a falsy result answers 401. Called only
   * when the request sent at least one such credential: an anonymous request gets 401 where the operation requires
   * authentication, and no principal where it allows anonymous access. Without it, every operation that requires
   * authentication answers 401.
   */
  authenticate?: (context: AuthenticateContext) => Principal | false | null | undefined | Promise<Principal | false | null | undefined>;
  /** Check JSON responses against the document (a mismatch answers 500 naming it); for tests and development. */
  validateResponses?: boolean;
  /**
   * Bounds on every input (see \`defaultLimits\`): JSON and form bodies 16 MiB, multipart bodies 100 MiB (a file
   * with a documented maximum, such as the 200 KiB avatar, gets 400 above it), query string 16 KiB and 1000
   * parameters, 1000 body fields, 20 problems listed per 400.
   */
  limits?: Partial<ServiceApiLimits>;
  /** Refuse what the Service tolerates (string booleans, writes in the query, forms, unknown fields) with a 400 naming the field. */
  strict?: boolean;
  /** Called with what a request's tolerated input was (at most \`limits.errors\` entries and their count); also logged at \`info\`. */
  onTolerated?: (report: ToleranceReport, request: FastifyRequest) => void;
  /** CORS for browsers: every answer allows the calling origin (with credentials) and exposes the API's headers; a preflight (\`OPTIONS\`) on a known path answers 204 with its methods. */
  cors?: boolean;
  /** Called once per answer under the prefix (401, 404 and 405 included) with \`{ method, url, status, operationId, ms, tolerated }\`, for an access log. */
  accessLog?: (entry: AccessLogEntry, request: FastifyRequest) => void;
  /** Where the API is served (default \`/api/v4\`). */
  prefix?: string;
}

/** A Fastify plugin that registers every operation; register it with \`{ prefix: '/api/v4' }\` or use \`registerServiceApi\`. */
export const serviceApiPlugin: FastifyPluginAsync<ServiceApiOptions<unknown>> = async (scope, options) => {
  await mountOperations(scope, routes, securitySchemes, { validateRequest: validateRequest as never, validateResponse: checkResponse }, {
    handlers: options.handlers as Record<string, AnyHandler | undefined>,
    authenticate: options.authenticate,
    validateResponses: options.validateResponses,
    limits: options.limits,
    strict: options.strict,
    onTolerated: options.onTolerated,
    cors: options.cors,
    accessLog: options.accessLog,
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
import { registerServiceApi, serviceApiServerOptions, type Handlers } from '@service-api/server';

const handlers: Handlers<{ user: string }> = {
  'jobs/list-project-jobs': async ({ params, query }, { principal }) => ({ status: 200, body: [] }),
};
const app = Fastify(serviceApiServerOptions({ logger: true }));
await registerServiceApi(app, {
  handlers,
  authenticate: ({ credentials }) => (credentials[0].value === 'secret' ? { user: 'root' } : null),
  onTolerated: (report) => metrics.count('tolerated', report.count), // optional; also logged at info
});
await app.listen({ port: 3000 });
\`\`\`

- Every operation is registered under \`/api/v4\`. The query is read as the API writes it (\`scope[]=a&scope[]=b\`,
  \`not[labels]=x\`, \`range[start]=1\`); URL-encoded ids and file paths (\`group%2Fproject\`) arrive decoded in
  \`params\`; values are coerced to their documented types and validated: 400 \`{ message, errors }\` naming each bad
  field (with \`@service-api/validators\`, a dependency).
- Credentials of every scheme (\`PRIVATE-TOKEN\`, \`JOB-TOKEN\`, \`Authorization: Bearer\`, \`private_token\`,
  \`access_token\`, \`job_token\`, the session cookie) are extracted; \`authenticate\` decides (401 without it), see
  below.
- JSON answers, errors included, say exactly \`Content-Type: application/json\`, as the Service does.
- A handler returns \`{ status, body, headers }\`, one of the operation's documented responses; files may be a
  \`Blob\`, bytes, text or a stream. \`validateResponses: true\` checks JSON bodies against the document. A deeply frozen
  plain record (\`Object.freeze\` all through) sent again is not serialized again: its JSON text is kept from its
  second response on, also inside a list.

### \`authenticate\`

\`authenticate({ operationId, credentials, request })\` is called only for a request that sent at least one credential
of the schemes the operation accepts: \`credentials\` is never empty, so \`credentials[0].value\` is always there and
no test of \`credentials\` can let an anonymous caller in. A falsy result (or promise of one) answers 401, also on an
operation open to anonymous callers (a wrong token is never read as no token). An anonymous request is not passed
to it: 401 where the operation requires authentication; the handler runs with \`principal\` undefined where the
operation allows anonymous access.

\`\`\`ts
const tokens = new Map([['secret', { user: 'root' }]]);
await registerServiceApi(app, {
  handlers,
  // Every credential must be valid: one wrong token among several is a 401.
  authenticate: ({ credentials }) => (credentials.every((c) => tokens.has(c.value)) ? tokens.get(credentials[0].value) : undefined),
});
\`\`\`

### Order of work and hostile input

1. Before any body is read: a path no operation has answers 404, a method the path does not have 405 with \`Allow\`;
   the query string is parsed (bounded), the credentials are read, \`authenticate\` runs (401), a missing handler
   answers 501, a body of a media type the operation does not read answers 415 and a declared \`Content-Length\` above
   the limit answers 413 (400 with the file's message where the operation documents a file maximum).
2. The body is parsed: JSON (\`__proto__\` and \`constructor.prototype\` refused), forms and multipart by bounded
   parsers that build objects without prototypes and refuse the field names \`__proto__\`, \`constructor\` and
   \`prototype\`. An empty body is no body, whatever its \`Content-Type\`. Malformed JSON, multipart (no boundary,
   truncated) or percent-escapes answer 400, and so does a name sent both plain and bracketed
   (\`custom_attributes=a&custom_attributes[b]=c\`). A cookie that cannot be decoded is ignored (a broken session
   cookie is no credential, and a valid token beside it is used).
3. Tolerances (below), validation, the handler.

A refused request whose body is still arriving is answered once the body is read and discarded, so that clients that
read the answer only after their upload (Node's \`fetch\`) get it; then the connection is closed. At most
\`DISCARD_BYTES\` (1 MiB) is discarded before a 401, 404, 405 or 415, and \`DISCARD_FACTOR\` (4) times the limit
before a 413 (or the file's 400); a body declared larger is not read: the answer is sent and the connection closed at
once.

Every error body is the API's \`{ message }\` (\`"401 Unauthorized"\`); a 400 adds \`errors\` (\`{ in, field, problem }\`),
at most \`limits.errors\`, with \`error_count\` when there were more. A known path with another method answers 405
with \`Allow\`. \`serviceApiServerOptions(options)\` gives the Fastify server options that complete this: router
errors (a malformed escape in the path: 400; an overlong path parameter: 414) and Node's client errors (headers above
Node's 16 KiB \`maxHeaderSize\`: 431) in the API's shape, path parameters up to 4096 characters (file paths), JSON
prototype poisoning refused, a 300 s request timeout.

### Limits (\`limits\`, all optional)

| Limit | Default | Why |
|---|---|---|
| \`jsonBody\` | 16 MiB | JSON and form bodies: a 1,048,576-character description or a repository file's content, escaped |
| \`multipartBody\` | 100 MiB | multipart bodies of operations without a documented file maximum (project imports); a documented maximum (the avatar's 200 KiB) answers 400 with the API's message above it |
| \`queryLength\` | 16 KiB | the raw query string (414 above) |
| \`queryParameters\` | 1000 | query parameters (400 above) |
| \`bodyFields\` | 1000 | fields of a form or multipart body (400 above) |
| \`jsonValues\` | 100,000 | values (objects, arrays, scalars) in a JSON body: validation costs time per value (400 above) |
| \`errors\` | 20 | problems listed in a 400 and tolerances in a report; the total is counted |

Parsing is linear in the input (repeated names are appended in place).

### Tolerant by default, strict on request

By default the server accepts what the Service accepts, and reports it:

- booleans from \`true/false/True/False/1/0\` and integers from digit strings, in the query, form fields, multipart
  fields and string values of JSON bodies, where the schema says boolean or integer;
- write parameters from the query string, a form-encoded body (\`curl --data\`), multipart or JSON, merged (the body wins
  on a conflict);
- a path parameter repeated in the body or the query, in any spelling (\`file_path=docs%2Fa.txt\` beside
  \`/files/docs%2Fa.txt\`), ignored: the path's value is used;
- unknown query parameters and body fields, ignored: handlers only ever receive documented fields.

Each tolerated request is reported once: \`onTolerated(report, request)\` with
\`{ operationId, method, url, tolerated: [{ in, field, problem }], count }\` (at most \`limits.errors\` entries) and a
log line at \`info\` through the Fastify logger. With \`strict: true\` every tolerance is a 400 \`{ message, errors }\`
naming the field, for teams who want their client checked against the contract's exact form.

### Browsers and access log

- \`cors: true\`: every answer carries \`Access-Control-Allow-Origin\` (the caller's \`Origin\`, with credentials, so the
  session cookie works) and exposes the API's headers (\`Link\`, \`X-Page\`, \`X-Next-Page\`, …); a preflight
  (\`OPTIONS\`) on a known path answers 204 with the path's methods and the headers asked for.
- \`accessLog(entry, request)\`: called once per answer under the prefix (401, 404 and 405 included) with
  \`{ method, url, status, operationId, ms, tolerated }\` (\`tolerated\`: the report \`onTolerated\` received).
`;
