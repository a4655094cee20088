/**
 * The baseline of the proxy's overhead: a plain pass-through proxy on node:http, piping each request to the upstream
 * given as the first argument and its answer back, with a keep-alive agent as the proxy has, and nothing checked.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const upstream = new URL(process.argv[2]!);
const agent = new Agent({ keepAlive: true });
const server = createServer((incoming, answer) => {
  const outgoing = request(
    {
      hostname: upstream.hostname,
      port: upstream.port,
      method: incoming.method,
      path: incoming.url,
      headers: { ...incoming.headers, host: upstream.host },
      agent,
    },
    (response) => {
      answer.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(answer);
    },
  );
  outgoing.on('error', () => answer.writeHead(502).end());
  incoming.pipe(outgoing);
});
server.listen(0, '127.0.0.1', () =>
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`),
);
