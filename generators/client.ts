import { slashBanner } from './lib/banner.ts';
import type { GeneratedFile } from './lib/files.ts';
import type { OpenApiDocument } from './lib/openapi.ts';

export const folder = 'generated/client';

interface ApiKeyScheme {
  type: string;
  in?: string;
  name?: string;
  scheme?: string;
}

/** How the client sends each kind of credential, read from the document's security schemes. */
export function credentialTransport(doc: OpenApiDocument): Record<'private-token' | 'oauth' | 'job-token', { header: string; prefix: string }> {
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
    'private-token': { header: header('privateTokenHeader'), prefix: '' },
    oauth: { header: 'Authorization', prefix: 'Bearer ' },
    'job-token': { header: header('jobTokenHeader'), prefix: '' },
  };
}

/** A typed client on openapi-fetch: base URL under `/api/v4`, each token kind, and sudo. */
export async function generateClient(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const transport = credentialTransport(doc);
  const sudoHeader = 'Sudo';
  const contents = `${slashBanner(doc, 'client')}import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { paths } from '../types/index.js';

export type { paths };
export const specVersion = ${JSON.stringify(doc.info.version)};
export const apiPrefix = '/api/v4';

/** A token, or a function that returns one (called before every request, so it may refresh). */
export type TokenSource = string | (() => string | Promise<string>);

/** The credential kinds of Part 1 §5 that a client sends in a header. */
export type Credentials =
  | { privateToken: TokenSource }
  | { oauthToken: TokenSource }
  | { jobToken: TokenSource };

export interface ServiceClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Scheme and host of the instance, e.g. \`https://service.example\`; the client adds \`/api/v4\`. */
  host?: string;
  /** The full API root, e.g. \`https://service.example/api/v4\`; use instead of \`host\`. */
  baseUrl?: string;
  auth?: Credentials;
  /** Act as this user (ID or username) on every request (Part 1 §5 rule 4). */
  sudo?: string | number;
}

export type ServiceClient = Client<paths>;

const transport = ${JSON.stringify(transport, null, 2)} as const;

/** Creates a typed client; \`client.GET('/projects/{id}/jobs', { params: { path: { id: 'group/project' } } })\`. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const { host, baseUrl, auth, sudo, ...rest } = options;
  const client = createClient<paths>({ ...rest, baseUrl: resolveBaseUrl(host, baseUrl) });
  const middleware = credentialsMiddleware(auth, sudo);
  if (middleware) client.use(middleware);
  return client;
}

export function resolveBaseUrl(host: string | undefined, baseUrl: string | undefined): string {
  if (host && baseUrl) throw new TypeError('Pass either host or baseUrl, not both');
  if (baseUrl) return baseUrl.replace(/\\/+$/, '');
  if (host) return \`\${host.replace(/\\/+$/, '')}\${apiPrefix}\`;
  throw new TypeError('Pass host (the client adds /api/v4) or baseUrl');
}

function credentialsMiddleware(auth: Credentials | undefined, sudo: string | number | undefined): Middleware | undefined {
  if (!auth && sudo === undefined) return undefined;
  const [kind, source] = auth ? credentialKind(auth) : [undefined, undefined];
  return {
    async onRequest({ request }) {
      if (kind && source !== undefined) {
        const token = typeof source === 'function' ? await source() : source;
        request.headers.set(transport[kind].header, transport[kind].prefix + token);
      }
      if (sudo !== undefined && !request.headers.has(${JSON.stringify(sudoHeader)})) request.headers.set(${JSON.stringify(sudoHeader)}, String(sudo));
      return request;
    },
  };
}

function credentialKind(auth: Credentials): [keyof typeof transport, TokenSource] {
  if ('privateToken' in auth) return ['private-token', auth.privateToken];
  if ('oauthToken' in auth) return ['oauth', auth.oauthToken];
  if ('jobToken' in auth) return ['job-token', auth.jobToken];
  throw new TypeError('auth must have privateToken, oauthToken or jobToken');
}
`;
  return [{ path: `${folder}/index.ts`, contents }];
}
