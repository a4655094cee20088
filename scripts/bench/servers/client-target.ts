/** The client section's server: the jobs list (200) and a missing job (404), canned, in its own process. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jobsList } from '../lib/fixtures.ts';

const list = JSON.stringify(jobsList);
const missing = '{"message":"404 Job Not Found"}';
const server = createServer((req, res) => {
  const found = (req.url ?? '').split('?')[0] === '/api/v4/projects/42/jobs';
  const body = found ? list : missing;
  res
    .writeHead(found ? 200 : 404, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'x-page': '1',
    })
    .end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () =>
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`),
);
