import { mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import YAML from 'yaml';
import { generators } from '../../generators/index.ts';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { ROOT, WORK_DIR } from '../../scripts/lib/paths.ts';
import { inputsHash, recordStamp, stamped, type Stamp } from '../../scripts/lib/stamps.ts';

/** The fixture document with every shape the package generators handle (multipart, files, HEAD, query forms). */
export function fixtureDocument(): OpenApiDocument {
  return YAML.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'packages.yaml'), 'utf8')) as OpenApiDocument;
}

/**
 * Builds the types, validators, client and server packages of the fixture under `.tmp/<name>/<package>/` (inside the
 * repository, so that their third-party dependencies resolve from its node_modules): each package's `package.json` and
 * the `dist/` its build makes of the fixture. The types and validators packages are also placed under
 * `.tmp/<name>/node_modules/@service-api/`, where the fixture's client and server packages find them.
 * The build is a pure function of the document and the packages' sources: packages built here earlier from the same
 * fixture, generators, sources and tool versions (a content-hashed stamp, `.tmp/<name>.sha256`) are used as they are.
 */
export async function generateFixturePackages(name: string): Promise<string> {
  const out = join(WORK_DIR, name);
  const built = generators.filter((g) => g.build);
  /** The package folder a generator builds (`packages/<id>/dist`): `published` builds `openapi`. */
  const packageOf = (generator: (typeof built)[number]) => generator.build!.folder.split('/')[1]!;
  const ids = built.map(packageOf);
  const stamp: Stamp = {
    file: `${name}.sha256`,
    inputs: [
      'test/fixtures/packages.yaml',
      'test/support/fixture-packages.ts',
      'generators',
      'package-lock.json',
      ...ids.flatMap((id) => [`packages/${id}/src`, `packages/${id}/package.json`]),
    ],
  };
  const hash = await inputsHash(stamp);
  if (existsSync(out) && (await stamped(stamp, hash))) return out;
  await rm(join(WORK_DIR, stamp.file), { force: true });
  await rm(out, { recursive: true, force: true });
  const doc = fixtureDocument();
  for (const generator of built) {
    const dist = await generator.build!.files(doc, await generator.generate(doc));
    const id = packageOf(generator);
    const manifest = {
      path: `packages/${id}/package.json`,
      contents: readFileSync(join(ROOT, 'packages', id, 'package.json'), 'utf8'),
    };
    for (const file of [manifest, ...dist]) {
      const local = file.path.replace(/^packages\//, '');
      const shared = ['types', 'validators'].includes(id) ? [`node_modules/@service-api/${local}`] : [];
      for (const path of [local, ...shared].map((p) => join(out, p))) {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, file.contents);
      }
    }
  }
  await recordStamp(stamp, hash);
  return out;
}
