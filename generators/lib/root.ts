import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: generated paths are relative to it, and packages compile against its node_modules. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
