/**
 * An upstream for the proxy's Link rewrite: every GET answers the documented jobs list with a `Link` of four URLs, as
 * a Service's list page has: at its own origin (first argument `link`: the proxy rewrites them) or at another origin
 * of the same length (`foreign`: the proxy passes them unchanged). The headers have the same size; nothing else differs.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jobsList } from '../lib/fixtures.ts';

const atOwnOrigin = process.argv[2] === 'link';
const body = JSON.stringify(jobsList);
const server = createServer((request, response) => {
  request.resume();
  const host = request.headers.host ?? '';
  const origin = atOwnOrigin ? `http://${host}` : `http://${'x'.repeat(host.length)}`;
  const page = (n: number) => `${origin}/api/v4/projects/42/jobs?per_page=2&page=${n}`;
  response.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-page': '2',
    'x-next-page': '3',
    link: `<${page(1)}>; rel="prev", <${page(3)}>; rel="next", <${page(1)}>; rel="first", <${page(5)}>; rel="last"`,
  });
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () =>
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`),
);
