import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

/** The repository root: generated paths are relative to it, and packages compile against its node_modules. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SOURCE_ROOT = join(ROOT, 'openapi', 'openapi.yaml');
export const WORK_DIR = join(ROOT, '.tmp');
export const BUNDLE_JSON = join(WORK_DIR, 'bundle.json');
/** The gate's own bundle: `npm test` runs the gate beside the check, which writes BUNDLE_JSON. */
export const GATE_BUNDLE_JSON = join(WORK_DIR, 'gate-bundle.json');
/** The contract lint's own bundle (`build.ts --lint-only`): `npm test` runs it beside the check. */
export const LINT_BUNDLE_JSON = join(WORK_DIR, 'lint-bundle.json');
export const PUBLISHED_JSON = join(ROOT, 'generated', 'openapi', 'openapi.json');
export const BIN = (name: string) => join(ROOT, 'node_modules', '.bin', name);
