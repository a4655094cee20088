import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexMarkdown, makeOffline, operationIndex, referencePath } from '../generators/reference.ts';
import { operationModels } from '../generators/lib/model.ts';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { PUBLISHED_JSON, ROOT } from '../scripts/lib/paths.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Test artifacts (gitignored): the screenshots a reviewer looks at. */
export const ARTIFACTS = join(ROOT, 'test-artifacts');
/** Built by `npm run build` into @service-api/openapi's dist/, not tracked. */
const REFERENCE = join(ROOT, referencePath);
const doc = JSON.parse(readFileSync(PUBLISHED_JSON, 'utf8')) as OpenApiDocument;
const index = operationIndex(doc);

describe('operation index', () => {
  it('lists every operation once, with the method name the client generator gives it', () => {
    const models = operationModels(doc);
    expect(index.map((e) => e.operationId)).toEqual(models.map((m) => m.operationId));
    for (const [i, entry] of index.entries()) {
      expect(entry.method).toBe(models[i]!.method);
      expect(entry.path).toBe(models[i]!.path);
      expect(entry.clientMethod).toMatch(/^api\.[a-z][A-Za-z0-9]*\.[a-z][A-Za-z0-9]*$/);
    }
    expect(index.find((e) => e.operationId === 'merge-requests/merge')).toMatchObject({
      method: 'PUT',
      path: '/projects/{id}/merge_requests/{merge_request_iid}/merge',
      clientMethod: 'api.mergeRequests.merge',
      anchor: '#/merge-requests/merge-requests/merge',
    });
  });

  it('is published as generated/openapi/operations.md, one row per operation', () => {
    const published = readFileSync(join(ROOT, 'generated', 'openapi', 'operations.md'), 'utf8');
    expect(published).toContain(indexMarkdown(doc));
    const rows = published.split('\n').filter((line) => line.startsWith('| [`'));
    expect(rows).toHaveLength(index.length);
    // The row of one operation, from what the document says of it (its summary is the document's text).
    const [path, method, operation] = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { operationId?: string; summary?: string }>)
        .filter(([, op]) => op?.operationId === 'jobs/list-project-jobs')
        .map(([method, op]) => [path, method, op] as const),
    )[0]!;
    expect(operation.summary).toBeTruthy();
    expect(rows).toContain(
      `| [\`jobs/list-project-jobs\`](../../packages/openapi/dist/reference.html#/jobs/jobs/list-project-jobs) | \`${method.toUpperCase()} ${path}\` | \`api.jobs.listProjectJobs()\` | ${operation.summary} |`,
    );
  });
});

describe('tags', () => {
  it('every tag has a display title (x-displayName) the reference shows instead of its slug', () => {
    for (const tag of doc.tags ?? [])
      expect((tag as Record<string, unknown>)['x-displayName'], tag.name).toMatch(/^[A-Z]/);
  });
});

describe('offline page', () => {
  it('inlines the remote logo and adds a Content-Security-Policy that forbids every fetch', () => {
    const page = makeOffline(
      '<meta charset="utf8" />x https://cdn.redoc.ly/redoc/logo-mini-full.svg y https://cdn.redoc.ly/redoc/logo-mini.svg',
    );
    expect(page).not.toContain('cdn.redoc.ly');
    expect(page).toContain('data:image/svg+xml,');
    expect(page).toMatch(/Content-Security-Policy" content="default-src 'none';[^"]*connect-src 'none'/);
  });

  it('refuses a renderer output it does not recognise instead of publishing a page that may load remote files', () => {
    expect(() => makeOffline('<meta charset="utf8" /> nothing to replace')).toThrow(/no longer links/);
  });

  it('the published HTML names no remote script, stylesheet, font or image', () => {
    const html = readFileSync(REFERENCE, 'utf8');
    expect(html).not.toMatch(/<(script|link|img)\b[^>]*\b(src|href)="https?:/i);
    expect(html).not.toMatch(/@import\s+url\(["']?https?:|@font-face[^}]*url\(["']?https?:/i);
    expect(html).not.toContain('cdn.redoc.ly');
  });
});

// Chromium is a Debian package that `.ci/run` installs: on CI the browser test always runs.
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI === 'true')
  throw new Error(`CI=true but ${CHROMIUM} is missing: .ci/run installs Debian's chromium`);

describe.skipIf(!haveChromium)(
  `HTML reference in headless Chromium${haveChromium ? '' : ` (skipped: no ${CHROMIUM}; set CHROMIUM_PATH)`}`,
  () => {
    let context: BrowserContext;
    let page: Page;
    let profile: string;
    const consoleErrors: string[] = [];
    const remoteRequests: string[] = [];

    beforeAll(async () => {
      profile = mkdtempSync(join(tmpdir(), 'service-api-chromium-'));
      context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
        viewport: { width: 1440, height: 900 },
      });
      page = context.pages()[0] ?? (await context.newPage());
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (/^(file|data|blob):/.test(url)) return route.continue();
        remoteRequests.push(url);
        return route.abort();
      });
      await page.goto(`file://${REFERENCE}`, { waitUntil: 'load' });
      await page.waitForSelector('#redoc h1', { timeout: 30_000 });
    }, 60_000);

    afterAll(async () => {
      await context?.close();
      if (profile) rmSync(profile, { recursive: true, force: true });
    });

    it('renders the introduction, the tags by their display titles and the operation index, and keeps a screenshot', async () => {
      expect(await page.locator('h1').first().innerText()).toContain(`${doc.info.title} (${doc.info.version})`);
      const sidebar = await page.locator('body').innerText();
      for (const tag of doc.tags ?? [])
        expect(sidebar, tag.name).toContain((tag as Record<string, unknown>)['x-displayName'] as string);
      expect(await page.locator('h2', { hasText: 'Operation index' }).count()).toBeGreaterThan(0);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'reference.png') });
      expect(existsSync(join(ARTIFACTS, 'reference.png'))).toBe(true);
    });

    // Chromium renders each operation when its anchor is opened, about 0.2 s of CPU each (30 s for the whole reference):
    // every run opens every anchor, so that a green run means the same on every machine.
    it('every operation has its anchor (#/<tag>/<operationId>) and a heading with its summary', async () => {
      const missing = await page.evaluate(async (entries) => {
        const problems: string[] = [];
        // The section once rendered: each change of the page is looked at, no clock (the test's timeout guards hangs).
        const waitFor = (id: string) =>
          new Promise<HTMLElement>((resolve) => {
            const rendered = () => {
              const element = document.getElementById(id);
              return element?.querySelector('h1, h2, h3') ? element : null;
            };
            const now = rendered();
            if (now) return resolve(now);
            const observer = new MutationObserver(() => {
              const element = rendered();
              if (!element) return;
              observer.disconnect();
              resolve(element);
            });
            observer.observe(document.body, { childList: true, subtree: true, attributes: true });
          });
        for (const entry of entries) {
          // Sections already rendered are read as they are; the others are brought into view by their anchor.
          const rendered = document.getElementById(entry.anchor.slice(2));
          if (!rendered?.querySelector('h1, h2, h3')) window.location.hash = entry.anchor;
          const section = rendered?.querySelector('h1, h2, h3') ? rendered : await waitFor(entry.anchor.slice(2));
          const heading = section?.querySelector('h1, h2, h3')?.textContent ?? '';
          if (!section) problems.push(`${entry.operationId}: no element #${entry.anchor.slice(2)}`);
          else if (!heading.includes(entry.summary))
            problems.push(`${entry.operationId}: heading "${heading}" lacks "${entry.summary}"`);
        }
        return problems;
      }, index);
      expect(missing).toEqual([]);
      await page.evaluate(() => (window.location.hash = '#/merge-requests/merge-requests/merge'));
      await page.waitForFunction(() => {
        const section = document.getElementById('merge-requests/merge-requests/merge');
        return section !== null && Math.abs(section.getBoundingClientRect().top) < 200;
      });
      await page.screenshot({ path: join(ARTIFACTS, 'reference-operation.png') });
    }, 300_000);

    it('loads nothing from the network and logs no console error', () => {
      expect(remoteRequests).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  },
);
