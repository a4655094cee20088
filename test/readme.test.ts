/**
 * The README is for consumers: short, the two set-up commands, then the mock, the fake and the client first. Its links
 * and those of CONTRIBUTING.md and docs/ lead to files that exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_FOLDERS } from '../scripts/lib/packages.ts';

const readme = readFileSync('README.md', 'utf8');

/** The relative link targets of a Markdown text, without their anchors. */
function links(text: string): string[] {
  return [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t));
}

/** The body of the `## title` section of a Markdown text, up to the next `## ` heading. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start < 0) return '';
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('README.md', () => {
  it('is at most 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('keeps exactly the two set-up commands: the main job and the tests', () => {
    const block = /```sh\n([\s\S]*?)```/.exec(section(readme, 'Set up'))?.[1] ?? '';
    const commands = block
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => line.replace(/\s+#.*$/, '').trim());
    expect(commands).toEqual(['npm ci && npm run build', 'npm test']);
  });

  it('starts with the set-up, then the mock, the fake and the client', () => {
    expect([...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]).slice(0, 2)).toEqual(['Set up', 'Quick start']);
    const quickStart = [...section(readme, 'Quick start').matchAll(/^### (.+)$/gm)].map((m) => m[1]!);
    expect(quickStart.slice(0, 3).map((title) => /mock|fake|client/.exec(title)?.[0])).toEqual([
      'mock',
      'fake',
      'client',
    ]);
  });

  it("links to the changelog, the maintainers' guide, docs/, every package README and the HTML reference", () => {
    const packages = PACKAGE_FOLDERS.map((folder) => `${folder}/README.md`);
    const expected = [
      'CHANGELOG.md',
      'CONTRIBUTING.md',
      'docs/fake.md',
      'docs/tolerance.md',
      'docs/pipeline.md',
      'docs/performance.md',
      'generated/openapi/reference.html',
      ...packages,
    ];
    expect(expected.filter((target) => !links(readme).includes(target))).toEqual([]);
  });
});

describe('links between the documents', () => {
  const documents = [
    'README.md',
    'CONTRIBUTING.md',
    ...readdirSync('docs')
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  it.each(documents)('%s links only to files that exist', (document) => {
    const text = readFileSync(document, 'utf8');
    const targets = links(text);
    // The proxy package is built on its own branch: its README may be missing only while proxy/ is.
    const missing = targets
      .map((t) => normalize(join(dirname(document), t)))
      .filter((path) => !existsSync(path) && !(path === join('proxy', 'README.md') && !existsSync('proxy')));
    expect(missing).toEqual([]);
  });
});
