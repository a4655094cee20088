/** The mini document (test/fixtures/mini.yaml) and each generator's output for it, generated once per test process. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import type { GeneratorModule } from '../../generators/index.ts';
import type { GeneratedFile } from '../../generators/lib/files.ts';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { ROOT } from '../../scripts/lib/paths.ts';

export const mini = YAML.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'mini.yaml'), 'utf8')) as OpenApiDocument;

const outputs = new Map<string, Promise<GeneratedFile[]>>();

/** A generator's output for the mini document, shared by the tests that only read it. */
export function generatedFromMini(generator: GeneratorModule): Promise<GeneratedFile[]> {
  let files = outputs.get(generator.name);
  if (!files) {
    files = generator.generate(mini);
    outputs.set(generator.name, files);
  }
  return files;
}
