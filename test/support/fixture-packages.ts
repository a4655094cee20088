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
 * Generates the client, server and validators packages of the fixture under `.tmp/<name>/` (inside the repository,
 * so that their dependencies resolve from its node_modules) and returns the folder. The types package they depend on
 * goes to `.tmp/<name>/node_modules/@service-api/types/`, and the validators package is also written to
 * `.tmp/<name>/node_modules/@service-api/validators/`, where the fixture's server package finds them.
 * The generators are pure functions of the document: packages generated here earlier from the same fixture, generators
 * and tool versions (a content-hashed stamp, `.tmp/<name>.sha256`) are used as they are.
 */
export async function generateFixturePackages(name: string): Promise<string> {
  const out = join(WORK_DIR, name);
  const stamp: Stamp = {
    file: `${name}.sha256`,
    inputs: ['test/fixtures/packages.yaml', 'test/support/fixture-packages.ts', 'generators', 'package-lock.json'],
  };
  const hash = await inputsHash(stamp);
  if (existsSync(out) && (await stamped(stamp, hash))) return out;
  await rm(join(WORK_DIR, stamp.file), { force: true });
  await rm(out, { recursive: true, force: true });
  const doc = fixtureDocument();
  for (const generator of generators.filter((g) => ['types', 'client', 'server', 'validators'].includes(g.name))) {
    for (const file of await generator.generate(doc)) {
      // The server package imports @service-api/validators: the fixture's own copy sits where Node finds it.
      const local = file.path
        .replace(/^generated\/types\//, 'node_modules/@service-api/types/')
        .replace(/^generated\//, '');
      const paths = [
        local,
        ...(file.path.startsWith('generated/validators/')
          ? [file.path.replace(/^generated\/validators\//, 'node_modules/@service-api/validators/')]
          : []),
      ];
      for (const path of paths.map((p) => join(out, p))) {
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, file.contents);
      }
    }
  }
  await recordStamp(stamp, hash);
  return out;
}
