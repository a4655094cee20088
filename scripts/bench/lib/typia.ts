/**
 * typia's `createIs<MergeRequest>()`, compiled from the generated TypeScript type by `typia generate` (typia needs a
 * TypeScript transform; its generate command is that transform, run once here and cached by the types' hash).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../../lib/paths.ts';

/** typia is the bench's own dependency: its command, and the guard it writes, resolve it from the bench's folder. */
const BENCH_DIR = join(ROOT, 'scripts', 'bench');

export async function typiaGuard(): Promise<{ is?: (value: unknown) => boolean; why?: string; seconds: number }> {
  const started = performance.now();
  const dir = join(BENCH_DIR, '.tmp', 'typia');
  const input = join(dir, 'in');
  const output = join(dir, 'out');
  const types = join(ROOT, 'packages', 'validators', 'dist', 'index.d.ts');
  if (!existsSync(types)) return { why: 'packages/validators/dist is missing: run npm run build', seconds: 0 };
  const key = createHash('sha1')
    .update(readFileSync(types))
    .update(readFileSync(join(ROOT, 'packages', 'validators', 'dist', 'types.d.ts')))
    .digest('hex');
  const keyFile = join(output, 'key');
  if (!existsSync(keyFile) || readFileSync(keyFile, 'utf8') !== key) {
    mkdirSync(input, { recursive: true });
    writeFileSync(
      join(input, 'guards.ts'),
      `import typia from 'typia';\nimport type { components } from '${relative(input, join(ROOT, 'packages', 'validators', 'dist', 'index.js'))}';\n` +
        `export const isMergeRequest = typia.createIs<components['schemas']['MergeRequest']>();\n`,
    );
    const tsconfig = join(dir, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: true,
          noEmit: true,
        },
      }),
    );
    const result = spawnSync(
      process.execPath,
      [
        join(BENCH_DIR, 'node_modules', '.bin', 'typia'),
        'generate',
        '--input',
        input,
        '--output',
        output,
        '--project',
        tsconfig,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    if (result.status !== 0 || !existsSync(join(output, 'guards.ts'))) {
      return {
        why: `typia generate failed (${result.status}): ${(result.stderr || result.stdout).trim().split('\n').slice(-3).join(' ')}`,
        seconds: (performance.now() - started) / 1000,
      };
    }
    writeFileSync(keyFile, key);
  }
  const module = (await import(pathToFileURL(join(output, 'guards.ts')).href)) as {
    isMergeRequest: (value: unknown) => boolean;
  };
  return { is: module.isMergeRequest, seconds: (performance.now() - started) / 1000 };
}
