import { slashBanner } from './lib/banner.ts';
import { compilePackage } from './lib/compile.ts';
import type { GeneratedFile } from './lib/files.ts';
import { operationModels, type OperationModel } from './lib/model.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { packageJson, packageReadme, type PackageSpec } from './lib/package.ts';
import { template } from './lib/templates.ts';
import { typesSource } from './types.ts';

export const folder = 'generated/client';

const spec: PackageSpec = {
  folder,
  name: '@service-api/client',
  description: 'Typed client of the Service HTTP API v4: openapi-fetch with generated types, and one typed method per operation',
  // openapi-fetch is 0.x and its types change between minors: the exact version the client was generated against.
  dependencies: { 'openapi-fetch': '0.17.0' },
};

interface ApiKeyScheme {
  type: string;
  in?: string;
  name?: string;
  scheme?: string;
}

/** How the client sends each kind of credential, read from the document's security schemes. */
export function credentialTransport(doc: OpenApiDocument): Record<'privateToken' | 'oauthToken' | 'jobToken', { header: string; prefix: string }> {
  const schemes = (doc.components?.securitySchemes ?? {}) as Record<string, ApiKeyScheme>;
  const header = (id: string): string => {
    const scheme = schemes[id];
    if (scheme?.type !== 'apiKey' || scheme.in !== 'header' || !scheme.name) {
      throw new Error(`The client needs the header security scheme "${id}" in components.securitySchemes`);
    }
    return scheme.name;
  };
  const bearer = schemes.bearerToken;
  if (bearer?.type !== 'http' || bearer.scheme?.toLowerCase() !== 'bearer') {
    throw new Error('The client needs the http bearer security scheme "bearerToken" in components.securitySchemes');
  }
  return {
    privateToken: { header: header('privateTokenHeader'), prefix: '' },
    oauthToken: { header: 'Authorization', prefix: 'Bearer ' },
    jobToken: { header: header('jobTokenHeader'), prefix: '' },
  };
}

/** The typed client package: sources in `src/`, compiled `dist/`, package.json and README. */
export async function generateClient(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const banner = slashBanner(doc, 'client');
  const models = operationModels(doc);
  if (models.some((m) => m.group === 'raw')) throw new Error('A tag named "raw" would hide api.raw, the low-level client');
  const sources: GeneratedFile[] = [
    { path: `${folder}/src/types.ts`, contents: banner + (await typesSource(doc)) },
    { path: `${folder}/src/runtime.ts`, contents: banner + (await template('client-runtime.ts')) },
    { path: `${folder}/src/operation-types.ts`, contents: banner + (await template('operation-types.ts')) },
    { path: `${folder}/src/operations.ts`, contents: banner + operationsModule(models) },
    { path: `${folder}/src/index.ts`, contents: banner + indexModule(doc, credentialTransport(doc)) },
  ];
  return [packageJson(doc, spec), packageReadme(doc, spec, 'client', readme(models)), ...sources, ...compilePackage(sources, banner)];
}

function descriptor(m: OperationModel): string {
  const fields: Record<string, unknown> = { id: m.operationId, method: m.method, path: m.path, response: m.response };
  if (m.body) fields.body = m.body.kind;
  const styled = m.query.filter((q) => q.style);
  if (styled.length) fields.query = Object.fromEntries(styled.map((q) => [q.name, q.style]));
  if (m.responseHeaders.length) fields.headers = Object.fromEntries(m.responseHeaders.map((h) => [h.name, h.type]));
  return JSON.stringify(fields);
}

function methodType(m: OperationModel): string {
  const id = JSON.stringify(m.operationId);
  const optional = m.inputOptional ? 'true' : 'false';
  if (m.response === 'headers') {
    const headers = m.responseHeaders.map((h) => `${JSON.stringify(h.name)}?: ${h.type}`).join('; ');
    return `HeadMethod<${id}, ${optional}, { ${headers} }>`;
  }
  if (m.response === 'binary') return `BinaryMethod<${id}, ${optional}>`;
  return m.pagination ? `PaginatedMethod<${id}, ${optional}>` : `Method<${id}, ${optional}>`;
}

function operationsModule(models: OperationModel[]): string {
  const groups = new Map<string, OperationModel[]>();
  for (const m of models) groups.set(m.group, [...(groups.get(m.group) ?? []), m]);
  const api = [...groups]
    .map(([group, ops]) => {
      const methods = ops.map((m) => `    /** ${m.summary.replace(/\*\//g, '*\\/')} (\`${m.method} ${m.path}\`, \`${m.operationId}\`).${m.deprecated ? ' @deprecated' : ''} */\n    ${m.name}: ${methodType(m)};`);
      return `  ${group}: {\n${methods.join('\n')}\n  };`;
    })
    .join('\n');
  const table = models.map((m) => `  [${JSON.stringify(m.group)}, ${JSON.stringify(m.name)}, ${descriptor(m)}, ${m.pagination ? 'true' : 'false'}],`).join('\n');
  return `import type { CallOptions, OperationDescriptor } from './runtime.js';
import type { Input, Item, OperationId, Success } from './operation-types.js';

type Args<K extends OperationId, Optional extends boolean, Extra = unknown> = Optional extends true
  ? [input?: Input<K>, options?: CallOptions & Extra]
  : [input: Input<K>, options?: CallOptions & Extra];

/** A typed method: resolves to the success body, rejects with a \`ServiceApiError\` outside 2xx. */
export type Method<K extends OperationId, Optional extends boolean> = (...args: Args<K, Optional>) => Promise<Success<K>>;

/** A list method, with every page on demand: \`pages()\` (arrays), \`iterate()\` (items) and \`all()\`, up to \`maxPages\`. */
export type PaginatedMethod<K extends OperationId, Optional extends boolean> = Method<K, Optional> & {
  pages(...args: Args<K, Optional, { maxPages?: number }>): AsyncGenerator<Item<K>[], void, undefined>;
  iterate(...args: Args<K, Optional, { maxPages?: number }>): AsyncGenerator<Item<K>, void, undefined>;
  all(...args: Args<K, Optional, { maxPages?: number }>): Promise<Item<K>[]>;
};

/** A download: a \`Blob\` by default, or the body stream with \`{ as: 'stream' }\`. */
export type BinaryMethod<K extends OperationId, Optional extends boolean> = <As extends 'blob' | 'stream' = 'blob'>(
  ...args: Args<K, Optional, { as?: As }>
) => Promise<As extends 'stream' ? ReadableStream<Uint8Array> : Blob>;

/** A HEAD operation: resolves to its documented headers, numbers and booleans converted. */
export type HeadMethod<K extends OperationId, Optional extends boolean, Headers> = (...args: Args<K, Optional>) => Promise<Headers>;

/** One method per operation, grouped by tag. */
export interface ServiceApiMethods {
${api}
}

/** [group, method, descriptor, paginated] of every operation. */
export const operationTable: [string, string, OperationDescriptor, boolean][] = [
${table}
];
`;
}

function indexModule(doc: OpenApiDocument, transport: ReturnType<typeof credentialTransport>): string {
  return `import createClient, { type Client } from 'openapi-fetch';
import { operationTable, type ServiceApiMethods } from './operations.js';
import type { ErrorBody, OperationId } from './operation-types.js';
import { ServiceApiError, Transport, type CallInput, type CallOptions, type CredentialTransport, type RuntimeOptions } from './runtime.js';
import type { paths } from './types.js';

export type { components, operations, paths } from './types.js';
export type { ErrorBody, ErrorStatus, Input, Item, OperationId, Success } from './operation-types.js';
export type { BinaryMethod, HeadMethod, Method, PaginatedMethod, ServiceApiMethods } from './operations.js';
export { ServiceApiError, nextLink, retryDelay, serializeQuery } from './runtime.js';
export type { CallOptions, Credentials, RetryOptions, TokenSource } from './runtime.js';

export const specVersion = ${JSON.stringify(doc.info.version)};
export const apiPrefix = '/api/v4';

export interface ServiceClientOptions extends Omit<RuntimeOptions, 'baseUrl'> {
  /** Scheme and host of the instance, e.g. \`https://service.example\`; the client adds \`/api/v4\`. */
  host?: string;
  /** The full API root, e.g. \`https://service.example/api/v4\`; use instead of \`host\`. */
  baseUrl?: string;
}

/** The low-level openapi-fetch client: \`client.GET('/projects/{id}/jobs', { params: { path: { id } } })\`. */
export type ServiceClient = Client<paths>;

/** The typed methods by tag, plus \`raw\`, the low-level client sharing credentials, retries and redirects. */
export type ServiceApi = ServiceApiMethods & { raw: ServiceClient };

const credentialHeaders: CredentialTransport = ${JSON.stringify(transport)};

export function resolveBaseUrl(host: string | undefined, baseUrl: string | undefined): string {
  if (host && baseUrl) throw new TypeError('Pass either host or baseUrl, not both');
  if (baseUrl) return baseUrl.replace(/\\/+$/, '');
  if (host) return \`\${host.replace(/\\/+$/, '')}\${apiPrefix}\`;
  throw new TypeError('Pass host (the client adds /api/v4) or baseUrl');
}

function transportFor(options: ServiceClientOptions): Transport {
  const { host, baseUrl, ...rest } = options;
  return new Transport({ ...rest, baseUrl: resolveBaseUrl(host, baseUrl) }, credentialHeaders);
}

/** Creates the low-level typed client (openapi-fetch) with credentials, sudo, retries and redirects. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const transport = transportFor(options);
  return createClient<paths>({ baseUrl: transport.baseUrl, fetch: transport.fetch });
}

/** Creates the high-level client: \`api.jobs.listProjectJobs({ path: { id: 'group/project' } })\`. */
export function createServiceApi(options: ServiceClientOptions): ServiceApi {
  const transport = transportFor(options);
  const api: Record<string, Record<string, unknown>> = { raw: createClient<paths>({ baseUrl: transport.baseUrl, fetch: transport.fetch }) as never };
  for (const [group, name, op, paginated] of operationTable) {
    const method = (input?: CallInput, options?: CallOptions) => transport.call(op, input, options);
    if (paginated) {
      const pages = (input?: CallInput, options?: CallOptions & { maxPages?: number }) => transport.pages(op, input, options);
      const iterate = async function* (input?: CallInput, options?: CallOptions & { maxPages?: number }) {
        for await (const page of pages(input, options)) yield* page;
      };
      const all = async (input?: CallInput, options?: CallOptions & { maxPages?: number }) => {
        const items: unknown[] = [];
        for await (const page of pages(input, options)) items.push(...page);
        return items;
      };
      Object.assign(method, { pages, iterate, all });
    }
    (api[group] ??= {})[name] = method;
  }
  return api as unknown as ServiceApi;
}

/** Whether \`error\` is a \`ServiceApiError\` (of that operation, with its documented error bodies, when given). */
export function isServiceApiError<K extends OperationId>(error: unknown, operationId: K): error is ServiceApiError<ErrorBody<K>>;
export function isServiceApiError(error: unknown): error is ServiceApiError;
export function isServiceApiError(error: unknown, operationId?: string): boolean {
  return error instanceof ServiceApiError && (operationId === undefined || error.operationId === operationId);
}
`;
}

function readme(models: OperationModel[]): string {
  const first = models[0];
  const paged = models.find((m) => m.pagination);
  const path = (m: OperationModel) => m.pathParams.map((p) => `${p}: ${p === 'id' ? "'my-group/my-project'" : '1'}`).join(', ');
  const call = (m: OperationModel) => `api.${m.group}.${m.name}(${m.pathParams.length ? `{ path: { ${path(m)} } }` : ''})`;
  return `
\`\`\`ts
import { createServiceApi, createServiceClient, isServiceApiError } from '@service-api/client';

const api = createServiceApi({ host: 'https://service.example', auth: { privateToken: 'glpat-…' } });
${first ? `const result = await ${call(first)};` : ''}
${paged ? `for await (const item of ${call(paged).replace(/\($/, '')}`.replace(`.${paged.name}(`, `.${paged.name}.iterate(`) + `) console.log(item);` : ''}

// Low level (openapi-fetch), same options:
const client = createServiceClient({ baseUrl: 'https://service.example/api/v4' });
\`\`\`

- Options: \`host\` (\`/api/v4\` is added) or \`baseUrl\`; \`auth\`: \`{ privateToken }\` (\`PRIVATE-TOKEN\`), \`{ oauthToken }\`
  (Bearer) or \`{ jobToken }\` (\`JOB-TOKEN\`), each a string or an async function; \`sudo\` globally or per call
  (\`{ sudo }\` as the second argument); \`retry: { attempts, maxDelayMs, baseDelayMs, sleep }\`; \`fetch\`.
- Every method takes \`{ path, query, headers, body }\` as its operation documents them, resolves to the success body
  and rejects with \`ServiceApiError\` (\`status\`, \`body\`, \`operationId\`); narrow it with
  \`isServiceApiError(error, operationId)\` to type \`body\` as that operation's documented error bodies.
- 429 and 503 are retried (3 attempts, \`Retry-After\` honoured, capped). A 301 (renamed project) is followed on the
  API's origin by repeating the same method and body. Browsers hide manual redirects: pass \`redirect: 'follow'\`.
- Paginated operations (\`x-pagination\`) also have \`.pages()\`, \`.iterate()\` and \`.all()\`, which follow
  \`Link: rel="next"\` (offset and keyset) or \`x-next-page\`, up to \`maxPages\` (default 100).
- Uploads take a \`Blob\`/\`File\` in the body object; downloads resolve to a \`Blob\`, or a stream with \`{ as: 'stream' }\`;
  HEAD operations resolve to their documented \`X-Service-*\` headers.
`;
}
