/**
 * The proxy as a gateway: the upstream's own URLs in `Link` and `Location` are rewritten to the origin the client
 * called (and counted in the report), so the typed client pages `.all()` and follows a renamed project's 301 through
 * it; other URLs and headers pass unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApi } from '@service-api/client';
import { startFake, type RunningFake } from '../../fake/src/index.ts';
import { startProxy, type RunningProxy } from '../src/index.ts';
import { clientOrigin, upstreamUrlRewriter } from '../src/rewrite.ts';

describe('upstreamUrlRewriter', () => {
  const rewrite = upstreamUrlRewriter('http://up.example:4010/base');
  const cases: [string, string[], string[], string[]][] = [
    [
      'every Link URL at the upstream',
      [
        'Link',
        '<http://up.example:4010/base/api/v4/p?page=2>; rel="next", <http://UP.example:4010/base/api/v4/p?page=1>; rel="first"',
      ],
      ['Link', '<http://proxy:1/api/v4/p?page=2>; rel="next", <http://proxy:1/api/v4/p?page=1>; rel="first"'],
      ['link'],
    ],
    [
      'a Location at the upstream',
      ['location', 'http://up.example:4010/base/api/v4/projects/2', 'x-next-page', '2'],
      ['location', 'http://proxy:1/api/v4/projects/2', 'x-next-page', '2'],
      ['location'],
    ],
    [
      'nothing elsewhere: another origin, another prefix, a longer host, a relative URL',
      [
        'Link',
        '<https://up.example:4010/base/x>; rel="next", <http://up.example:4010/basement>; rel="last"',
        'Location',
        'http://up.example:40100/base/x',
        'location',
        '/base/api/v4/projects/2',
      ],
      [
        'Link',
        '<https://up.example:4010/base/x>; rel="next", <http://up.example:4010/basement>; rel="last"',
        'Location',
        'http://up.example:40100/base/x',
        'location',
        '/base/api/v4/projects/2',
      ],
      [],
    ],
    [
      'other headers',
      ['content-location', 'http://up.example:4010/base/x'],
      ['content-location', 'http://up.example:4010/base/x'],
      [],
    ],
  ];
  it.each(cases)('rewrites %s', (_title, raw, headers, rewritten) => {
    expect(rewrite(raw, 'http://proxy:1')).toEqual({ headers, rewritten });
  });

  it.each([
    ['127.0.0.1:4011', 'http://127.0.0.1:4011'],
    ['[::1]:4011', 'http://[::1]:4011'],
    ['evil.example/<x>', 'http://fallback:1'],
    [undefined, 'http://fallback:1'],
  ])('takes the origin called from Host %s', (host, origin) => {
    expect(clientOrigin(host, 'http://fallback:1')).toBe(origin);
  });
});

describe('the typed client through the proxy in front of the fake', () => {
  let fake: RunningFake;
  let proxy: RunningProxy;
  beforeAll(async () => {
    fake = await startFake();
    proxy = await startProxy({ upstream: fake.url, port: 0 });
  });
  afterAll(async () => {
    await proxy?.close();
    await fake?.close();
  });
  const api = () => createServiceApi({ host: proxy.url, auth: { privateToken: 'developer-token' } });

  it('pages .all() by the rewritten Link: every page, each through the proxy', async () => {
    const direct = await createServiceApi({
      host: fake.url,
      auth: { privateToken: 'developer-token' },
    }).jobs.listProjectJobs({ path: { id: 1 }, query: { per_page: 100 } });
    expect(direct.length).toBeGreaterThan(2);
    const before = proxy.report();
    const all = await api().jobs.listProjectJobs.all({ path: { id: 1 }, query: { per_page: 2 } });
    expect(all.map((job) => job.id)).toEqual(direct.map((job) => job.id));
    const after = proxy.report();
    const pages = Math.ceil(direct.length / 2);
    expect(
      after.operations['jobs/list-project-jobs']!.calls - (before.operations['jobs/list-project-jobs']?.calls ?? 0),
    ).toBe(pages);
    expect(after.rewrites.link - before.rewrites.link).toBe(pages);
  });

  it('sends the Link at the origin the client called, never the upstream', async () => {
    const response = await fetch(`${proxy.url}/api/v4/projects/1/jobs?per_page=1`, {
      headers: { 'PRIVATE-TOKEN': 'developer-token' },
    });
    const link = response.headers.get('link') ?? '';
    expect(link).toContain(`<${proxy.url}/api/v4/projects/1/jobs?`);
    expect(link).not.toContain(fake.url);
  });

  it("follows a renamed project's 301 to the proxy, counted as a Location rewrite", async () => {
    const before = proxy.report().rewrites.location;
    const jobs = await api().jobs.listProjectJobs({ path: { id: 'my-group/old-project' } });
    expect(jobs.length).toBeGreaterThan(0);
    expect(proxy.report().rewrites.location - before).toBe(1);
    const moved = await fetch(`${proxy.url}/api/v4/projects/my-group%2Fold-project/jobs`, {
      headers: { 'PRIVATE-TOKEN': 'developer-token' },
      redirect: 'manual',
    });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toMatch(new RegExp(`^${proxy.url}/api/v4/projects/\\d+/jobs$`));
  });
});
