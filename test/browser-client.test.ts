/**
 * The typed client in a browser: Debian's Chromium, driven by playwright-core, loads a page from one origin and runs
 * the client (bundled for browsers by esbuild from packages/client/dist) against the fake (`cors: true`) and the mock
 * on two other origins: CORS preflights, exposed pagination headers, JSON writes and narrowed errors.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFake, type RunningFake } from '../packages/fake/src/index.ts';
import { startMock, type RunningMock } from '../packages/mock/src/index.ts';
import { ROOT } from '../scripts/lib/paths.ts';

/** The page's global: the client's module, loaded by the page from its origin. */
type Loaded = { client: typeof import('@service-api/client') };

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI === 'true')
  throw new Error(`CI=true but ${CHROMIUM} is missing: .ci/run installs Debian's chromium`);

/** The page's origin: an empty page and the client's browser bundle. */
async function servePage(): Promise<{ server: Server; url: string }> {
  const bundle = await build({
    entryPoints: [join(ROOT, 'packages', 'client', 'dist', 'index.js')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
  });
  const script = bundle.outputFiles[0]!.text;
  const server = createServer((request, response) => {
    if (request.url === '/client.js')
      return void response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<!doctype html><title>client</title><script type="module">import * as client from '/client.js'; window.client = client;</script>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://localhost:${(server.address() as AddressInfo).port}` };
}

describe.skipIf(!haveChromium)(
  `the client in Chromium against the fake and the mock on other origins${haveChromium ? '' : ` (skipped: no ${CHROMIUM}; set CHROMIUM_PATH)`}`,
  () => {
    let browser: Browser;
    let page: Page;
    let site: { server: Server; url: string };
    let fake: RunningFake;
    let mock: RunningMock;
    const consoleErrors: string[] = [];

    beforeAll(async () => {
      [site, fake, mock] = await Promise.all([servePage(), startFake({ cors: true }), startMock()]);
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      });
      page = await browser.newPage();
      page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
      await page.goto(site.url);
      await page.waitForFunction(() => 'client' in window);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await Promise.all([fake?.close(), mock?.close()]);
      site?.server.close();
    });

    it('pages, writes and narrows errors against the fake (preflights answered)', async () => {
      const outcome = await page.evaluate(async (host) => {
        const { createServiceApi, isServiceApiError } = (window as unknown as Loaded).client;
        const api = createServiceApi({ host, auth: { privateToken: 'developer-token' } });
        const all = await api.jobs.listProjectJobs.all({ path: { id: 1 }, query: { per_page: 2 } });
        const first = await api.jobs.listProjectJobs.withResponse({ path: { id: 1 }, query: { per_page: 2 } });
        await api.repository.createFile({
          path: { id: 'my-group/my-project', file_path: 'docs/browser.md' },
          body: { branch: 'feature/browser', start_branch: 'main', content: '# browser\n', commit_message: 'Add' },
        });
        const body = { source_branch: 'feature/browser', target_branch: 'main', title: 'From Chromium' };
        const created = await api.mergeRequests.createMergeRequest({ path: { id: 'my-group/my-project' }, body });
        const again = await api.mergeRequests
          .createMergeRequest({ path: { id: 'my-group/my-project' }, body })
          .catch((error: unknown) => error);
        const missing = await api.jobs.getProjectJob({ path: { id: 1, job_id: 999999 } }).then(
          () => ['answered', 200],
          (error: { kind: string; status: number }) => [error.kind, error.status],
        );
        return {
          pages: all.length,
          nextPage: first.pagination.nextPage,
          total: first.pagination.total,
          created: [created.state, created.title],
          conflict: isServiceApiError(again, 'merge-requests/create-merge-request', 409),
          missing,
        };
      }, fake.url);
      expect(outcome).toMatchObject({
        nextPage: 2,
        created: ['opened', 'From Chromium'],
        conflict: true,
        missing: ['http', 404],
      });
      expect(outcome.pages).toBe(outcome.total);
      expect(consoleErrors).toEqual([]);
    });

    it('pages and reads documented errors against the mock', async () => {
      const outcome = await page.evaluate(async (host) => {
        const { createServiceApi } = (window as unknown as Loaded).client;
        const api = createServiceApi({ host, auth: { privateToken: 'any' } });
        const all = await api.jobs.listProjectJobs.all({ path: { id: 42 }, query: { per_page: 1 } });
        const merged = await api.mergeRequests
          .merge({ path: { id: 42, merge_request_iid: 1 }, body: { sha: 'abc' } }, { headers: { Prefer: 'code=409' } })
          .catch((error: { kind: string; status: number }) => [error.kind, error.status]);
        return { pages: all.length, merged };
      }, mock.url);
      expect(outcome.pages).toBeGreaterThan(1);
      expect(outcome.merged).toEqual(['http', 409]);
      expect(consoleErrors).toEqual([]);
    });

    it('is refused by a fake without cors: the browser blocks it (a network error)', async () => {
      const plain = await startFake();
      try {
        const kind = await page.evaluate(async (host) => {
          const { createServiceApi } = (window as unknown as Loaded).client;
          const api = createServiceApi({ host, auth: { privateToken: 'developer-token' }, retry: { attempts: 1 } });
          return api.jobs.listProjectJobs({ path: { id: 1 } }).then(
            () => 'answered',
            (error: { kind: string }) => error.kind,
          );
        }, plain.url);
        expect(kind).toBe('network');
      } finally {
        await plain.close();
      }
    });
  },
);
