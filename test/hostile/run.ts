import { request } from 'node:http';
import type { HostileCase } from './mock-cases.ts';

export interface HostileAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Bytes of the response body read; reading stops past `limit`. */
  bodyBytes: number;
  body: string;
}

/** Sends a hostile case as is (raw path, raw headers) and reads at most `limit` bytes of the answer. */
export function sendHostile(apiRoot: string, testCase: HostileCase, limit: number): Promise<HostileAnswer> {
  const url = new URL(apiRoot);
  const body = typeof testCase.body === 'function' ? testCase.body() : testCase.body;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: testCase.method, path: `${url.pathname}${testCase.path}`, headers: { ...testCase.headers, ...(body !== undefined ? { 'content-length': Buffer.byteLength(body) } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= limit + 1) chunks.push(chunk);
          if (size > limit) res.destroy();
        });
        const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bodyBytes: size, body: Buffer.concat(chunks).toString('utf8') });
        res.on('end', done);
        res.on('close', done);
      },
    );
    // The server may answer and close before the whole body is written (a refused upload): the answer counts.
    req.on('error', (error) => setTimeout(() => reject(error), 50));
    if (body !== undefined) req.end(body);
    else req.end();
  });
}
