/** The ceiling: node:http answering the three benchmarked requests with the documented examples, nothing else. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jobsList, mergeRequestCreated, mergeRequestList } from '../lib/fixtures.ts';

const bodies = {
  jobs: JSON.stringify(jobsList),
  list: JSON.stringify(mergeRequestList),
  created: JSON.stringify(mergeRequestCreated),
};
const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  const send = (status: number, body: string) =>
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  if (req.method === 'GET' && path === '/api/v4/projects/42/jobs') return send(200, bodies.jobs);
  if (path === '/api/v4/projects/42/merge_requests') {
    if (req.method === 'GET') return send(200, bodies.list);
    req.resume();
    return req.on('end', () => send(201, bodies.created));
  }
  send(404, '{"message":"404 Not Found"}');
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () =>
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v4`),
);
