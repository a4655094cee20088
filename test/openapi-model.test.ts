/**
 * The one OpenAPI model (packages/server/src/openapi-model.ts, `@service-api/server/internal`): its pointer, reference
 * and dereference rules as tables, and a scan of the repository's sources that fails when a second `$ref` resolver, a
 * second JSON pointer reader, a second list of the HTTP methods or a second repository root appears.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  componentName,
  dereference,
  follow,
  HTTP_METHODS,
  pointerSegment,
  pointerTarget,
  pointerValue,
  resolve,
  sharedDereferencer,
} from '../packages/server/src/openapi-model.ts';
import { ROOT } from '../scripts/lib/paths.ts';

const doc = {
  paths: { '/projects/{id}': { get: { operationId: 'get-project' } } },
  components: {
    schemas: {
      Job: { type: 'object', properties: { parent: { $ref: '#/components/schemas/Job' } } },
      Alias: { $ref: '#/components/schemas/Job', description: 'an alias' },
      Twice: { $ref: '#/components/schemas/Alias', description: 'outer' },
      'a/b~c': { type: 'string' },
      Loop: { $ref: '#/components/schemas/Loop' },
      Broken: { $ref: '#/components/schemas/Missing' },
    },
  },
};

describe('JSON pointers', () => {
  it.each<[string, string, unknown]>([
    ['the whole document', '#', doc],
    ['a component', '#/components/schemas/a~1b~0c', { type: 'string' }],
    ['a percent-encoded fragment', '#/paths/~1projects~1%7Bid%7D/get/operationId', 'get-project'],
    ['a missing key', '#/components/schemas/Nope', undefined],
    ['an inherited property', '#/__proto__', undefined],
    ['a malformed escape', '#/components/%E0', undefined],
    ['a remote reference', 'other.yaml#/components', undefined],
  ])('%s: %s', (_, ref, expected) => {
    expect(pointerTarget(doc, ref)).toEqual(expected);
  });

  it.each<[string, unknown]>([
    ['', { a: [{ 'x/y': 1 }] }],
    ['/a/0/x~1y', 1],
    ['/a/1', undefined],
    ['/a/0/constructor', undefined],
    ['no-slash', undefined],
  ])('the plain pointer %j', (pointer, expected) => {
    expect(pointerValue({ a: [{ 'x/y': 1 }] }, pointer)).toEqual(expected);
  });

  it.each<[string, string | undefined]>([
    ['#/components/schemas/Job', 'Job'],
    ['#/components/schemas/a~1b%7E0c', 'a/b~c'],
    ['#/components/schemas/', undefined],
    ['#/components/schemas/Job/properties/id', undefined],
    ['#/components/parameters/Job', undefined],
    ['#/components/schemas/%E0', undefined],
  ])('names the component schema of %s', (ref, expected) => {
    expect(componentName(ref)).toBe(expected);
  });

  it('writes a key as a segment that reads back', () => {
    expect(pointerSegment('a/b~c')).toBe('a~1b~0c');
    expect(pointerValue({ 'a/b~c': 1 }, `/${pointerSegment('a/b~c')}`)).toBe(1);
  });
});

describe('references', () => {
  it.each<[string, unknown, unknown, Record<string, unknown>, string | undefined]>([
    ['no reference', { type: 'string' }, { type: 'string' }, {}, undefined],
    ['one reference', { $ref: '#/components/schemas/a~1b~0c' }, { type: 'string' }, {}, '#/components/schemas/a~1b~0c'],
    [
      'a chain, the outer siblings winning',
      { $ref: '#/components/schemas/Twice', title: 'here' },
      doc.components.schemas.Job,
      { title: 'here', description: 'outer' },
      '#/components/schemas/Job',
    ],
  ])('follows %s', (_, value, target, siblings, ref) => {
    expect(follow(doc, value)).toEqual({ target, siblings, ref });
    expect(resolve(doc, value)).toEqual(target);
  });

  it.each([
    ['a cycle of references', { $ref: '#/components/schemas/Loop' }, 'Reference cycle at #/components/schemas/Loop'],
    [
      'a missing target',
      { $ref: '#/components/schemas/Broken' },
      'Unresolvable reference #/components/schemas/Missing',
    ],
    ['a remote reference', { $ref: 'other.yaml#/x' }, 'Only local references can be resolved, got other.yaml#/x'],
  ])('refuses %s with a message', (_, value, message) => {
    expect(() => resolve(doc, value)).toThrow(message);
  });
});

describe('dereferencing', () => {
  const job = { type: 'object', properties: { parent: { $ref: '#/components/schemas/Job' } } };
  const source = {
    components: { schemas: { Job: job, Alias: { $ref: '#/components/schemas/Job', description: 'an alias' } } },
    a: { $ref: '#/components/schemas/Alias', title: 'a' },
    b: { $ref: '#/components/schemas/Alias' },
    c: { $ref: '#/components/schemas/Alias' },
  };
  /** Job with its parent expanded once: the reference inside its own target stays. */
  const jobOnce = { type: 'object', properties: { parent: job } };

  it('replaces each reference, keeps a reference inside its own target, and lets siblings win', () => {
    const full = dereference(source);
    expect(full.components.schemas.Job).toEqual(jobOnce);
    expect(full.a).toEqual({ ...job, description: 'an alias', title: 'a' });
    expect(full.b).toEqual({ ...job, description: 'an alias' });
    expect(full.b).not.toBe(full.c);
  });

  it('dereferences lazily, sharing each resolved target, without touching the document', () => {
    const before = structuredClone(source);
    const dereferenceOf = sharedDereferencer(source);
    const [b, c] = [dereferenceOf(source.b), dereferenceOf(source.c)];
    expect(b).toEqual({ ...job, description: 'an alias' });
    expect(b).toBe(c);
    expect(source).toEqual(before);
  });

  it('fails with the reference when a target is missing', () => {
    expect(() => dereference({ a: { $ref: '#/nowhere' } })).toThrow('Unresolvable reference #/nowhere');
  });
});

/** The repository's hand-written sources, tracked or new (generated output and release copies left out). */
const sources = execFileSync(
  'git',
  ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.ts', '*.mts', '*.js', '*.mjs', '*.cjs'],
  { cwd: ROOT, encoding: 'utf8' },
)
  .split('\n')
  .filter((file) => file !== '' && !/^(generated|releases)\/|\/(dist|node_modules)\//.test(file))
  .map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));

const MODEL = 'packages/server/src/openapi-model.ts';
const METHOD = new Set<string>(HTTP_METHODS);

/** An array literal of five or more HTTP method names: a list of the methods of its own. */
function hasMethodList(text: string): boolean {
  return [...text.matchAll(/\[((?:\s*['"][a-z]+['"]\s*,?)+)\]/g)].some((match) => {
    const names = [...match[1]!.matchAll(/['"]([a-z]+)['"]/g)].map((name) => name[1]!);
    return names.filter((name) => METHOD.has(name)).length >= 5;
  });
}

/** What only the model does, each with the files allowed to do it anyway and why. */
const ONE_OF_EACH: { what: string; found: (text: string) => boolean; allowed: Record<string, string> }[] = [
  {
    what: 'reads or writes a JSON pointer by hand (`~1`, `~0`)',
    found: (text) => /~[01]/.test(text),
    allowed: {
      [MODEL]: 'the model',
      'packages/validators/src/validation.ts':
        'names the field of an error from its pointer; the validators sit below the server in the package graph',
      'test/openapi-model.test.ts': "this test's own tables",
    },
  },
  {
    what: 'resolves a `$ref` by its last segment or a prefix, or with @stoplight/json',
    found: (text) =>
      /\$ref\??\.(split|slice|lastIndexOf|substring)\(|\bresolveInlineRef\b|\bpointerToPath\b/.test(text),
    allowed: {
      'scripts/lib/layout.ts': "splits a source fragment's file path (`jobs/paths/x.yaml`), not a JSON pointer",
      'generators/lib/ajv.ts': "names a `$defs` entry of the validators' own Ajv schema, not an OpenAPI reference",
    },
  },
  {
    what: 'reads a `#/components/…` reference with a pattern of its own',
    found: (text) => text.includes('/^#\\/components\\/'),
    allowed: {
      'scripts/spectral/portable-shapes.js':
        "a Spectral function: Spectral's loader bundles plain JavaScript and cannot read the TypeScript model",
      'generators/lib/ajv.ts': "rewrites a schema reference into the validators' own Ajv schema id",
    },
  },
  {
    what: 'lists the HTTP methods',
    found: hasMethodList,
    allowed: {
      [MODEL]: 'the model',
      'scripts/spectral/portable-shapes.js':
        "a Spectral function: Spectral's loader bundles plain JavaScript and cannot read the TypeScript model",
    },
  },
  {
    what: 'computes the repository root',
    found: (text) => /\bconst ROOT\b/.test(text),
    allowed: { 'scripts/lib/paths.ts': 'the one ROOT' },
  },
];

describe('one of each thing', () => {
  it.each(ONE_OF_EACH.map((rule) => [rule.what, rule] as const))('only the model %s', (_, rule) => {
    const offenders = sources.filter(({ file, text }) => !(file in rule.allowed) && rule.found(text));
    expect(
      offenders.map(({ file }) => file),
      `import it from ${MODEL} (@service-api/server/internal)`,
    ).toEqual([]);
    const stale = Object.keys(rule.allowed).filter(
      (file) => !sources.some((source) => source.file === file && rule.found(source.text)),
    );
    expect(stale, 'an exception nothing needs any more: remove it').toEqual([]);
  });

  it('the published packages reach the model through @service-api/server/internal, never by path', () => {
    const byPath = sources.filter(
      ({ file, text }) => /^packages\/[^/]+\/src\//.test(file) && /scripts\/lib\/paths|openapi-model\.ts'/.test(text),
    );
    expect(byPath.map(({ file }) => file)).toEqual([]);
  });
});
