/**
 * The proxy as a gateway: the upstream's own URLs in `Link` and `Location` are rewritten to the proxy's configured
 * origin, never a client's `Host` (and counted in the report), so the typed client pages `.all()` and follows a renamed project's 301 through
 * it; other URLs and headers pass unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApi } from '@service-api/client';
import { startFake, type RunningFake } from '../../fake/src/index.ts';
import { startProxy, type RunningProxy } from '../src/index.ts';
import { upstreamUrlRewriter } from '../src/rewrite.ts';
import { sendCase } from '../../../test/hostile/send.ts';

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

describe("the rewrite takes the proxy's configured origin, never the client's Host", () => {
  let fake: RunningFake;
  beforeAll(async () => {
    fake = await startFake();
  });
  afterAll(async () => {
    await fake?.close();
  });
  const token = { 'PRIVATE-TOKEN': 'developer-token' };
  const asked = [
    { method: 'GET', path: '/projects/1/jobs?per_page=1', headers: { ...token, Host: 'evil.example' } },
    { method: 'GET', path: '/projects/my-group%2Fold-project/jobs', headers: { ...token, Host: 'evil.example:80' } },
  ];

  it.each([
    ['its address', undefined],
    ['its --origin', 'https://proxy.example'],
  ])('%s', async (_name, origin) => {
    const proxy = await startProxy({ upstream: fake.url, port: 0, ...(origin ? { origin } : {}) });
    try {
      const [list, moved] = await Promise.all(asked.map((request) => sendCase(proxy.url, request)));
      expect(moved!.status).toBe(301);
      const urls = [...String(list!.headers.link).matchAll(/<([^>]*)>/g)].map((m) => m[1]!);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of [...urls, String(moved!.headers.location)]) {
        expect(url.startsWith(`${origin ?? proxy.url}/api/v4/projects/`), url).toBe(true);
        expect(url).not.toContain('evil.example');
      }
      expect(proxy.report().rewrites).toEqual({ link: 1, location: 1 });
    } finally {
      await proxy.close();
    }
  });

  it('refuses an origin that is not one', async () => {
    await expect(startProxy({ upstream: fake.url, port: 0, origin: 'https://proxy.example/path' })).rejects.toThrow(
      /origin must be an http: or https: origin/,
    );
  });
});
