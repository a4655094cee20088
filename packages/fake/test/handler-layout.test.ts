/**
 * An operationId leads to its handler: every handler of the fake is in `src/handlers/<tag>/`, where `<tag>` is the
 * operation's tag in the document and the operationId's first segment, and the folders are the document's tags.
 * What sits directly in `src/handlers/` (the parameter tables, helpers several tags share) serves no operation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { implementedOperations } from '../src/index.ts';
import { Store } from '../src/store.ts';

const HANDLERS = join(import.meta.dirname, '..', 'src', 'handlers');
const doc = JSON.parse(readFileSync('generated/openapi/openapi.json', 'utf8')) as {
  tags: { name: string }[];
  paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
};
const tagOf = new Map(
  Object.values(doc.paths).flatMap((item) =>
    Object.values(item).flatMap((op) => (op?.operationId ? [[op.operationId, op.tags?.[0]] as const] : [])),
  ),
);
const emptyStore = () =>
  new Store({ users: [], tokens: [], groups: [], projects: [], pipelines: [], jobs: [], merge_requests: [] });

/** The operationIds each module's `…Handlers(store)` functions answer. */
async function servedBy(file: string): Promise<string[]> {
  const module = (await import(file)) as Record<string, unknown>;
  return Object.entries(module)
    .filter(([name, value]) => typeof value === 'function' && name.endsWith('Handlers'))
    .flatMap(([, factory]) => Object.keys((factory as (store: Store) => object)(emptyStore())));
}

/** The operationIds among `ids` that belong to another tag than `tag` (by the document and by their first segment). */
function outsideTag(tag: string, ids: string[]): string[] {
  return ids.filter((id) => tagOf.get(id) !== tag || !id.startsWith(`${tag}/`));
}

const entries = readdirSync(HANDLERS, { withFileTypes: true });
const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name);
const files = folders.flatMap((tag) =>
  readdirSync(join(HANDLERS, tag))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => ({ tag, name, path: join(HANDLERS, tag, name) })),
);

describe('the fake handlers, one folder per tag', () => {
  it('would report a handler in the folder of another tag, or of an operation the document lacks', () => {
    expect(outsideTag('application', ['application/get-settings', 'users/list-users', 'application/gone'])).toEqual([
      'users/list-users',
      'application/gone',
    ]);
  });

  it('has one folder per tag of the document, and nothing else but .ts files', () => {
    expect(folders.sort()).toEqual(doc.tags.map((t) => t.name).sort());
    expect(entries.filter((e) => !e.isDirectory() && !e.name.endsWith('.ts')).map((e) => e.name)).toEqual([]);
  });

  it.each(files.map((f) => [`${f.tag}/${f.name}`, f] as const))(
    '%s serves only operations of its tag',
    async (_name, { tag, path }) => {
      expect(outsideTag(tag, await servedBy(path))).toEqual([]);
    },
  );

  it('serves every implemented operation from the folder of its tag, and the modules beside the folders none', async () => {
    const served = (await Promise.all(files.map((f) => servedBy(f.path)))).flat();
    expect(served.sort()).toEqual(implementedOperations);
    const loose = entries.filter((e) => e.isFile()).map((e) => join(HANDLERS, e.name));
    expect((await Promise.all(loose.map(servedBy))).flat()).toEqual([]);
  });
});
