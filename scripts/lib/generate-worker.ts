/**
 * Runs one generator in a worker thread, so that the build uses both cores: the worker reads the bundle, generates,
 * and posts the files back (or the error message).
 */
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { generators } from '../../generators/index.ts';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';

const { name, bundle } = workerData as { name: string; bundle: string };
const generator = generators.find((g) => g.name === name);
try {
  if (!generator) throw new Error(`No generator named ${name}`);
  const doc = JSON.parse(await readFile(bundle, 'utf8')) as OpenApiDocument;
  parentPort!.postMessage({ files: await generator.generate(doc) });
} catch (error) {
  parentPort!.postMessage({ error: (error as Error).message });
}
