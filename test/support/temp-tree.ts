import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A new temporary folder holding `files` (relative path → contents); returns its path. */
export function tempTree(prefix: string, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), contents);
  }
  return dir;
}
