/**
 * The caches outside the clone (scripts/lib/user-cache.ts, used by the polyglot tier and the locked installs): where
 * they are, that a key changes with every input and only with them, and that an entry is made once, never trusted half
 * made, and not lost to a dead lock holder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { WORK_DIR } from '../scripts/lib/paths.ts';
import { cachedEntry, cacheKey, entryFolder, type KeyInputs } from '../scripts/lib/user-cache.ts';
import { polyglotCacheRoot } from './polyglot/support/cache.ts';

const dir = join(WORK_DIR, 'user-cache-test');
const root = join(dir, 'cache');
const file = (name: string) => join(dir, name);

const inputs = (): KeyInputs => ({
  kind: 'build',
  files: { rendition: file('openapi.json'), 'pins.json': file('pins.json') },
  values: { generator: 'ogen', command: '["ogen","--target","OUT"]', go: 'go version go1.24.0 linux/amd64' },
});

beforeEach(() => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(file('openapi.json'), '{"openapi":"3.0.3"}');
  writeFileSync(file('pins.json'), '{"ogen":"v1.24.0"}');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('polyglotCacheRoot', () => {
  it('is outside the clone: the variable, else XDG_CACHE_HOME, else ~/.cache', () => {
    expect(polyglotCacheRoot({ SERVICE_API_POLYGLOT_CACHE: '/c', XDG_CACHE_HOME: '/x' }, '/home/u')).toBe('/c');
    expect(polyglotCacheRoot({ XDG_CACHE_HOME: '/x' }, '/home/u')).toBe('/x/service-api/polyglot');
    expect(polyglotCacheRoot({}, '/home/u')).toBe('/home/u/.cache/service-api/polyglot');
  });
});

describe('cacheKey', () => {
  it('is the same for the same inputs, whatever their order', () => {
    const reordered = inputs();
    reordered.values = Object.fromEntries(Object.entries(reordered.values).reverse());
    reordered.files = Object.fromEntries(Object.entries(reordered.files).reverse());
    expect(cacheKey(reordered)).toBe(cacheKey(inputs()));
    expect(cacheKey(inputs())).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the same for the same bytes under another path (another clone)', () => {
    mkdirSync(file('clone'));
    writeFileSync(file('clone/openapi.json'), readFileSync(file('openapi.json')));
    const elsewhere = inputs();
    elsewhere.files.rendition = file('clone/openapi.json');
    expect(cacheKey(elsewhere)).toBe(cacheKey(inputs()));
  });

  it.each<[string, (given: KeyInputs) => void]>([
    ["the rendition's bytes", () => writeFileSync(file('openapi.json'), '{"openapi":"3.0.4"}')],
    ['a pinned version', () => writeFileSync(file('pins.json'), '{"ogen":"v1.25.0"}')],
    ['an option of the command', (given) => (given.values.command = '["ogen","--clean","--target","OUT"]')],
    ["a toolchain's version", (given) => (given.values.go = 'go version go1.25.0 linux/amd64')],
    ['the generator', (given) => (given.values.generator = 'oapi-codegen')],
    ['an added input', (given) => (given.values.python = 'Python 3.13.1')],
    ['the kind of entry', (given) => (given.kind = 'driver')],
    ['the name an input file is known by', (given) => (given.files = { other: file('openapi.json') })],
    ['content moved between a name and its value', (given) => (given.values = { generatorogen: '', ...given.values })],
  ])('changes when %s changes', (_what, change) => {
    const before = cacheKey(inputs());
    const changed = inputs();
    change(changed);
    expect(cacheKey(changed)).not.toBe(before);
  });
});

describe('cachedEntry', () => {
  const key = 'ab'.repeat(32);

  it('makes an entry once; a second call returns it without making it again', async () => {
    let made = 0;
    const make = async (folder: string) => {
      made += 1;
      writeFileSync(join(folder, 'out.txt'), 'compiled');
    };
    const folder = await cachedEntry('build', key, make, root);
    expect(folder).toBe(entryFolder('build', key, root));
    expect(await cachedEntry('build', key, make, root)).toBe(folder);
    expect(made).toBe(1);
    expect(readFileSync(join(folder, 'out.txt'), 'utf8')).toBe('compiled');
    expect(existsSync(`${folder}.lock`)).toBe(false);
  });

  it('makes it once when two callers ask at the same time', async () => {
    let made = 0;
    const make = async (folder: string) => {
      made += 1;
      writeFileSync(join(folder, 'out.txt'), String(made));
    };
    const folders = await Promise.all([cachedEntry('build', key, make, root), cachedEntry('build', key, make, root)]);
    expect(folders[0]).toBe(folders[1]);
    expect(made).toBe(1);
  });

  it('never trusts an entry whose making failed: the next call makes it from an empty folder', async () => {
    const failing = async (folder: string) => {
      writeFileSync(join(folder, 'half.txt'), 'half');
      throw new Error('the compiler crashed');
    };
    await expect(cachedEntry('build', key, failing, root)).rejects.toThrow('the compiler crashed');
    const folder = await cachedEntry('build', key, async (entry) => writeFileSync(join(entry, 'out.txt'), 'ok'), root);
    expect(existsSync(join(folder, 'half.txt'))).toBe(false);
    expect(readFileSync(join(folder, 'out.txt'), 'utf8')).toBe('ok');
  });

  it('takes over the lock of a process that died making the entry, and remakes what it left', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const folder = entryFolder('build', key, root);
    mkdirSync(`${folder}.lock`, { recursive: true });
    writeFileSync(join(`${folder}.lock`, 'pid'), String(dead));
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'half.txt'), 'half');
    await cachedEntry('build', key, async (entry) => writeFileSync(join(entry, 'out.txt'), 'ok'), root);
    expect(existsSync(join(folder, 'half.txt'))).toBe(false);
    expect(readFileSync(join(folder, 'out.txt'), 'utf8')).toBe('ok');
  });
});
