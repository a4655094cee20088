import { bannerText } from './lib/banner.ts';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { promisify } from 'node:util';
import type { GeneratedFile } from './lib/files.ts';
import { operationModels } from './lib/model.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { ROOT } from '../scripts/lib/paths.ts';

export const folder = 'generated/openapi';
/** The operation index, tracked beside the published document: what a reviewer reads. */
export const indexPath = `${folder}/operations.md`;
/**
 * The HTML reference: one line of about 700 k characters that nobody reviews, so it is built into @service-api/openapi's
 * dist/ (each release on the registry carries it), not tracked.
 */
export const referencePath = 'packages/openapi/dist/reference.html';
/** The reference as the tracked index links it (a local build writes it there). */
const referenceLink = posix.relative(posix.dirname(indexPath), referencePath);

/** One row of the operation index: what a reader of the reference or a user of the client looks up. */
export interface IndexEntry {
  operationId: string;
  method: string;
  path: string;
  /** `api.<tag>.<operation>` of `@service-api/client`. */
  clientMethod: string;
  /** The operation's anchor in the reference (`reference.html#/<tag>/<operationId>`). */
  anchor: string;
  summary: string;
  deprecated: boolean;
}

export function operationIndex(doc: OpenApiDocument): IndexEntry[] {
  return operationModels(doc).map((op) => {
    const tag = listTag(doc, op.operationId);
    return {
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      clientMethod: `api.${op.group}.${op.name}`,
      anchor: `#/${tag}/${op.operationId}`,
      summary: op.summary,
      deprecated: op.deprecated,
    };
  });
}

function listTag(doc: OpenApiDocument, operationId: string): string {
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item) as { operationId?: string; tags?: string[] }[]) {
      if (operation?.operationId === operationId) return operation.tags?.[0] ?? 'default';
    }
  }
  throw new Error(`No operation ${operationId}`);
}

/** The index as a Markdown table, grouped in document order. */
export function indexMarkdown(doc: OpenApiDocument, entries = operationIndex(doc)): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = entries.map(
    (e) =>
      `| [\`${e.operationId}\`](${referenceLink}${e.anchor}) | \`${e.method} ${cell(e.path)}\` | \`${e.clientMethod}()\` | ${cell(e.summary)}${e.deprecated ? ' (deprecated)' : ''} |`,
  );
  return [
    `Every operation of ${doc.info.title} ${doc.info.version}: its operationId (a link to the HTML reference), its method and`,
    'path under `{base_url}/api/v4`, and its method in `@service-api/client`.',
    '',
    '| operationId | Method and path | Client method | Summary |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/**
 * Links the HTML may carry without loading them: the Redocly badge in the sidebar loads its logo from a CDN when the page
 * mounts, so the logo is inlined. A different renderer version that no longer has these URLs fails the build, so the
 * offline promise is re-checked on every upgrade (the Chromium test also fails on any request that leaves the file).
 */
const REMOTE_LOGOS = ['https://cdn.redoc.ly/redoc/logo-mini-full.svg', 'https://cdn.redoc.ly/redoc/logo-mini.svg'];
const INLINE_LOGO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="52" height="14"><text x="0" y="11" font-family="sans-serif" font-size="11" fill="#888">Redocly</text></svg>',
)}`;
/** Everything the page needs is inline: nothing is fetched, so it reads the same offline, from a file or any server. */
const CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; connect-src 'none'; base-uri 'none'; form-action 'none'";

/** The document as the reference renders it: the operation index follows the introduction. */
function referenceDocument(doc: OpenApiDocument, index: string): OpenApiDocument {
  const description = typeof doc.info.description === 'string' ? doc.info.description : '';
  const linked = index.split(`](${referenceLink}#`).join('](#');
  return { ...doc, info: { ...doc.info, description: `${description}\n\n## Operation index\n\n${linked}` } };
}

/** Renderings of this process by input: the renderer is a subprocess of a few seconds, and its output depends only on the input. */
const rendered = new Map<string, Promise<string>>();

/** Renders the document to one HTML file with Redocly's renderer, scripts and styles inline. */
function renderHtml(doc: OpenApiDocument): Promise<string> {
  const key = createHash('sha256').update(JSON.stringify(doc)).digest('hex');
  if (!rendered.has(key)) {
    if (rendered.size >= 4) rendered.clear();
    rendered.set(key, runRenderer(doc));
    rendered.get(key)!.catch(() => rendered.delete(key));
  }
  return rendered.get(key)!;
}

async function runRenderer(doc: OpenApiDocument): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'service-api-reference-'));
  try {
    const input = join(dir, 'openapi.json');
    const output = join(dir, 'reference.html');
    await writeFile(input, JSON.stringify(doc));
    await writeFile(join(dir, 'redocly.yaml'), 'telemetry: off\n');
    await promisify(execFile)(
      join(ROOT, 'node_modules', '.bin', 'redocly'),
      [
        'build-docs',
        input,
        '--inlineBundle',
        '--output',
        output,
        '--title',
        `${doc.info.title} ${doc.info.version} reference`,
      ],
      {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 16 << 20,
      },
    );
    return await readFile(output, 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function makeOffline(html: string): string {
  let result = html;
  for (const url of REMOTE_LOGOS) {
    if (!result.includes(url))
      throw new Error(`The renderer no longer links ${url}: check that the reference still loads nothing remote`);
    result = result.split(url).join(INLINE_LOGO);
  }
  const head = '<meta charset="utf8" />';
  if (!result.includes(head))
    throw new Error('The renderer changed its page template: cannot add the Content-Security-Policy');
  return result.replace(head, `${head}\n  <meta http-equiv="Content-Security-Policy" content="${CSP}">`);
}

const banner = (doc: OpenApiDocument) => `<!-- ${bannerText(doc, 'reference')} -->\n`;

/** The operation index, next to the published document. */
export async function generateOperationIndex(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  return [{ path: indexPath, contents: `${banner(doc)}# Operation index\n\n${indexMarkdown(doc)}` }];
}

/** The HTML reference (Redocly's renderer, one offline file) that opens with the operation index. */
export async function generateReference(doc: OpenApiDocument): Promise<GeneratedFile> {
  const html = makeOffline(await renderHtml(referenceDocument(doc, indexMarkdown(doc))));
  // A comment before the doctype keeps standards mode (HTML parsing spec, "initial" insertion mode).
  return { path: referencePath, contents: banner(doc) + html };
}
