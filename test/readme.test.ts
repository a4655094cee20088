/**
 * The README is for consumers: short, the two set-up commands, then the mock, the fake and the client first. Its links
 * and those of CONTRIBUTING.md and docs/ lead to files that exist. (Its TypeScript snippet is compiled by the packages
 * tier: test/packages-readme-snippet.test.ts.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_FOLDERS, PACKAGES } from '../scripts/lib/packages.ts';
import { section } from './support/markdown.ts';

const readme = readFileSync('README.md', 'utf8');

/** The relative link targets of a Markdown text, without their anchors. */
function links(text: string): string[] {
  return [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t));
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
      'packages/openapi/dist/reference.html',
      ...packages,
    ];
    expect(expected.filter((target) => !links(readme).includes(target))).toEqual([]);
  });
});

describe('README.md: the Node each package needs', () => {
  const line = section(readme, 'Set up').replace(/\s+/g, ' ');
  const engines = (folder: string): string =>
    JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).engines?.node ?? '(no engines)';
  /** `name`, `name`: Node `range` groups of the set-up text, as name → range. */
  const stated = new Map(
    [...line.matchAll(/((?:`[a-z-]+`, )*`[a-z-]+`): Node `([^`]+)`/g)].flatMap(([, names, range]) =>
      [...names!.matchAll(/`([a-z-]+)`/g)].map(([, name]) => [name!, range!] as const),
    ),
  );

  it("names the repository's own Node range for building and testing", () => {
    expect(line).toContain(`Build and test on Node \`${engines('.')}\``);
  });

  it.each(PACKAGES)('states the engines.node of $name', ({ name, folder }) => {
    expect(stated.get(name), `README's set-up line for ${name}`).toBe(engines(folder));
  });

  it('names only packages the repository publishes', () => {
    expect([...stated.keys()].filter((name) => !PACKAGES.some((p) => p.name === name))).toEqual([]);
  });
});

describe('README.md: what the contract does not cover', () => {
  const text = section(readme, 'What the contract does not cover');

  it('names the operations and filters a team may expect that the contract does not describe', () => {
    const document = JSON.parse(readFileSync('generated/openapi/openapi.json', 'utf8')) as {
      paths: Record<string, Record<string, { parameters?: { $ref?: string; name?: string }[] }>>;
    };
    expect(document.paths['/projects/{id}/merge_requests/{merge_request_iid}']?.get).toBeUndefined();
    expect(Object.keys(document.paths).filter((path) => /merge_requests\/\{[^}]+\}\/(un)?approve/.test(path))).toEqual(
      [],
    );
    expect(text).toMatch(/Get one merge request/);
    expect(text).toMatch(/approve\/unapprove/);
    const listed = JSON.stringify(document.paths['/projects/{id}/merge_requests']!.get!.parameters);
    expect(listed).toContain('MergeRequestListView"');
    for (const filter of ['State', 'Search', 'Sort', 'SourceBranch', 'TargetBranch', 'Wip']) {
      expect(listed, filter).not.toContain(`MergeRequestList${filter}"`);
      expect(JSON.stringify(document.paths['/merge_requests']!.get!.parameters), filter).toContain(
        `MergeRequestList${filter}"`,
      );
    }
    for (const filter of ['state', 'search', 'sort', 'source_branch', 'target_branch', 'wip'])
      expect(text).toContain(`\`${filter}\``);
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
