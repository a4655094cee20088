/**
 * An upstream on 127.0.0.1 that speaks raw TCP: for every connection it waits for the request's head, writes the
 * bytes of a hostile answer, then closes its side or resets the connection, whatever HTTP would allow.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { HostileUpstreamCase } from './cases.ts';

export interface RawUpstream {
  origin: string;
  close(): Promise<void>;
}

/** Answers every connection with the case's bytes, then ends or resets it. */
export async function startRawUpstream(hostile: Pick<HostileUpstreamCase, 'answer' | 'then'>): Promise<RawUpstream> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.pause(); // the body, if any, stays unread: an early answer
      socket.write(Buffer.from(hostile.answer, 'utf8'), () => {
        if (hostile.then === 'reset') socket.resetAndDestroy();
        else socket.end();
      });
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
