/**
 * What an application's bundle of a one-line entry weighs: esbuild (the root's, which tsx brings) bundles, tree-shakes
 * and minifies it for the browser; the bench reports the sizes and a test holds the guards' bound (a size does not
 * depend on the machine's load).
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { ROOT } from './paths.ts';

export interface BundleSize {
  minified: number;
  gzip: number;
}

/** The minified and gzip -9 bytes of `contents` (an ES module) bundled with what it imports. */
export async function bundleSize(contents: string, resolveDir = ROOT): Promise<BundleSize> {
  const result = await build({
    stdin: { contents, resolveDir, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

/** The largest bundle of one of the package's guards alone, in bytes minified. */
export const ONE_GUARD_LIMIT = 30_000;
