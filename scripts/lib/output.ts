import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { GeneratedFile } from '../../generators/lib/files.ts';
import { ROOT } from './paths.ts';

export interface Drift {
  changed: string[];
  added: string[];
  stale: string[];
}

async function listFiles(folder: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, folder), { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

/** Compares a generator's output with what is on disk in the folder it owns. */
export async function compareOutput(folder: string, files: GeneratedFile[]): Promise<Drift> {
  const drift: Drift = { changed: [], added: [], stale: [] };
  const wanted = new Set(files.map((f) => f.path));
  for (const file of files) {
    const current = await readFile(join(ROOT, file.path), 'utf8').catch(() => undefined);
    if (current === undefined) drift.added.push(file.path);
    else if (current !== file.contents) drift.changed.push(file.path);
  }
  drift.stale = (await listFiles(folder)).filter((path) => !wanted.has(path));
  return drift;
}

/** Writes a generator's output and removes files it no longer produces from the folder it owns. */
export async function writeOutput(folder: string, files: GeneratedFile[]): Promise<Drift> {
  const drift = await compareOutput(folder, files);
  for (const file of files) {
    if (!file.path.startsWith(`${folder}/`)) throw new Error(`${file.path} is outside ${folder}`);
    await mkdir(dirname(join(ROOT, file.path)), { recursive: true });
    await writeFile(join(ROOT, file.path), file.contents);
  }
  for (const path of drift.stale) await rm(join(ROOT, path));
  return drift;
}

export function driftLines(drift: Drift): string[] {
  return [
    ...drift.changed.map((p) => `  changed: ${p}`),
    ...drift.added.map((p) => `  missing: ${p}`),
    ...drift.stale.map((p) => `  stale:   ${p}`),
  ];
}
