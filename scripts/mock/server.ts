import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInstance, getHttpOperationsFromSpec, type IHttpConfig, type IHttpRequest } from '@stoplight/prism-http';
import { createLogger } from '@stoplight/prism-core';
import { parseQuery } from './query.ts';
import { singlePageHeaders } from './pagination.ts';
import { parsePrefer } from './prefer.ts';
import { describeViolations, type Violation } from './violations.ts';

export const API_PREFIX = '/api/v4';

export interface MockOptions {
  /** The bundled OpenAPI document (an object, not a path). */
  document: object;
  host?: string;
  port?: number;
  /** Log each request to stderr. */
  verbose?: boolean;
}

export interface RunningMock {
  /** Origin of the server, e.g. `http://127.0.0.1:4010`; the API is under `${origin}/api/v4`. */
  origin: string;
  close(): Promise<void>;
}

type HttpMethod = IHttpRequest['method'];

const baseConfig: IHttpConfig = {
  checkSecurity: true,
  validateRequest: true,
  validateResponse: false,
  errors: false,
  upstreamProxy: undefined,
  isProxy: false,
  mock: { dynamic: false },
};

/** Starts Prism's mocker in-process behind a plain HTTP server that serves the API under `/api/v4`. */
export async function startMock(options: MockOptions): Promise<RunningMock> {
  const operations = await getHttpOperationsFromSpec(options.document);
  const logger = createLogger('mock', { enabled: options.verbose ?? false });
  const prism = createInstance(baseConfig, { logger });

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      sendJson(res, 500, { message: `500 Mock failure: ${error instanceof Error ? error.message : String(error)}` });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const [rawPath, rawQuery = ''] = splitOnce(rawUrl, '?');
    if (rawPath !== API_PREFIX && !rawPath.startsWith(`${API_PREFIX}/`)) {
      return sendJson(res, 404, { message: `404 Not Found: the API is served under ${API_PREFIX}` });
    }
    const body = await readBody(req);
    if (body.error) return sendJson(res, 400, { message: `400 Bad request - ${body.error}` });

    const preferred = parsePrefer(req.headers.prefer);
    const input: IHttpRequest = {
      method: (req.method ?? 'GET').toLowerCase() as HttpMethod,
      url: { path: rawPath.slice(API_PREFIX.length) || '/', query: parseQuery(rawQuery) },
      headers: flattenHeaders(req.headers),
      body: body.value,
    };
    const config = { ...baseConfig, mock: { ...baseConfig.mock, ...preferred } } as IHttpConfig;
    const result = await prism.request(input, operations, config)();

    if (result._tag === 'Left') {
      const error = result.left as Error & { status?: number; additional?: { headers?: Record<string, string>; validation?: Violation[] } };
      const status = error.status ?? 500;
      for (const [name, value] of Object.entries(error.additional?.headers ?? {})) res.setHeader(name, value);
      if (error.additional?.validation?.length) return sendJson(res, status, describeViolations(status, error.additional.validation));
      return sendJson(res, status, { message: `${status} ${error.message}` });
    }

    const { output, validations } = result.right;
    const inputErrors = validations.input.filter((v) => v.severity === 0) as Violation[];
    const status = output.statusCode;
    for (const [name, value] of Object.entries(output.headers ?? {})) res.setHeader(name, value);
    if (res.hasHeader('link') && status < 300) {
      const requestUrl = new URL(rawUrl, `http://${req.headers.host ?? '127.0.0.1'}`);
      for (const [name, value] of Object.entries(singlePageHeaders(requestUrl))) res.setHeader(name, value);
    }
    if (inputErrors.length > 0 && status >= 400 && status !== 401) {
      res.removeHeader('content-length');
      return sendJson(res, status, describeViolations(status, inputErrors));
    }
    sendBody(res, status, output.body, input.method === 'head');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    origin: `http://${address.address}:${address.port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

function splitOnce(value: string, separator: string): [string, string?] {
  const at = value.indexOf(separator);
  return at < 0 ? [value] : [value.slice(0, at), value.slice(at + 1)];
}

function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

async function readBody(req: IncomingMessage): Promise<{ value?: unknown; error?: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return {};
  const text = Buffer.concat(chunks).toString('utf8');
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/([\w.+-]*\+)?json/i.test(type)) return { value: text };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { error: 'the request body is not valid JSON' };
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}

function sendBody(res: ServerResponse, status: number, body: unknown, headOnly: boolean): void {
  res.statusCode = status;
  if (headOnly || body === undefined || status === 204 || status === 304) return void res.end();
  const type = String(res.getHeader('content-type') ?? 'application/json');
  if (typeof body === 'string' && !/json/i.test(type)) return void res.end(body);
  if (!res.hasHeader('content-type')) res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}
