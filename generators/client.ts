import { slashBanner } from './lib/banner.ts';
import { compilePackage } from './lib/compile.ts';
import type { GeneratedFile } from './lib/files.ts';
import { operationModels, type OperationModel } from './lib/model.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { packageJson, packageReadme, type PackageSpec } from './lib/package.ts';
import { pascalCase } from './lib/naming.ts';
import { template } from './lib/templates.ts';
import { typesDeclarations, typesDependency, typesModule, typesPackageName } from './types.ts';

export const folder = 'generated/client';

const spec: PackageSpec = {
  folder,
  name: '@service-api/client',
  description:
    'Typed client of the Service HTTP API v4: openapi-fetch with generated types, and one typed method per operation',
  // openapi-fetch is 0.x and its types change between minors: the exact version the client was generated against.
  dependencies: { 'openapi-fetch': '0.17.0' },
  valueExport: 'createServiceApi',
};

interface ApiKeyScheme {
  type: string;
  in?: string;
  name?: string;
  scheme?: string;
}

/** How the client sends each kind of credential, read from the document's security schemes. */
export function credentialTransport(
  doc: OpenApiDocument,
): Record<'privateToken' | 'oauthToken' | 'jobToken', { header: string; prefix: string }> {
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
  if (models.some((m) => m.group === 'raw'))
    throw new Error('A tag named "raw" would hide api.raw, the low-level client');
  const sources: GeneratedFile[] = [
    { path: `${folder}/src/types.ts`, contents: typesModule(banner) },
    { path: `${folder}/src/runtime.ts`, contents: banner + (await template('client-runtime.ts')) },
    { path: `${folder}/src/operations.ts`, contents: banner + operationsModule(models, inputNames(doc, models)) },
    { path: `${folder}/src/index.ts`, contents: banner + indexModule(doc, credentialTransport(doc)) },
  ];
  const manifest = { ...spec, dependencies: { ...spec.dependencies, ...typesDependency(doc) } };
  const compiled = compilePackage(sources, banner, { packages: { [typesPackageName]: await typesDeclarations(doc) } });
  return [packageJson(doc, manifest), packageReadme(doc, spec, 'client', readme(models)), ...sources, ...compiled];
}

/** The name of each operation's input type: `CreateMergeRequestInput`, prefixed with the group where two clash. */
function inputNames(doc: OpenApiDocument, models: OperationModel[]): Map<string, string> {
  const taken = new Set(Object.keys(doc.components?.schemas ?? {}));
  const short = new Map<string, number>();
  for (const m of models) short.set(m.name, (short.get(m.name) ?? 0) + 1);
  const names = new Map<string, string>();
  for (const m of models) {
    let name = `${pascalCase(m.name)}Input`;
    if (short.get(m.name)! > 1 || taken.has(name)) name = `${pascalCase(m.group)}${pascalCase(m.name)}Input`;
    if (taken.has(name)) throw new Error(`The input type ${name} of ${m.operationId} clashes with another type`);
    taken.add(name);
    names.set(m.operationId, name);
  }
  return names;
}

function descriptor(m: OperationModel): string {
  const fields: Record<string, unknown> = { id: m.operationId, method: m.method, path: m.path, response: m.response };
  if (m.body) fields.body = m.body.kind;
  const styled = m.query.filter((q) => q.style);
  if (styled.length) fields.query = Object.fromEntries(styled.map((q) => [q.name, q.style]));
  if (m.responseHeaders.length) fields.headers = Object.fromEntries(m.responseHeaders.map((h) => [h.name, h.type]));
  if (m.errorStatuses.length) fields.errors = m.errorStatuses;
  return JSON.stringify(fields);
}

/** The documented success headers as an object type (`{ "x-page"?: string }`). */
function headersType(m: OperationModel): string {
  return m.responseHeaders.length
    ? `{ ${m.responseHeaders.map((h) => `${JSON.stringify(h.name)}?: ${h.type}`).join('; ')} }`
    : 'Record<string, never>';
}

/** The success body with schema names qualified by the namespace import `T`. */
function qualified(type: string): string {
  return type.replace(/\b(?<![."'])([A-Z]\w*)\b(?!["'])/g, (name) => (['Omit'].includes(name) ? name : `T.${name}`));
}

function methodType(m: OperationModel, input: string): string {
  const id = JSON.stringify(m.operationId);
  const optional = m.inputOptional ? 'true' : 'false';
  const headers = headersType(m);
  if (m.response === 'headers') return `HeadMethod<${input}, ${optional}, ${headers}>`;
  if (m.response === 'binary') return `BinaryMethod<${input}, ${optional}, ${headers}>`;
  if (m.variants)
    return m.pagination
      ? `PaginatedVariantMethod<${id}, ${input}, ${optional}, ${headers}>`
      : `VariantMethod<${id}, ${input}, ${optional}, ${headers}>`;
  const success = m.successType ? qualified(m.successType) : `Success<${id}>`;
  if (m.pagination) {
    const item =
      m.successType?.endsWith('[]') && !m.successType.includes('|')
        ? qualified(m.successType.slice(0, -2))
        : `Item<${id}>`;
    return `PaginatedMethod<${input}, ${item}, ${optional}, ${headers}>`;
  }
  return `Method<${input}, ${success}, ${optional}, ${headers}>`;
}

/** The input type of an operation: its \`Input<K>\` with \`extra\` (parameters the contract does not list). */
function inputType(m: OperationModel, name: string): string {
  const extra =
    m.body && m.body.kind !== 'binary'
      ? 'ExtraParameters & { body?: { readonly [name: string]: unknown } }'
      : 'ExtraParameters';
  return `/** The input of \`${m.operationId}\`: \`${m.method} ${m.path}\`. */\nexport interface ${name} extends Input<${JSON.stringify(m.operationId)}> {\n  /** Parameters the Service accepts that the contract does not list, sent as given. */\n  extra?: ${extra};\n}`;
}

/** The record a variant operation returns for the input \`I\` (\`x-variants\`). */
function variantType(m: OperationModel): string {
  const v = m.variants!;
  const wrap = (type: string) => (v.list ? `(${qualified(type)})[]` : qualified(type));
  let type = wrap(v.otherwise);
  for (const value of [...v.values].reverse())
    type = `When<I, ${JSON.stringify(v.parameter)}, ${JSON.stringify(value.value)}, ${wrap(value.type)}, ${type}>`;
  return `  ${JSON.stringify(m.operationId)}: ${type};`;
}

function operationsModule(models: OperationModel[], inputs: Map<string, string>): string {
  const groups = new Map<string, OperationModel[]>();
  for (const m of models) groups.set(m.group, [...(groups.get(m.group) ?? []), m]);
  const api = [...groups]
    .map(([group, ops]) => {
      const methods = ops.map(
        (m) =>
          `    /** ${m.summary.replace(/\*\//g, '*\\/')} (\`${m.method} ${m.path}\`, \`${m.operationId}\`).${m.deprecated ? ' @deprecated' : ''} */\n    ${m.name}: ${methodType(m, inputs.get(m.operationId)!)};`,
      );
      return `  ${group}: {\n${methods.join('\n')}\n  };`;
    })
    .join('\n');
  const table = models
    .map(
      (m) =>
        `  [${JSON.stringify(m.group)}, ${JSON.stringify(m.name)}, ${descriptor(m)}, ${m.pagination ? 'true' : 'false'}],`,
    )
    .join('\n');
  const variants = models.filter((m) => m.variants);
  const inputDecls = models.map((m) => inputType(m, inputs.get(m.operationId)!)).join('\n\n');
  return `import type { ApiResponse, CallOptions, OperationDescriptor } from './runtime.js';
import type * as T from './types.js';
import type { ExtraParameters, Input, Item, Success, When } from './types.js';

type Args<In, Optional extends boolean, Extra = unknown> = Optional extends true
  ? [input?: In, options?: CallOptions & Extra]
  : [input: In, options?: CallOptions & Extra];
type PageOptions = { maxPages?: number };

/**
 * A typed method: resolves to the success body and rejects with a \`ServiceApiError\` outside 2xx;
 * \`withResponse(...)\` resolves to \`{ data, status, headers, rawHeaders, pagination, url }\`.
 */
export interface Method<In, Out, Optional extends boolean, Headers = Record<string, never>> {
  (...args: Args<In, Optional>): Promise<Out>;
  withResponse(...args: Args<In, Optional>): Promise<ApiResponse<Out, Headers>>;
}

/** A list method, with every page on demand: \`pages()\` (arrays), \`iterate()\` (items) and \`all()\`, up to \`maxPages\`. */
export interface PaginatedMethod<In, ItemType, Optional extends boolean, Headers = Record<string, never>> extends Method<In, ItemType[], Optional, Headers> {
  pages(...args: Args<In, Optional, PageOptions>): AsyncGenerator<ItemType[], void, undefined>;
  iterate(...args: Args<In, Optional, PageOptions>): AsyncGenerator<ItemType, void, undefined>;
  all(...args: Args<In, Optional, PageOptions>): Promise<ItemType[]>;
}

/** For each operation with \`x-variants\`: the success body for the input \`I\` the call passes. */
export interface VariantResults<I> {
${variants.map(variantType).join('\n')}
}
type VariantId = keyof VariantResults<unknown>;
type ElementOf<L> = L extends readonly (infer E)[] ? E : never;

/**
 * A method whose success body depends on a parameter (\`x-variants\`): \`view: 'simple'\` gives the reduced record,
 * no parameter the full one, a parameter whose value the type does not fix gives either. (\`I\` is \`never\` for a
 * call without input.)
 */
export interface VariantMethod<K extends VariantId, In, Optional extends boolean, Headers = Record<string, never>> {
  <const I extends In = never>(...args: Args<I, Optional>): Promise<VariantResults<I>[K]>;
  withResponse<const I extends In = never>(...args: Args<I, Optional>): Promise<ApiResponse<VariantResults<I>[K], Headers>>;
}

/** A list method with \`x-variants\`: items typed by the call, as for \`VariantMethod\`. */
export interface PaginatedVariantMethod<K extends VariantId, In, Optional extends boolean, Headers = Record<string, never>> extends VariantMethod<K, In, Optional, Headers> {
  pages<const I extends In = never>(...args: Args<I, Optional, PageOptions>): AsyncGenerator<ElementOf<VariantResults<I>[K]>[], void, undefined>;
  iterate<const I extends In = never>(...args: Args<I, Optional, PageOptions>): AsyncGenerator<ElementOf<VariantResults<I>[K]>, void, undefined>;
  all<const I extends In = never>(...args: Args<I, Optional, PageOptions>): Promise<ElementOf<VariantResults<I>[K]>[]>;
}

/** A download: a \`Blob\` by default, or the body stream with \`{ as: 'stream' }\`. */
export interface BinaryMethod<In, Optional extends boolean, Headers = Record<string, never>> {
  <As extends 'blob' | 'stream' = 'blob'>(...args: Args<In, Optional, { as?: As }>): Promise<As extends 'stream' ? ReadableStream<Uint8Array> : Blob>;
  withResponse<As extends 'blob' | 'stream' = 'blob'>(...args: Args<In, Optional, { as?: As }>): Promise<ApiResponse<As extends 'stream' ? ReadableStream<Uint8Array> : Blob, Headers>>;
}

/** A HEAD operation: resolves to its documented headers, numbers and booleans converted. */
export interface HeadMethod<In, Optional extends boolean, Headers> {
  (...args: Args<In, Optional>): Promise<Headers>;
  withResponse(...args: Args<In, Optional>): Promise<ApiResponse<Headers, Headers>>;
}

${inputDecls}

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
import { ServiceApiError, Transport, type CallInput, type CallOptions, type CredentialTransport, type RuntimeOptions } from './runtime.js';
import type { ErrorResponses, ErrorStatus, OperationId, paths } from './types.js';

export type * from './types.js';
export type * from './operations.js';
export { ServiceApiError, nextLink, readPagination, retryDelay, serializeQuery } from './runtime.js';
export type {
  ApiResponse,
  CallOptions,
  Credentials,
  Pagination,
  RetryInfo,
  RetryOptions,
  ServiceApiErrorKind,
  TokenSource,
} from './runtime.js';

/**
 * The errors an operation documents, one member per status: \`error.status === 409\` narrows \`error.body\` to the
 * body documented for 409. \`S\` picks some statuses only.
 */
export type ServiceApiErrorOf<K extends OperationId, S extends ErrorStatus<K> = ErrorStatus<K>> = {
  [Status in S & number]: ServiceApiError<ErrorResponses<K>[Status], Status, K>;
}[S & number];

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
    Object.assign(method, { withResponse: (input?: CallInput, options?: CallOptions) => transport.callWithResponse(op, input, options) });
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

/**
 * Whether \`error\` is a \`ServiceApiError\`: of any status; or of that operation with a status it documents (then
 * \`error.status\` narrows \`error.body\`); or of that operation with that status.
 */
export function isServiceApiError<K extends OperationId, S extends ErrorStatus<K> & number>(error: unknown, operationId: K, status: S): error is ServiceApiErrorOf<K, S>;
export function isServiceApiError<K extends OperationId>(error: unknown, operationId: K): error is ServiceApiErrorOf<K>;
export function isServiceApiError(error: unknown): error is ServiceApiError;
export function isServiceApiError(error: unknown, operationId?: string, status?: number): boolean {
  if (!(error instanceof ServiceApiError)) return false;
  if (operationId === undefined) return true;
  return error.operationId === operationId && error.documented && (status === undefined || error.status === status);
}
`;
}

function readme(models: OperationModel[]): string {
  const first = models[0];
  const paged = models.find((m) => m.pagination);
  const path = (m: OperationModel) =>
    m.pathParams.map((p) => `${p}: ${p === 'id' ? "'my-group/my-project'" : '1'}`).join(', ');
  const call = (m: OperationModel) =>
    `api.${m.group}.${m.name}(${m.pathParams.length ? `{ path: { ${path(m)} } }` : ''})`;
  const iterate = (m: OperationModel) => call(m).replace(/\($/, '').replace(`.${m.name}(`, `.${m.name}.iterate(`);
  return `
\`\`\`ts
import { createServiceApi, createServiceClient, isServiceApiError } from '@service-api/client';

const api = createServiceApi({ host: 'https://service.example', auth: { privateToken: 'my-private-token' } });
${first ? `const result = await ${call(first)};` : ''}
${paged ? `for await (const item of ${iterate(paged)}) console.log(item);` : ''}

// Low level (openapi-fetch), same options:
const client = createServiceClient({ baseUrl: 'https://service.example/api/v4' });
\`\`\`

- Options: \`host\` (\`/api/v4\` is added) or \`baseUrl\`; \`auth\`: \`{ privateToken }\` (\`PRIVATE-TOKEN\`), \`{ oauthToken }\`
  (Bearer) or \`{ jobToken }\` (\`JOB-TOKEN\`), each a string or an async function; \`sudo\` globally or per call
  (\`{ sudo }\` as the second argument); \`timeout\` (ms per attempt, globally or per call; none by default);
  \`retry: { attempts, maxDelayMs, baseDelayMs, sleep, random, onRetry }\`; \`fetch\`.
- Every method takes \`{ path, query, headers, body, extra }\` as its operation documents them, resolves to the success
  body (\`Promise<MergeRequest>\`: every component schema and every \`…Input\` is exported by name, from
  \`@service-api/types\`) and rejects with \`ServiceApiError\` (\`status\`, \`body\`, \`operationId\`).
  \`isServiceApiError(error, operationId)\` holds for the statuses the operation documents and types the error as a
  union by status: \`if (error.status === 409) error.body.message\`. \`isServiceApiError(error, operationId, 409)\` checks
  one status.
- \`.withResponse(input)\` on every method resolves to \`{ data, status, headers, rawHeaders, pagination, url }\`:
  documented headers typed, \`pagination\` (\`page\`, \`perPage\`, \`nextPage\`, \`prevPage\`, \`total\`, \`totalPages\`, \`next\`) as numbers.
- \`extra: { query, body }\` sends parameters the contract does not list (the API grows within v4).
- Where a parameter chooses the record (\`view: 'simple'\`, \`simple: true\`, \`statistics: true\`), the call's input types
  the result.
- A refused or dropped connection and a timeout reject with a \`ServiceApiError\` too: \`error.kind\` is \`'http'\`,
  \`'network'\` or \`'timeout'\` (then \`status\` is 0 and \`cause\` the original error); your own \`signal\`'s abort
  stays an abort.
- 429 and 503 are retried (3 attempts, \`Retry-After\` honoured, else backoff with jitter, capped); so are network
  failures and timeouts of GET, HEAD, PUT, DELETE and OPTIONS, never those of a POST or PATCH (it may have reached the
  server). \`retry.onRetry\` sees each retry. A stream body is sent once, never retried. A 301 (renamed project) is followed on the
  API's origin by repeating the same method and body. Browsers hide manual redirects: pass \`redirect: 'follow'\`.
- Paginated operations (\`x-pagination\`) also have \`.pages()\`, \`.iterate()\` and \`.all()\`, which follow
  \`Link: rel="next"\` (offset and keyset) or \`x-next-page\`, up to \`maxPages\` (default 100).
- Uploads take a \`Blob\`/\`File\` in the body object; downloads resolve to a \`Blob\`, or a stream with \`{ as: 'stream' }\`;
  HEAD operations resolve to their documented \`X-Service-*\` headers.
`;
}
