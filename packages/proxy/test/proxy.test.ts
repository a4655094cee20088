/**
 * The contract-checking proxy against a deliberately wrong upstream: every deviation appears in the report and
 * nothing else does, the client gets the upstream's bytes, secrets never reach the report or the log, and an
 * upstream that is down or slow, or a hostile request, gets a clear answer.
 */
import { createHash } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Report, startProxy, type RunningProxy } from '../src/index.ts';
import {
  DOWNLOAD_BYTES,
  example,
  expectedDownloadHash,
  startWrongUpstream,
  type WrongUpstream,
} from '../../../test/support/proxy-upstream.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  hash: string;
  size: number;
  text: string;
}

/** One request over node:http, the answer's body hashed as it streams (its text kept only when small). */
function send(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${origin}${path}`, { method, headers }, (incoming) => {
      const hash = createHash('sha256');
      let size = 0;
      let text = '';
      incoming.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        size += chunk.length;
        if (text.length < 4096) text += chunk.toString('utf8');
      });
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, hash: hash.digest('hex'), size, text }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The headers a client compares: all but the ones each hop sets for itself. */
function endToEnd(headers: Raw['headers']): Raw['headers'] {
  const {
    date: _date,
    connection: _connection,
    'keep-alive': _keepAlive,
    'transfer-encoding': _encoding,
    ...rest
  } = headers;
  return rest;
}

const PATHS = [
  '/api/v4/projects/1/jobs/7',
  '/api/v4/projects/4/jobs',
  '/api/v4/projects/6/jobs',
  '/api/v4/projects/5/jobs',
  '/api/v4/projects/1/jobs',
  '/api/v4/projects/2/jobs',
  '/api/v4/projects/3/jobs',
  '/api/v4/projects/1/repository/files/big.bin/raw?ref=main',
];

describe('the proxy against a wrong upstream', () => {
  let upstream: WrongUpstream;
  let proxy: RunningProxy;
  const lines: string[] = [];
  beforeAll(async () => {
    upstream = await startWrongUpstream();
    proxy = await startProxy({ upstream: upstream.url, port: 0, log: (line) => lines.push(line) });
  });
  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
  });

  it('forwards status, headers and bodies byte for byte, a large download included', async () => {
    for (const path of PATHS) {
      const [direct, proxied] = [await send(upstream.url, 'GET', path), await send(proxy.url, 'GET', path)];
      expect({ path, status: proxied.status, headers: endToEnd(proxied.headers), hash: proxied.hash }).toEqual({
        path,
        status: direct.status,
        headers: endToEnd(direct.headers),
        hash: direct.hash,
      });
    }
    const download = await send(proxy.url, 'GET', PATHS.at(-1)!);
    expect({ size: download.size, hash: download.hash }).toEqual({
      size: DOWNLOAD_BYTES,
      hash: expectedDownloadHash(),
    });
  });

  it('forwards a large upload unchanged', async () => {
    const boundary = 'proxy-test-boundary';
    const file = Buffer.alloc(6 * 1024 * 1024, 'x');
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\nimported\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="export.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const answer = await send(
      proxy.url,
      'POST',
      '/api/v4/projects/import',
      { 'content-type': `multipart/form-data; boundary=${boundary}`, 'private-token': 'upload-token' },
      body,
    );
    expect(answer.status).toBe(201);
    expect(upstream.bodyHashes.get('POST /api/v4/projects/import')).toBe(
      createHash('sha256').update(body).digest('hex'),
    );
    expect(proxy.report().operations['project-import-export/import-project']).toMatchObject({
      unchecked: { 'request body too large to check': 1 },
      disagreements: [],
    });
  });

  it('reports every deviation, and nothing else', async () => {
    await send(proxy.url, 'GET', '/api/v4/projects/4/jobs');
    const report = proxy.report();
    const found = Object.entries(report.operations).flatMap(([operation, entry]) =>
      entry.disagreements.map((d) => `${operation} ${d.kind}: ${d.detail} @ ${d.first}`),
    );
    expect(found.sort()).toEqual(
      [
        'jobs/get-project-job undocumented-status: status 418 @ GET /api/v4/projects/1/jobs/7',
        'jobs/list-project-jobs body-schema: 200 /1/id must be integer (got string) @ GET /api/v4/projects/4/jobs',
        'jobs/list-project-jobs undocumented-content-type: 200 as text/html (documented: application/json) @ GET /api/v4/projects/5/jobs',
        'jobs/list-project-jobs absent-optional-header: 200 without link @ GET /api/v4/projects/1/jobs',
        'jobs/list-project-jobs missing-header: 301 without location @ GET /api/v4/projects/2/jobs',
      ].sort(),
    );
    // Also found in the gzip-encoded answer of project 6.
    expect(
      report.operations['jobs/list-project-jobs']!.disagreements.find((d) => d.kind === 'body-schema')!.count,
    ).toBe(3);
    expect(report.operations['jobs/list-project-jobs']!.statuses).toEqual({ '200': 6, '301': 1 });
    expect(report.operations['jobs/get-project-job']!.statuses).toEqual({ '418': 1 });
    // One log line per disagreement as it happens.
    expect(lines.filter((line) => line.includes('body-schema'))).toHaveLength(3);
  });

  it('serves the report at GET /__proxy/report without forwarding it', async () => {
    const before = upstream.received.length;
    const answer = await send(proxy.url, 'GET', '/__proxy/report');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({
      upstream: upstream.url,
      operations: { 'jobs/list-project-jobs': { calls: 7 } },
    });
    expect(upstream.received.length).toBe(before);
  });
});

describe('the proxy keeps secrets out of its report and its log', () => {
  const secrets = {
    header: 'glpat-HEADER-SECRET',
    job: 'JOB-HEADER-SECRET',
    bearer: 'BEARER-SECRET',
    queryPrivate: 'QUERY-PRIVATE-SECRET',
    queryAccess: 'QUERY-ACCESS-SECRET',
    queryJob: 'QUERY-JOB-SECRET',
    cookie: 'COOKIE-SESSION-SECRET',
    sudo: 'SUDO-USER-SECRET',
    bodyToken: 'BODY-TOKEN-SECRET',
    bodyPassword: 'BODY-PASSWORD-SECRET',
  };
  it('in all seven credential ways, Sudo, cookies and tokens in bodies', async () => {
    const upstream = await startWrongUpstream();
    const lines: string[] = [];
    const proxy = await startProxy({ upstream: upstream.url, port: 0, log: (line) => lines.push(line) });
    try {
      const query = `private_token=${secrets.queryPrivate}&access_token=${secrets.queryAccess}&job_token=${secrets.queryJob}&unknown=${secrets.bodyToken}&scope[]=${secrets.sudo}`;
      const headers = {
        'private-token': secrets.header,
        'job-token': secrets.job,
        authorization: `Bearer ${secrets.bearer}`,
        cookie: `_service_session=${secrets.cookie}; other=${secrets.cookie}`,
        sudo: secrets.sudo,
        'content-type': 'application/json',
      };
      await send(proxy.url, 'GET', `/api/v4/projects/1/jobs?${query}`, headers);
      await send(proxy.url, 'GET', `/api/v4/undocumented/1?${query}`, headers);
      const body = JSON.stringify({
        private_token: secrets.bodyToken,
        password: secrets.bodyPassword,
        commit_message: 42,
        branch: secrets.bodyPassword,
        execute_filemode: 'True',
      });
      await send(proxy.url, 'POST', `/api/v4/projects/1/repository/files/a.txt?${query}`, headers, body);
      await send(
        proxy.url,
        'POST',
        `/api/v4/projects/1/repository/files/a.txt`,
        { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        `access_token=${secrets.bodyToken}&password=${secrets.bodyPassword}&execute_filemode=1`,
      );
      const report = JSON.stringify(proxy.report());
      // The requests were checked and logged (else the test proves nothing)…
      expect(report).toContain('tolerated-form');
      expect(lines.length).toBeGreaterThan(3);
      // …and no secret appears anywhere.
      const written = `${report}\n${lines.join('\n')}`;
      expect(Object.values(secrets).filter((secret) => written.includes(secret))).toEqual([]);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});

describe('the proxy when the upstream fails, and on hostile requests', () => {
  it('answers 502 with a clear message when the upstream is down', async () => {
    const upstream = await startWrongUpstream();
    await upstream.close();
    const proxy = await startProxy({ upstream: upstream.url, port: 0 });
    const answer = await send(proxy.url, 'GET', '/api/v4/projects/1/jobs');
    await proxy.close();
    expect({ status: answer.status, body: JSON.parse(answer.text) }).toEqual({
      status: 502,
      body: {
        message: expect.stringMatching(
          /^502 Bad Gateway - the upstream http:\/\/127\.0\.0\.1:\d+ could not be reached \(ECONNREFUSED\)$/,
        ),
      },
    });
  });

  it('answers 504 once the upstream is slower than --timeout', async () => {
    const upstream = await startWrongUpstream({ hold: true });
    const proxy = await startProxy({ upstream: upstream.url, port: 0, timeoutMs: 100 });
    const answer = await send(proxy.url, 'GET', '/api/v4/projects/3/jobs');
    await proxy.close();
    await upstream.close();
    expect({ status: answer.status, body: JSON.parse(answer.text) }).toEqual({
      status: 504,
      body: { message: expect.stringContaining('did not answer within 100 ms') },
    });
  });

  it.each<[string, string, Record<string, string>, number]>([
    ['a query string over 16 KiB', `/api/v4/projects/1/jobs?q=${'a'.repeat(17 * 1024)}`, {}, 414],
    [
      'more than 1000 query parameters',
      `/api/v4/projects/1/jobs?${Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&')}`,
      {},
      400,
    ],
    ['a malformed percent-escape', '/api/v4/projects/1/jobs?page=%E0%A4%A', {}, 400],
    [
      'a declared JSON body over 16 MiB',
      '/api/v4/projects/1/repository/files/a.txt',
      // With a credential: an anonymous call is the upstream's 401 to answer first, as the server package does.
      { 'content-type': 'application/json', 'content-length': String(17 * 1024 * 1024), 'private-token': 't' },
      413,
    ],
  ])('refuses %s with the server package’s status, without forwarding it', async (_name, path, headers, status) => {
    const upstream = await startWrongUpstream();
    const proxy = await startProxy({ upstream: upstream.url, port: 0 });
    const answer = await new Promise<number>((resolve, reject) => {
      const outgoing = httpRequest(
        `${proxy.url}${path}`,
        { method: headers['content-length'] ? 'POST' : 'GET', headers },
        (incoming) => {
          incoming.resume();
          resolve(incoming.statusCode ?? 0);
        },
      );
      outgoing.on('error', reject);
      if (headers['content-length']) outgoing.write('{');
      else outgoing.end();
    });
    await proxy.close();
    await upstream.close();
    expect({ status: answer, forwarded: upstream.received }).toEqual({ status, forwarded: [] });
  });
});

describe('--strict', () => {
  let upstream: WrongUpstream;
  let proxy: RunningProxy;
  beforeAll(async () => {
    upstream = await startWrongUpstream();
    proxy = await startProxy({ upstream: upstream.url, port: 0, strict: true });
  });
  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
  });

  it.each([
    ['a field of the wrong type', '/api/v4/projects/4/jobs', 'body-schema: 200 /1/id must be integer (got string)'],
    ['an undocumented content type', '/api/v4/projects/5/jobs', 'undocumented-content-type: 200 as text/html'],
    ['an undocumented status', '/api/v4/projects/1/jobs/7', 'undocumented-status: status 418'],
  ])('answers 502 naming the violation for %s', async (_name, path, violation) => {
    const answer = await send(proxy.url, 'GET', path);
    expect(answer.status).toBe(502);
    expect((JSON.parse(answer.text) as { message: string }).message).toContain(violation);
  });

  it('forwards a list without Link: the contract allows it (reported, not refused)', async () => {
    const [direct, proxied] = [
      await send(upstream.url, 'GET', '/api/v4/projects/1/jobs'),
      await send(proxy.url, 'GET', '/api/v4/projects/1/jobs'),
    ];
    expect({ status: proxied.status, hash: proxied.hash }).toEqual({ status: direct.status, hash: direct.hash });
  });

  it('forwards a conforming answer unchanged, and a large download streamed', async () => {
    const [direct, proxied] = [
      await send(upstream.url, 'GET', '/api/v4/projects/3/jobs'),
      await send(proxy.url, 'GET', '/api/v4/projects/3/jobs'),
    ];
    expect({ status: proxied.status, hash: proxied.hash }).toEqual({ status: 200, hash: direct.hash });
    const download = await send(proxy.url, 'GET', '/api/v4/projects/1/repository/files/big.bin/raw?ref=main');
    expect(download.hash).toBe(expectedDownloadHash());
  });
});

describe('the report stays bounded', () => {
  it('keeps counting past its caps on operations and disagreements', async () => {
    const upstream = await startWrongUpstream();
    const proxy = await startProxy({
      upstream: upstream.url,
      port: 0,
      reportLimits: { operations: 3, perKind: 2, disagreements: 100 },
    });
    try {
      for (let i = 0; i < 6; i++) await send(proxy.url, 'GET', `/api/v4/undocumented-${i}`);
      for (let i = 0; i < 4; i++) await send(proxy.url, 'GET', `/api/v4/projects/3/jobs?unknown${i}=1`);
      const report = proxy.report();
      expect(Object.keys(report.operations)).toHaveLength(3);
      expect(report.requests).toBe(10);
      expect(report.dropped.calls).toBe(7);
      expect(report.disagreements).toBe(10);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});

describe('the proxy reports every kind of disagreement of a body, and logs one line each', () => {
  it('a wrong value behind a hundred missing fields, and a newline in a field name', async () => {
    // 30 jobs, each without two required fields; the last one's status is outside its enum.
    const jobs = Array.from({ length: 30 }, (_, i) => {
      const {
        artifacts: _a,
        tag_list: _t,
        ...rest
      } = example('/projects/{id}/jobs/{job_id}', 'get', '200') as Record<string, unknown>;
      return i === 29 ? { ...rest, status: 'bogus' } : rest;
    });
    const upstream = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const body = request.method === 'GET' ? jobs : example('/projects/{id}/merge_requests', 'post', '201');
        response
          .writeHead(request.method === 'GET' ? 200 : 201, { 'content-type': 'application/json' })
          .end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const lines: string[] = [];
    const proxy = await startProxy({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      port: 0,
      log: (line) => lines.push(line),
    });
    try {
      expect((await send(proxy.url, 'GET', '/api/v4/projects/3/jobs')).status).toBe(200);
      const forged = 'x\n✖ forged line';
      const write = await send(
        proxy.url,
        'POST',
        '/api/v4/projects/3/merge_requests',
        { 'content-type': 'application/json', 'private-token': 't' },
        JSON.stringify({ source_branch: 'a', target_branch: 'b', title: 't', [forged]: 1 }),
      );
      expect(write.status).toBe(201);
      const report = proxy.report();
      const details = report.operations['jobs/list-project-jobs']!.disagreements.map((d) => d.detail);
      expect(details.some((d) => d.startsWith('200 /29/status must be equal to one of the allowed values'))).toBe(true);
      // The 29 items missing the same two fields: one entry for their object path, naming both.
      expect(details.filter((d) => d.includes('missing:'))).toEqual(['200 /0 missing: artifacts, tag_list']);
      const undocumented = report.operations['merge-requests/create-merge-request']!.disagreements;
      expect(undocumented.some((d) => d.detail.includes(forged))).toBe(true);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).not.toMatch(/[\n\r]/);
      expect(lines.some((line) => line.includes('x\\u000a✖ forged line'))).toBe(true);
    } finally {
      await proxy.close();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  });
});

describe('the report lists every distinct disagreement, grouped, without values', () => {
  it('a jobs list of one item with a wrong id, a wrong status and every other field missing', async () => {
    const upstream = createServer((request, response) => {
      request.resume();
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end('[{"id": "not-a-number", "status": "exploded"}]');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const proxy = await startProxy({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      port: 0,
    });
    try {
      expect((await send(proxy.url, 'GET', '/api/v4/projects/3/jobs', { 'private-token': 't' })).status).toBe(200);
      const operation = proxy.report().operations['jobs/list-project-jobs']!;
      const details = operation.disagreements.filter((d) => d.kind === 'body-schema').map((d) => d.detail);
      const missing = details.filter((d) => d.startsWith('200 /0 missing: '));
      expect(missing).toHaveLength(1);
      const names = missing[0]!.slice('200 /0 missing: '.length).split(', ');
      expect(names).toEqual(expect.arrayContaining(['name', 'stage', 'ref', 'created_at', 'pipeline', 'user']));
      expect(details).toContain('200 /0/id must be integer (got string)');
      expect(details.some((d) => d.startsWith('200 /0/status must be equal to one of the allowed values'))).toBe(true);
      expect(operation.more).toBeUndefined();
      const text = JSON.stringify(proxy.report());
      expect(text).not.toContain('not-a-number');
      expect(text).not.toContain('exploded');
    } finally {
      await proxy.close();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  });

  it('caps each kind apart and says how many it left out', () => {
    const report = new Report('http://up', { operations: 10, perKind: 2, disagreements: 100 });
    for (let i = 0; i < 5; i++) report.disagree('op', { kind: 'body-schema', detail: `200 /${i} x` }, 'GET /');
    report.disagree('op', { kind: 'missing-header', detail: '200 without link' }, 'GET /');
    const operation = report.toJSON().operations.op!;
    expect(operation.disagreements.map((d) => d.kind)).toEqual(['body-schema', 'body-schema', 'missing-header']);
    expect(operation.more).toEqual({ 'body-schema': 3 });
  });
});
