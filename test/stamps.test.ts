import { mkdirSync, rmSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { WORK_DIR } from '../scripts/lib/paths.ts';
import { GENERATED, inputsHash, LINT, recordStamp, stamped, type Stamp } from '../scripts/lib/stamps.ts';

const dir = join(WORK_DIR, 'stamps-test');
const stamp: Stamp = { file: 'stamps-test.sha256', inputs: ['.tmp/stamps-test/folder', '.tmp/stamps-test/single.txt'] };

beforeEach(() => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'folder', 'nested'), { recursive: true });
  writeFileSync(join(dir, 'folder', 'a.txt'), 'a');
  writeFileSync(join(dir, 'folder', 'nested', 'b.txt'), 'b');
  writeFileSync(join(dir, 'single.txt'), 'single');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(join(WORK_DIR, stamp.file), { force: true });
});

describe('inputsHash', () => {
  it.each([
    ['a file in a folder changes', () => writeFileSync(join(dir, 'folder', 'nested', 'b.txt'), 'B')],
    ['a single-file input changes', () => writeFileSync(join(dir, 'single.txt'), 'other')],
    ['a file is added', () => writeFileSync(join(dir, 'folder', 'c.txt'), '')],
    ['a file is renamed', () => renameSync(join(dir, 'folder', 'a.txt'), join(dir, 'folder', 'z.txt'))],
    ['a file is removed', () => rmSync(join(dir, 'folder', 'a.txt'))],
    [
      'content moves from one file to another',
      () => {
        writeFileSync(join(dir, 'folder', 'a.txt'), 'ab');
        writeFileSync(join(dir, 'folder', 'nested', 'b.txt'), '');
      },
    ],
  ])('changes when %s', async (_case, change) => {
    const before = await inputsHash(stamp);
    change();
    expect(await inputsHash(stamp)).not.toBe(before);
  });

  it('is the same for the same files, and differs with what else the result depends on', async () => {
    expect(await inputsHash(stamp)).toBe(await inputsHash(stamp));
    expect(await inputsHash(stamp, 'Chromium 156')).not.toBe(await inputsHash(stamp, 'Chromium 157'));
  });
});

describe('stamped', () => {
  it('is true only for the hash last recorded', async () => {
    const hash = await inputsHash(stamp);
    rmSync(join(WORK_DIR, stamp.file), { force: true });
    expect(await stamped(stamp, hash)).toBe(false);
    await recordStamp(stamp, hash);
    expect(await stamped(stamp, hash)).toBe(true);
    writeFileSync(join(dir, 'single.txt'), 'changed');
    expect(await stamped(stamp, await inputsHash(stamp))).toBe(false);
  });
});

/** Whether the stamp's inputs include the file (itself or a folder above it). */
const covers = (stamp: Stamp, file: string) =>
  stamp.inputs.some((input) => file === input || file.startsWith(`${input}/`));

describe('the stamps of npm test name every input their check depends on', () => {
  it.each([
    ['the lint', 'scripts/build.ts', 'its pass criteria (--fail-severity, the Redocly warning count)', LINT],
    ['the lint', 'scripts/lib/run.ts', 'how the linters are started', LINT],
    ['the lint', 'scripts/lib/layout.ts', 'the layout rules', LINT],
    ['the lint', 'scripts/spectral/example-matches-schema.js', 'the house rules', LINT],
    ['the lint', '.spectral.yaml', 'the Spectral ruleset', LINT],
    ['the lint', 'package-lock.json', "the linters' versions", LINT],
    ['the regeneration', 'scripts/build.ts', 'how the generators are called', GENERATED],
    ['the regeneration', 'scripts/lib/output.ts', 'how generated/ is compared', GENERATED],
    ['the regeneration', 'generators/index.ts', 'the generators', GENERATED],
    ['the regeneration', 'generated/openapi/openapi.json', 'what is compared', GENERATED],
    [
      'the regeneration',
      'packages/server/src/runtime.ts',
      "a package's hand-written sources, compiled into dist/",
      GENERATED,
    ],
    [
      'the regeneration',
      'packages/validators/dist/index.js',
      'the dist/ it wrote (removed or changed, built again)',
      GENERATED,
    ],
  ] as const)('%s reads %s (%s)', (_check, file, _why, stamp) => {
    expect(covers(stamp, file)).toBe(true);
  });
});
