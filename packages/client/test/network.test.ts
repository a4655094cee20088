/**
 * The generated client on a real network: connections dropped, refused, slow answers, the caller's abort, each through
 * a tiny node:http server on 127.0.0.1 (in front of the fake where the answer matters).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServiceApi, isServiceApiError, type RetryInfo, type ServiceClientOptions } from '@service-api/client';
import { startFake, type RunningFake } from '../../fake/src/index.ts';

interface Flaky {
  url: string;
  /** `METHOD path` of every request received, dropped ones included. */
  seen: string[];
  close(): Promise<void>;
}

/**
 * A server that destroys the socket of its first `drops` requests, holds the next `held` ones unanswered until the
 * client gives up on them (calling `onHeld` as each arrives), then forwards to `upstream` (the fake) or answers
 * `{ "id": 7 }`.
 */
async function flaky(options: {
  drops?: number;
  held?: number;
  onHeld?: () => void;
  upstream?: string;
}): Promise<Flaky> {
  const seen: string[] = [];
  let drops = options.drops ?? 0;
  let held = options.held ?? 0;
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    seen.push(`${request.method} ${request.url}`);
    if (drops > 0) {
      drops -= 1;
      request.socket.destroy();
      return;
    }
    if (held > 0) {
      held -= 1;
      const gaveUp = new Promise((resolve) => response.once('close', resolve));
      options.onHeld?.();
      await gaveUp;
      return;
    }
    if (!options.upstream) {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":7}');
      return;
    }
    const body = Buffer.concat(await request.toArray());
    const forwarded = await fetch(options.upstream + request.url, {
      method: request.method,
      headers: { 'private-token': String(request.headers['private-token'] ?? ''), 'content-type': 'application/json' },
      body: body.length ? body : undefined,
    });
    response
      .writeHead(forwarded.status, { 'content-type': forwarded.headers.get('content-type') ?? 'text/plain' })
      .end(Buffer.from(await forwarded.arrayBuffer()));
  };
  // A client that timed out or gave up aborts the request it no longer waits for: nothing is left to answer.
  const server = createServer((request, response) => void answer(request, response).catch(() => response.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let fake: RunningFake;
beforeAll(async () => {
  fake = await startFake();
});
afterAll(async () => {
  await fake.close();
});

const servers: Flaky[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function serve(options: Parameters<typeof flaky>[0]): Promise<Flaky> {
  const server = await flaky(options);
  servers.push(server);
  return server;
}

/** A client of `host` that records its retries and does not wait between them. */
function client(host: string, options: Omit<ServiceClientOptions, 'host'> = {}) {
  const retries: RetryInfo[] = [];
  const api = createServiceApi({
    host,
    auth: { privateToken: 'developer-token' },
    ...options,
    retry: { sleep: async () => {}, onRetry: (info) => void retries.push(info), ...options.retry },
  });
  return { api, retries };
}

/**
 * Each attempt's timeout (`AbortSignal.timeout`, which the client takes for `timeout`) under the test's control: it
 * runs out when the test calls `expire()`, never by the clock, so what a test sees does not depend on the machine's
 * load. `requested` lists the milliseconds each attempt asked for.
 */
function manualTimeouts() {
  const running: AbortController[] = [];
  const requested: number[] = [];
  vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
    requested.push(ms);
    const controller = new AbortController();
    running.push(controller);
    return controller.signal;
  });
  const expire = () => {
    for (const controller of running.splice(0))
      controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  };
  return { requested, expire };
}
afterEach(() => {
  vi.restoreAllMocks();
});

const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

describe('client against a server that drops connections, in front of the fake', () => {
  it('retries a GET after dropped connections and gets the fake’s answer', async () => {
    const server = await serve({ drops: 2, upstream: fake.url });
    const { api, retries } = client(server.url);
    const projects = await api.projects.listProjects();
    expect(projects.map((p) => p.path_with_namespace)).toContain('my-group/my-project');
    expect(retries.map((r) => [r.attempt, r.reason])).toEqual([
      [2, 'network'],
      [3, 'network'],
    ]);
    expect(retries[0]!.error?.kind).toBe('network');
    expect(server.seen).toHaveLength(3);
  });

  it('does not retry a POST after a drop: it may have reached the server', async () => {
    const server = await serve({ drops: 1, upstream: fake.url });
    const { api, retries } = client(server.url);
    const error = await failureOf(
      api.mergeRequests.createMergeRequest({
        path: { id: 'my-group/my-project' },
        body: { source_branch: 'feature/login', target_branch: 'main', title: 'Dropped' },
      }),
    );
    expect(isServiceApiError(error) && error.kind === 'network').toBe(true);
    expect(error).toMatchObject({ status: 0, cause: expect.any(TypeError) });
    expect(retries).toEqual([]);
    expect(server.seen).toEqual(['POST /api/v4/projects/my-group%2Fmy-project/merge_requests']);
  });

  it('gives up after the attempts, as a network ServiceApiError', async () => {
    const server = await serve({ drops: 5 });
    const { api, retries } = client(server.url, { retry: { attempts: 2 } });
    const error = await failureOf(api.projects.listProjects());
    expect(isServiceApiError(error) && error.kind).toBe('network');
    expect(retries.map((r) => r.reason)).toEqual(['network']);
    expect(server.seen).toHaveLength(2);
  });
});

describe('client timeouts', () => {
  it('times out a slow answer and retries a GET, which then succeeds', async () => {
    const timeouts = manualTimeouts();
    const server = await serve({ held: 1, onHeld: timeouts.expire, upstream: fake.url });
    const { api, retries } = client(server.url, {});
    const projects = await api.projects.listProjects(undefined, { timeout: 200 });
    expect(projects.length).toBeGreaterThan(0);
    expect(retries.map((r) => [r.reason, r.error?.kind])).toEqual([['timeout', 'timeout']]);
    expect(timeouts.requested).toEqual([200, 200]);
  });

  it('surfaces kind timeout once every attempt timed out (global timeout)', async () => {
    const timeouts = manualTimeouts();
    const server = await serve({ held: 3, onHeld: timeouts.expire });
    const { api, retries } = client(server.url, { timeout: 100 });
    const error = await failureOf(api.jobs.getProjectJob({ path: { id: 1, job_id: 7 } }));
    expect(isServiceApiError(error) && error.kind === 'timeout').toBe(true);
    expect(error).toMatchObject({ status: 0, cause: { name: 'TimeoutError' } });
    expect(retries.map((r) => r.reason)).toEqual(['timeout', 'timeout']);
    expect(timeouts.requested).toEqual([100, 100, 100]);
  });

  it('does not retry a POST that timed out', async () => {
    const timeouts = manualTimeouts();
    const server = await serve({ held: 1, onHeld: timeouts.expire, upstream: fake.url });
    const { api, retries } = client(server.url, { timeout: 100 });
    const error = await failureOf(
      api.mergeRequests.createMergeRequest({
        path: { id: 1 },
        body: { source_branch: 'feature/login', target_branch: 'main', title: 'Slow' },
      }),
    );
    expect(isServiceApiError(error) && error.kind).toBe('timeout');
    expect(retries).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('keeps the caller’s abort an abort, not retried, even with a timeout set', async () => {
    manualTimeouts(); // never run out: only the caller's abort ends the call
    const controller = new AbortController();
    const server = await serve({ held: 3, onHeld: () => controller.abort() });
    const { api, retries } = client(server.url, { timeout: 5000 });
    const error = await failureOf(api.projects.listProjects(undefined, { signal: controller.signal }));
    expect(isServiceApiError(error)).toBe(false);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(retries).toEqual([]);
    expect(server.seen).toHaveLength(1);
  });

  it('stops waiting between retries when the caller aborts', async () => {
    const server = await serve({ drops: 5 });
    // A wait of at least half an hour: only a wait that stops on the abort lets the call end within the test's timeout.
    const controller = new AbortController();
    const api = createServiceApi({
      host: server.url,
      // Aborted once the wait has begun (onRetry runs just before it): an event, not a moment on the clock.
      retry: { baseDelayMs: 3_600_000, maxDelayMs: 3_600_000, onRetry: () => queueMicrotask(() => controller.abort()) },
    });
    const error = await failureOf(api.projects.listProjects(undefined, { signal: controller.signal }));
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(server.seen).toHaveLength(1);
  });

  it('does not begin a wait between retries once the caller has aborted', async () => {
    const server = await serve({ drops: 5 });
    const controller = new AbortController();
    const api = createServiceApi({
      host: server.url,
      // Aborted before the wait begins (onRetry runs just before it): a wait that ignored it would last an hour.
      retry: { baseDelayMs: 3_600_000, maxDelayMs: 3_600_000, onRetry: () => controller.abort() },
    });
    const error = await failureOf(api.projects.listProjects(undefined, { signal: controller.signal }));
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(server.seen).toHaveLength(1);
  });

  it('answers within a generous timeout and a caller signal, against the fake directly', async () => {
    const timeouts = manualTimeouts(); // never run out: the answer comes first whatever the load
    const { api, retries } = client(fake.url, { timeout: 10_000 });
    const projects = await api.projects.listProjects(undefined, { signal: new AbortController().signal });
    expect(projects.length).toBeGreaterThan(0);
    expect(retries).toEqual([]);
    expect(timeouts.requested).toEqual([10_000]);
  });
});

describe('client on a refused connection', () => {
  it('is a network ServiceApiError with the reason in its message and cause, also through raw', async () => {
    const closed = await flaky({});
    await closed.close();
    const { api, retries } = client(closed.url);
    const error = await failureOf(api.projects.listProjects());
    expect(isServiceApiError(error) && error.kind).toBe('network');
    expect(String((error as Error).message)).toContain('ECONNREFUSED');
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(retries.map((r) => r.reason)).toEqual(['network', 'network']);
    const raw = await failureOf(api.raw.GET('/projects'));
    expect(isServiceApiError(raw) && raw.kind).toBe('network');
  });
});
