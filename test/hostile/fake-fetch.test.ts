/**
 * The fake's in-process `fetch` against the same fake over HTTP (Node's own `fetch` to its port): every case of the
 * hostile table, and the cases where they once differed, get the same status (or both throw the `TypeError` of
 * `fetch`). Two fakes of the same data get the same requests in the same order. Then the in-process limits: a body
 * streamed without end is refused after at most what the server reads of it, and an `AbortSignal` ends a request whose
 * body never ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, startFake, type Fake, type RunningFake } from '../../packages/fake/src/index.ts';
import { hostileCases, inProcessCases, requestSemanticsCases, TOKEN, type HostileCase } from './cases.ts';

let overHttp: RunningFake;
let inProcess: Fake;

beforeAll(async () => {
  overHttp = await startFake({ anyToken: true });
  inProcess = await createFake({ anyToken: true });
});
afterAll(async () => {
  await overHttp?.close();
  await inProcess?.app.close();
});

/** The status a `fetch` gets for a case, or the kind of error it throws. */
async function outcome(send: typeof fetch, origin: string, hostile: HostileCase): Promise<string> {
  const body = typeof hostile.body === 'function' ? hostile.body() : hostile.body;
  const url = new URL(`${origin}/api/v4${hostile.path}`);
  if (hostile.userinfo) [url.username, url.password] = hostile.userinfo.split(':') as [string, string];
  try {
    const response = await send(url.href, {
      method: hostile.method,
      headers: hostile.headers ?? {},
      ...(body === undefined ? {} : { body: new Uint8Array(Buffer.from(body)) }),
    });
    await response.arrayBuffer();
    return String(response.status);
  } catch (error) {
    // `fetch`'s own refusals are a TypeError without a cause; a failed connection has one.
    return error instanceof TypeError && error.cause === undefined ? 'TypeError' : `failed: ${String(error)}`;
  }
}

const framing = /^(content-length|transfer-encoding|host|connection)$/i;
const cases = [...hostileCases, ...requestSemanticsCases, ...inProcessCases].filter(
  (c) => !Object.keys(c.headers ?? {}).some((name) => framing.test(name)),
);

describe('fake.fetch answers as the same fake over HTTP', { timeout: 120_000 }, () => {
  it('sends most of the table', () => {
    expect(cases.length).toBeGreaterThan(([...hostileCases, ...requestSemanticsCases].length * 3) / 4);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, hostile) => {
    const [http, local] = [
      await outcome(fetch, overHttp.url, hostile),
      await outcome(inProcess.fetch, 'http://fake.test', hostile),
    ];
    expect(local, `over HTTP: ${http}`).toBe(http);
    expect(local).not.toMatch(/^failed/);
  });
});

const MiB = 1024 * 1024;
const JSON_POST = { ...TOKEN, 'Content-Type': 'application/json' };

describe('fake.fetch bounds what it reads', { timeout: 60_000 }, () => {
  it('refuses a 500 MB streamed body with 413 after reading at most the server bound', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= 500 * MiB) return controller.close();
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await inProcess.fetch('http://fake.test/api/v4/projects/1/merge_requests', {
      method: 'POST',
      headers: JSON_POST,
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    // The server reads 16 MiB, then drops up to four times that before it answers (and a stream reads a little
    // ahead): never the 500 MB.
    expect(pulled).toBeLessThanOrEqual(6 * 16 * MiB);
  });

  it('rejects with the signal reason when AbortSignal.timeout fires while the body never ends', async () => {
    let stopped = false;
    let cancelled!: () => void;
    const cancel = new Promise<void>((resolve) => {
      cancelled = resolve;
    });
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) =>
        new Promise<void>((resolve) =>
          setImmediate(() => {
            if (!stopped) controller.enqueue(new Uint8Array(16));
            resolve();
          }),
        ),
      cancel: () => {
        stopped = true;
        cancelled();
      },
    });
    const sent = inProcess.fetch('http://fake.test/api/v4/projects/1/merge_requests', {
      method: 'POST',
      headers: JSON_POST,
      body: endless,
      duplex: 'half',
      signal: AbortSignal.timeout(100),
    } as RequestInit);
    await expect(sent).rejects.toMatchObject({ name: 'TimeoutError' });
    await cancel; // the body is no longer read
    expect((await inProcess.fetch('http://fake.test/api/v4/projects/1/jobs', { headers: TOKEN })).status).toBe(200);
  });

  it('rejects a request aborted before it is sent, as fetch does', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      inProcess.fetch('http://fake.test/api/v4/projects/1/jobs', { headers: TOKEN, signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});
