import { expect } from 'vitest';
import { request } from 'node:http';
import type { HostileCase } from './cases.ts';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body, read up to `limit` bytes. */
  body: Buffer;
  /** Whether the body went on past `limit`. */
  truncated: boolean;
}

/**
 * Sends a case as written (no client-side encoding of the path) and reads at most `limit` bytes of the answer. A
 * server may answer before reading the whole body and close the connection: the answer counts, the write error not.
 */
export function sendCase(
  origin: string,
  hostile: Pick<HostileCase, 'method' | 'path' | 'headers' | 'body'>,
  limit = 1024 * 1024,
  prefix = '/api/v4',
): Promise<RawResponse> {
  const body = typeof hostile.body === 'function' ? hostile.body() : hostile.body;
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body);
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...hostile.headers };
    if (
      payload !== undefined &&
      !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length' || h.toLowerCase() === 'transfer-encoding')
    )
      headers['Content-Length'] = String(payload.length);
    const req = request({
      host: url.hostname,
      port: url.port,
      method: hostile.method,
      path: `${prefix}${hostile.path}`,
      headers,
      agent: false,
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (size + chunk.length > limit) {
          truncated = true;
          res.destroy();
          finish();
          return;
        }
        size += chunk.length;
        chunks.push(chunk);
      });
      const finish = () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), truncated });
      res.on('end', finish);
      res.on('error', finish);
      res.on('close', finish);
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (payload === undefined) req.end();
    else {
      req.write(payload, () => undefined);
      req.end();
    }
  });
}

/** A JSON answer says exactly `application/json`, as the Service does (some clients compare the header exactly). */
export function expectJsonType(contentType: string | string[] | undefined): void {
  if (String(contentType).includes('json')) expect(contentType).toBe('application/json');
}

/** A 405 names the methods of its path in `Allow`; where a case names them, exactly those (an OPTIONS answer too). */
export function expectAllow(hostile: Pick<HostileCase, 'expect'>, response: RawResponse): void {
  if (response.status === 405) expect(response.headers.allow, 'a 405 without Allow').toMatch(/^[A-Z]+(, [A-Z]+)*$/);
  if (hostile.expect.allow !== undefined && (response.status === 405 || response.status === 204))
    expect(response.headers.allow).toBe(hostile.expect.allow);
}

/**
 * What every target of the table answers a case: a listed status, a bounded body, a JSON type as the Service writes
 * it, `Allow` where due, and an error message that starts with its status.
 */
export function expectReadableAnswer(hostile: HostileCase, response: RawResponse): void {
  const text = response.body.subarray(0, 300).toString();
  expect([hostile.expect.status].flat(), `status ${response.status}: ${text}`).toContain(response.status);
  expect(response.truncated, 'response body too large').toBe(false);
  expectJsonType(response.headers['content-type']);
  expectAllow(hostile, response);
  if (response.status >= 400 && response.body.length > 0)
    expect(String((JSON.parse(response.body.toString()) as { message?: unknown }).message)).toMatch(
      new RegExp(`^${response.status} `),
    );
}
