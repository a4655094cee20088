/** The stateful fake for a test file: started once, reset before each test, called through the generated client. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createServiceApi, isServiceApiError, type ServiceApi, type ServiceClientOptions } from '@service-api/client';
import { startFake, type FakeData, type FakeOptions, type RunningFake } from '../../packages/fake/src/index.ts';

export type { ServiceApi };

/** What a refused call answered. */
export interface Refusal {
  status: number;
  body: unknown;
}

/** The status and body of a refused call; fails the test when the call succeeds or fails otherwise. */
export async function failure(call: Promise<unknown>): Promise<Refusal> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isServiceApiError(error)) throw new Error(`expected a ServiceApiError, got ${String(error)}`);
  return { status: error.status, body: error.body };
}

/** The status of a refused call (see `failure`). */
export async function status(call: Promise<unknown>): Promise<number> {
  return (await failure(call)).status;
}

/** The `message` of an error body, if it has one. */
export function messageOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null && 'message' in body ? body.message : undefined;
}

/** Runs `use` against another fake started with `data` (responses validated), closed afterwards; `use` gets a client per token. */
export async function withFake<T>(
  data: FakeData,
  use: (as: (privateToken: string) => ServiceApi) => Promise<T>,
): Promise<T> {
  const other = await startFake({ data, validateResponses: true });
  try {
    return await use((privateToken) => createServiceApi({ host: other.url, auth: { privateToken } }));
  } finally {
    await other.close();
  }
}

export interface UseFakeOptions extends FakeOptions {
  /** Restore the data set before each test (default true). */
  reset?: boolean;
}

/** A raw request: `token` goes in `PRIVATE-TOKEN`, `json` is sent as a JSON body. */
export interface RawRequest extends Omit<RequestInit, 'headers'> {
  token?: string;
  headers?: Record<string, string>;
  json?: unknown;
}

/**
 * Starts the fake for the test file (or the describe block it is called in) with responses validated, closes it after,
 * and restores its data set before each test unless `reset: false`. `fake` stands for the running fake once started.
 */
export function useFake({ reset = true, ...options }: UseFakeOptions = {}) {
  let running: RunningFake | undefined;
  beforeAll(async () => {
    running = await startFake({ validateResponses: true, ...options });
  });
  afterAll(async () => {
    await running?.close();
  });
  if (reset) beforeEach(() => fake.reset());

  const current = (): RunningFake => {
    if (!running) throw new Error('The fake is not running');
    return running;
  };
  const fake: RunningFake = {
    get url() {
      return current().url;
    },
    get app() {
      return current().app;
    },
    reset: () => current().reset(),
    state: () => current().state(),
    fetch: (input, init) => current().fetch(input, init),
    close: () => current().close(),
  };
  /** A client of the fake with these options (credentials, sudo, …). */
  const client = (clientOptions: Omit<ServiceClientOptions, 'host' | 'baseUrl'> = {}): ServiceApi =>
    createServiceApi({ host: fake.url, ...clientOptions });
  /** A client sending this private token (none: anonymous). */
  const as = (
    privateToken?: string,
    clientOptions: Omit<ServiceClientOptions, 'host' | 'baseUrl' | 'auth'> = {},
  ): ServiceApi => client({ ...(privateToken ? { auth: { privateToken } } : {}), ...clientOptions });
  /** The URL of an API path, e.g. `url('/projects/1')`. */
  const url = (path: string): string => `${fake.url}/api/v4${path}`;
  /** A raw request to an API path, for what the typed client would not send. */
  const send = (path: string, { token, json, headers, ...init }: RawRequest = {}): Promise<Response> =>
    fetch(url(path), {
      ...init,
      headers: {
        ...(token === undefined ? {} : { 'private-token': token }),
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  return { fake, client, as, url, send };
}
