/**
 * An early refusal of a large upload (the avatar's 400 above its documented maximum, 413 above the body limit, 415)
 * reaches the client whichever way it reads: a client that reads only once its whole upload is written (as Python's
 * http.client does), Node's fetch (undici) and curl, which read while they send. Each is repeated; the count of
 * answers lost must be 0.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleServer, type ExampleServer } from '../../../test/support/example-server.ts';

const TRIES = 10;
const BOUNDARY = 'early-answer-boundary';
const avatar = (size: number) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    Buffer.alloc(size, 0x89),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
let server: ExampleServer;

beforeAll(async () => {
  server = await startExampleServer();
});
afterAll(async () => {
  await server?.close();
});

/**
 * Writes the whole request without reading (as a client that reads only once its upload is written), then reads the
 * answer: its status, or `lost`.
 */
function sendThenRead(origin: string, path: string, headers: Record<string, string>, body: Buffer): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.pause();
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () =>
      resolve(/^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(received).toString('latin1'))?.[1] ?? 'lost'),
    );
    const head = Object.entries({ ...headers, 'Content-Length': String(body.length), Host: 'localhost' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`PUT ${path} HTTP/1.1\r\n${head}\r\n`);
    socket.end(body, () => socket.resume());
    socket.once('error', () => socket.resume());
  });
}

/** curl's status for the upload (`000` when no answer came). */
function curl(url: string, headers: Record<string, string>, file: string): Promise<string> {
  const args = ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'PUT', '--data-binary', `@${file}`, url];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  return new Promise((resolve) => execFile('curl', args, (_error, stdout) => resolve(stdout.trim() || 'lost')));
}

/** How often each outcome came in `TRIES` tries. */
async function outcomes(send: () => Promise<string>): Promise<Record<string, number>> {
  const counted: Record<string, number> = {};
  for (let i = 0; i < TRIES; i++) {
    const outcome = await send();
    counted[outcome] = (counted[outcome] ?? 0) + 1;
  }
  return counted;
}

const headers = { 'PRIVATE-TOKEN': 'x', 'Content-Type': TYPE };
const octets = { 'PRIVATE-TOKEN': 'x', 'Content-Type': 'application/octet-stream' };
const octetBody = Buffer.alloc(50_000_000, 0x61);

describe('an early refusal of a large upload reaches the client', { timeout: 120_000 }, () => {
  it.each([
    ['an avatar of 5 MB', '/api/v4/user/avatar', headers, avatar(5_000_000), '400'],
    ['an avatar of 50 MB', '/api/v4/user/avatar', headers, avatar(50_000_000), '400'],
    ['50 MB of octets on a JSON operation', '/api/v4/projects/1/repository/files/a.txt', octets, octetBody, '415'],
  ])('a client that reads after its upload: %s', async (_name, path, sent, body, status) => {
    expect(await outcomes(() => sendThenRead(server.origin, path, sent, body))).toEqual({ [status]: TRIES });
  });

  it.each([5_000_000, 50_000_000])("Node's fetch, %i bytes", async (size) => {
    const body = avatar(size);
    const send = async () => {
      try {
        const response = await fetch(`${server.origin}/api/v4/user/avatar`, { method: 'PUT', headers, body });
        await response.arrayBuffer();
        return String(response.status);
      } catch {
        return 'lost';
      }
    };
    expect(await outcomes(send)).toEqual({ 400: TRIES });
  });

  it.each([5_000_000, 50_000_000])('curl, %i bytes', async (size) => {
    const file = join(tmpdir(), `early-answer-${process.pid}-${size}`);
    writeFileSync(file, avatar(size));
    expect(await outcomes(() => curl(`${server.origin}/api/v4/user/avatar`, headers, file))).toEqual({ 400: TRIES });
  });
});
