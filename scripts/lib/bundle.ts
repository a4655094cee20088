/** Bundling `openapi/` into one document with Redocly: the build's first step, and the gate's check that generated/ is current. */
import { mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { BIN, BUNDLE_JSON, ROOT, SOURCE_ROOT } from './paths.ts';
import { markNullable } from './nullable-marks.ts';
import { portableShapes } from './portable-shapes.ts';
import { run } from './run.ts';

/**
 * Bundles `openapi/openapi.yaml` (or another root, `source`) into `output`, rewritten into the portable shapes
 * (`portable-shapes.ts`) with every nullable property marked (`nullable-marks.ts`), and returns the document. Callers that may run at the same time (`npm test` runs the check
 * and the gate together) pass different outputs. Rejects with Redocly's report.
 */
export async function bundleSource(output = BUNDLE_JSON, source = SOURCE_ROOT): Promise<OpenApiDocument> {
  mkdirSync(dirname(output), { recursive: true });
  // Redocly starts before this returns, so the caller's own work runs while it bundles.
  const result = await run(BIN('redocly'), [
    'bundle',
    source,
    '--config',
    join(ROOT, 'redocly.yaml'),
    '--output',
    output,
  ]);
  if (result.code !== 0) throw new Error(result.output);
  const doc = markNullable(portableShapes(JSON.parse(await readFile(output, 'utf8')) as OpenApiDocument));
  // Spectral lints this file: it must be the document the generators read.
  await writeFile(output, JSON.stringify(doc, null, 2));
  return doc;
}
