/**
 * What the generators build with a compiler or a renderer, on the mini document: each package's dist/ (TypeScript),
 * and in @service-api/openapi's the dereferenced documents and the HTML reference (Redocly's renderer). The generator
 * checks that need neither are unit tests (test/generators.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generators, type GeneratorModule } from '../generators/index.ts';
import type { GeneratedFile } from '../generators/lib/files.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import { generatedFromMini, mini } from './support/mini.ts';

const packages = generators.filter((g) => g.build);

/** Each package's dist/ for the mini document, built once. */
const builds = new Map<string, Promise<GeneratedFile[]>>();
function built(generator: GeneratorModule): Promise<GeneratedFile[]> {
  let files = builds.get(generator.name);
  if (!files) {
    files = generatedFromMini(generator).then((sources) => generator.build!.files(mini, sources));
    builds.set(generator.name, files);
  }
  return files;
}

// Built into @service-api/openapi only (not tracked in generated/): snapshots under the names of the bundled files.
it.each([
  'openapi.dereferenced.json',
  'openapi.dereferenced.yaml',
  '3.0/openapi.dereferenced.json',
  '3.0/openapi.dereferenced.yaml',
])('%s has no references left and matches its file snapshot', async (name) => {
  const published = generators.find((g) => g.name === 'published')!;
  const dereferenced = (await built(published)).find((f) => f.path === `packages/openapi/dist/${name}`)!;
  expect(dereferenced.contents).not.toContain('$ref');
  await expect(dereferenced.contents).toMatchFileSnapshot(
    join('__snapshots__', 'mini', 'openapi', name.replace('3.0/openapi.', 'openapi.3.0.')),
  );
});

/** The package a generator builds: `packages/<id>/dist` (the published generator builds @service-api/openapi). */
const packageId = (generator: GeneratorModule) => generator.build!.folder.split('/')[1]!;

describe.each(packages.map((g) => [packageId(g), g] as const))('package %s', (id, generator) => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', id, 'package.json'), 'utf8'));
  /** @service-api/openapi holds the document's files and a module that reads them. */
  const documentPackage = id === 'openapi';

  it('builds its dist/ from its src/ and the generated sources, nothing else', async () => {
    const files = await built(generator);
    const expected = documentPackage
      ? ['index.js', 'index.d.ts', 'openapi.yaml', '3.0/openapi.dereferenced.json', 'examples.json', 'reference.html']
      : ['index.js', 'index.d.ts', 'contract.js'].filter((p) => id !== 'types' || p !== 'contract.js');
    for (const path of expected) expect(files.map((f) => f.path)).toContain(`packages/${id}/dist/${path}`);
    for (const file of files) expect(file.path.startsWith(`${generator.build!.folder}/`), file.path).toBe(true);
  });

  it('records the contract version of the document it was built from', async () => {
    if (documentPackage) {
      for (const name of ['openapi.json', '3.0/openapi.json']) {
        const document = (await built(generator)).find((f) => f.path === `packages/${id}/dist/${name}`)!;
        expect(JSON.parse(document.contents).info.version).toBe('1.2.3');
      }
    }
    const contract = (await built(generator)).find((f) => f.path.endsWith('/dist/contract.d.ts'))!;
    expect(contract.contents).toMatch(id === 'types' ? /ContractVersion = "1\.2\.3"/ : /contractVersion = "1\.2\.3"/);
  });

  // The server package runs on Node only, and so does the module that reads @service-api/openapi's files (its data
  // files are plain JSON and YAML); every other package also runs in browsers.
  if (id !== 'server' && !documentPackage)
    it('ships no Node-only import in its code (it also runs in browsers)', async () => {
      for (const file of (await built(generator)).filter((f) => f.path.endsWith('.js'))) {
        expect(file.contents, file.path).not.toMatch(/from\s+["']node:|require\(/);
      }
    });

  it('imports only its own files and the registry packages its package.json declares', async () => {
    const allowed = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    for (const file of (await built(generator)).filter((f) => /\.(js|d\.ts)$/.test(f.path))) {
      for (const [, specifier] of file.contents.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
        if (specifier!.startsWith('.') || specifier!.startsWith('node:')) continue;
        const name = specifier!.startsWith('@')
          ? specifier!.split('/').slice(0, 2).join('/')
          : specifier!.split('/')[0]!;
        expect(allowed, `${file.path} imports ${specifier}`).toContain(name);
      }
    }
  });
});
