/** The fake's export lifecycle and group lists, through the generated client, with responses validated. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServiceApi, isServiceApiError } from '../generated/client/dist/index.js';
import { startFake, type RunningFake } from '../fake/src/index.ts';

let fake: RunningFake;
const as = (privateToken?: string) => createServiceApi({ host: fake.url, ...(privateToken ? { auth: { privateToken } } : {}) });

async function status(call: Promise<unknown>): Promise<number> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isServiceApiError(error)) throw new Error(`expected a ServiceApiError, got ${String(error)}`);
  return error.status;
}

beforeAll(async () => {
  fake = await startFake({ validateResponses: true });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

describe('project export', () => {
  it('none → queued → started → finished, _links only when finished, download only then, as a real gzip tarball', async () => {
    const api = as('maintainer-token');
    const project = { path: { id: 'my-group/my-project' } };
    expect((await api.projectImportExport.getExportStatus(project)).export_status).toBe('none');
    expect(await status(api.projectImportExport.downloadExport(project))).toBe(404);
    expect(await api.projectImportExport.exportProject({ ...project, body: { description: 'Exported' } })).toEqual({ message: '202 Accepted' });
    const seen: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const record = await api.projectImportExport.getExportStatus(project);
      seen.push(record.export_status);
      expect('_links' in record).toBe(record.export_status === 'finished');
      if (record.export_status === 'finished') break;
    }
    expect(seen).toEqual(['queued', 'started', 'finished']);
    const archive = await api.projectImportExport.downloadExport(project);
    const file = join(mkdtempSync(join(tmpdir(), 'fake-export-')), 'export.tar.gz');
    writeFileSync(file, Buffer.from(await archive.arrayBuffer()));
    const listing = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(listing).toEqual(['project.json', 'repository/README.md', 'repository/scripts/run.sh', 'repository/src/index.js']);
    expect(execFileSync('tar', ['-xzOf', file, 'repository/src/index.js'], { encoding: 'utf8' })).toBe('export const answer = 42;\n');
    // Asking again regenerates.
    await api.projectImportExport.exportProject(project);
    expect((await api.projectImportExport.getExportStatus(project)).export_status).toBe('regeneration_in_progress');
    expect(await status(as('developer-token').projectImportExport.exportProject(project))).toBe(403);
  });
});

describe('groups', () => {
  it('lists visible groups with filters, subgroups and descendants', async () => {
    const anonymous = await as().groups.listGroups();
    expect(anonymous.map((g) => g.full_path)).toEqual(['my-group', 'my-group/sub']);
    expect((await as('outsider-token').groups.listGroups()).map((g) => g.id)).toEqual([]);
    expect((await as('outsider-token').groups.listGroups({ query: { all_available: true } })).map((g) => g.id)).toEqual([1, 2]);
    expect((await as('owner-token').groups.listGroups({ query: { owned: true, top_level_only: true } })).map((g) => g.id)).toEqual([1]);
    expect((await as('admin-token').groups.listGroups({ query: { order_by: 'id', sort: 'desc' } })).map((g) => g.id)).toEqual([2, 1]);
    expect((await as('owner-token').groups.listSubgroups({ path: { id: 'my-group' } })).map((g) => g.full_path)).toEqual(['my-group/sub']);
    expect((await as('owner-token').groups.listDescendantGroups({ path: { id: 1 } })).map((g) => g.parent_id)).toEqual([1]);
    expect(await status(as('owner-token').groups.listSubgroups({ path: { id: 999 } }))).toBe(404);
  });
});
