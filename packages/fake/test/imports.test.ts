/**
 * The fake's project imports, relation imports and migrations by direct transfer, through the generated client, with
 * responses validated against the contract: each status step, the one-relation-import rule, who may see what.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tar } from '../src/handlers/project-import-export/export.ts';
import { failure, status, useFake } from '../../../test/support/fake.ts';

const { fake, as, send } = useFake();

/** A project export archive as the Service (and the fake's export download) writes it. */
function exportArchive(
  files: Record<string, string>,
  project: Record<string, unknown> = { name: 'Exported', description: 'From the archive' },
): Blob {
  const entries: [string, Buffer][] = [
    ['project.json', Buffer.from(JSON.stringify(project))],
    ...Object.entries(files).map(([path, text]): [string, Buffer] => [`repository/${path}`, Buffer.from(text)]),
  ];
  return new Blob([new Uint8Array(gzipSync(tar(entries, Date.parse('2025-03-11T10:00:00.000Z'))))], {
    type: 'application/gzip',
  });
}
const notAnExport = () =>
  new Blob([new Uint8Array(gzipSync(Buffer.from('just some text')))], { type: 'application/gzip' });

describe('project import', () => {
  it('export → download → import: scheduled, then one step per status read to finished, with the files and the overrides', async () => {
    const api = as('owner-token');
    const source = { path: { id: 'my-group/my-project' } };
    await api.projectImportExport.exportProject(source);
    while ((await api.projectImportExport.getExportStatus(source)).export_status !== 'finished');
    const archive = await api.projectImportExport.downloadExport(source);

    const created = await api.projectImportExport.importProject({
      body: { file: archive, path: 'copy', namespace: 'my-group', override_params: { description: 'Overridden' } },
    });
    expect(created).toMatchObject({
      path: 'copy',
      name: 'copy',
      path_with_namespace: 'my-group/copy',
      name_with_namespace: 'My Group / copy',
      import_status: 'scheduled',
      description: 'Overridden',
    });
    expect(created.correlation_id).toMatch(/^[0-9a-f]{32}$/);
    expect('failed_relations' in created).toBe(false);

    const seen = [];
    for (let i = 0; i < 5; i += 1) {
      const record = await api.projectImportExport.getImportStatus({ path: { id: created.id } });
      seen.push(record.import_status);
      expect('failed_relations' in record).toBe(record.import_status !== 'scheduled');
      expect(record.correlation_id).toBe(created.correlation_id);
      if (record.import_status === 'finished') break;
    }
    expect(seen).toEqual(['scheduled', 'started', 'finished']);
    expect((await api.projectImportExport.getImportStatus({ path: { id: 'my-group/copy' } })).import_status).toBe(
      'finished',
    );
    // The archive's repository is the new project's.
    const file = await api.repository.getFile({
      path: { id: created.id, file_path: 'src/index.js' },
      query: { ref: 'main' },
    });
    expect(Buffer.from(file.content, 'base64').toString()).toBe('export const answer = 42;\n');
    expect((await api.projects.listProjects({ query: { search: 'copy' } })).map((p) => p.path_with_namespace)).toEqual([
      'my-group/copy',
    ]);
  });

  it('the description comes from the archive unless overridden; name defaults to path unless given', async () => {
    const api = as('owner-token');
    const plain = await api.projectImportExport.importProject({
      body: { file: exportArchive({ 'a.txt': 'a\n' }), path: 'plain', namespace: 1 },
    });
    expect(plain).toMatchObject({
      name: 'plain',
      description: 'From the archive',
      path_with_namespace: 'my-group/plain',
    });
    const named = await api.projectImportExport.importProject({
      body: { file: exportArchive({}), path: 'named', name: 'Named Project', namespace: 'my-group/sub' },
    });
    expect(named).toMatchObject({
      name: 'Named Project',
      path_with_namespace: 'my-group/sub/named',
      name_with_namespace: 'My Group / Sub / Named Project',
    });
  });

  it('an archive that is not a project export is scheduled, then fails with import_error', async () => {
    const api = as('developer-token');
    const created = await api.projectImportExport.importProject({ body: { file: notAnExport(), path: 'broken' } });
    expect(created.path_with_namespace).toBe('dev/broken'); // the caller's own namespace by default
    const statuses = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push(await api.projectImportExport.getImportStatus({ path: { id: created.id } }));
    expect(statuses.map((s) => s.import_status)).toEqual(['scheduled', 'started', 'failed']);
    expect(statuses[2]).toMatchObject({
      import_error: 'The uploaded file is not a valid project export',
      failed_relations: [],
    });
    expect('import_error' in statuses[1]!).toBe(false);
    // A personal project is its owner's: others cannot read it.
    expect(
      await status(as('maintainer-token').projectImportExport.getImportStatus({ path: { id: 'dev/broken' } })),
    ).toBe(404);
  });

  it('a project with the same path is a conflict (409) unless overwrite replaces it', async () => {
    const api = as('owner-token');
    const first = await api.projectImportExport.importProject({
      body: { file: exportArchive({ 'v1.txt': '1\n' }), path: 'twice', namespace: 'my-group' },
    });
    const refused = await failure(
      api.projectImportExport.importProject({
        body: { file: exportArchive({}), path: 'twice', namespace: 'my-group' },
      }),
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ message: expect.stringContaining('my-group/twice') });
    expect(
      await status(
        api.projectImportExport.importProject({
          body: { file: exportArchive({}), path: 'my-project', namespace: 'my-group' },
        }),
      ),
    ).toBe(409);
    const second = await api.projectImportExport.importProject({
      body: { file: exportArchive({ 'v2.txt': '2\n' }), path: 'twice', namespace: 'my-group', overwrite: true },
    });
    expect(second.id).not.toBe(first.id);
    expect(await status(api.projectImportExport.getImportStatus({ path: { id: first.id } }))).toBe(404);
    expect((await api.projectImportExport.getImportStatus({ path: { id: 'my-group/twice' } })).id).toBe(second.id);
  });

  it.each([
    ['developer-token', 'my-group', 403], // Maintainer at least on the destination group
    ['maintainer-token', 'my-group', 403], // a project's Maintainer is not the group's
    ['owner-token', 'no-such-group', 404],
    ['owner-token', 'dev', 403], // another user's namespace
    ['admin-token', 'dev', 201],
  ] as const)('%s importing into %s: %i', async (token, namespace, expected) => {
    const call = as(token).projectImportExport.importProject({
      body: { file: exportArchive({}), path: 'somewhere', namespace },
    });
    if (expected === 201) expect((await call).path_with_namespace).toBe(`${namespace}/somewhere`);
    else expect(await status(call)).toBe(expected);
  });

  it('refuses a missing file or path (400), an invalid path (400), and anonymous callers (401)', async () => {
    const api = as('owner-token');
    expect(await status(api.projectImportExport.importProject({ body: { path: 'x' } as never }))).toBe(400);
    expect(
      await status(api.projectImportExport.importProject({ body: { file: exportArchive({}), path: 'a/b' } })),
    ).toBe(400);
    expect(await status(as().projectImportExport.importProject({ body: { file: exportArchive({}), path: 'x' } }))).toBe(
      401,
    );
  });

  it('remote and object-storage imports answer with import_error, never the secret, and finish empty', async () => {
    const api = as('owner-token');
    const remote = await api.projectImportExport.importProjectFromUrl({
      body: { url: 'https://files.example.com/export.tar.gz', path: 'remote', namespace: 'my-group' },
    });
    expect(remote).toMatchObject({
      import_status: 'scheduled',
      import_error: null,
      path_with_namespace: 'my-group/remote',
    });
    const s3 = await api.projectImportExport.importProjectFromS3({
      body: {
        access_key_id: 'example-access-key-id',
        secret_access_key: 'very-secret',
        bucket_name: 'exports',
        file_key: 'a.tar.gz',
        region: 'eu-west-1',
        path: 's3-import',
        namespace: 'my-group',
        name: 'From S3',
      },
    });
    expect(s3).toMatchObject({ import_status: 'scheduled', import_error: null, name: 'From S3' });
    expect(JSON.stringify(s3)).not.toContain('very-secret');
    for (const id of [remote.id, s3.id]) {
      const steps = [];
      for (let i = 0; i < 3; i += 1)
        steps.push((await api.projectImportExport.getImportStatus({ path: { id } })).import_status);
      expect(steps).toEqual(['scheduled', 'started', 'finished']);
    }
    expect(
      await status(
        api.projectImportExport.importProjectFromUrl({
          body: { url: 'https://files.example.com/x', path: 'remote', namespace: 'my-group' },
        }),
      ),
    ).toBe(409);
  });

  it('a project never imported reports none, without failed_relations; unreadable projects are 404', async () => {
    const record = await as('reporter-token').projectImportExport.getImportStatus({ path: { id: 1 } });
    expect(record).toMatchObject({ id: 1, path_with_namespace: 'my-group/my-project', import_status: 'none' });
    expect('failed_relations' in record).toBe(false);
    expect((await as('reporter-token').projectImportExport.getImportStatus({ path: { id: 1 } })).import_status).toBe(
      'none',
    );
    expect(await status(as('outsider-token').projectImportExport.getImportStatus({ path: { id: 2 } }))).toBe(404);
    expect(await status(as('owner-token').projectImportExport.getImportStatus({ path: { id: 999 } }))).toBe(404);
  });
});

describe('relation imports', () => {
  const project = 'my-group/my-project';

  it('one at a time per project: created → started → finished, one step per list read; then the next', async () => {
    const api = as('maintainer-token');
    const first = await api.projectImportExport.importRelation({
      body: { file: exportArchive({}), path: project, relation: 'issues' },
    });
    expect(first).toEqual({ id: 1, project_path: project, relation: 'issues', status: 'created' });
    const refused = await failure(
      api.projectImportExport.importRelation({
        body: { file: exportArchive({}), path: project, relation: 'milestones' },
      }),
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ message: expect.stringContaining('only one can be scheduled at a time') });
    // Another project is not blocked.
    expect(
      (
        await as('admin-token').projectImportExport.importRelation({
          body: { file: exportArchive({}), path: 'my-group/secret', relation: 'issues' },
        })
      ).status,
    ).toBe('created');

    const list = async () =>
      (await api.projectImportExport.listRelationImports({ path: { id: project } })).map((r) => r.status);
    expect(await list()).toEqual(['created']);
    expect(
      await status(
        api.projectImportExport.importRelation({
          body: { file: exportArchive({}), path: project, relation: 'milestones' },
        }),
      ),
    ).toBe(409);
    expect(await list()).toEqual(['started']);
    expect(await list()).toEqual(['finished']);
    const second = await api.projectImportExport.importRelation({
      body: { file: notAnExport(), path: project, relation: 'milestones' },
    });
    expect(second.id).toBe(3);
    const records = await api.projectImportExport.listRelationImports({ path: { id: 1 } });
    expect(records.map((r) => [r.relation, r.status])).toEqual([
      ['milestones', 'created'],
      ['issues', 'finished'],
    ]);
    expect(
      records.every(
        (r) => r.project_path === project && typeof r.created_at === 'string' && String(r.updated_at) >= r.created_at,
      ),
    ).toBe(true);
    await list();
    expect(await list()).toEqual(['failed', 'finished']); // not a project export
  });

  it('paginates the list with the API headers', async () => {
    const api = as('maintainer-token');
    for (const relation of ['issues', 'milestones', 'ci_pipelines'] as const) {
      await api.projectImportExport.importRelation({ body: { file: exportArchive({}), path: project, relation } });
      while (
        (await api.projectImportExport.listRelationImports({ path: { id: 1 } })).some(
          (r) => r.status === 'created' || r.status === 'started',
        )
      );
    }
    const page = await api.projectImportExport.listRelationImports.withResponse({
      path: { id: 1 },
      query: { per_page: 2, page: 2 },
    });
    expect(page.data.map((r) => r.relation)).toEqual(['issues']);
    expect(page.pagination).toMatchObject({ page: 2, perPage: 2, total: 3, totalPages: 2, prevPage: 1 });
    expect(page.rawHeaders.get('link')).toContain('rel="first"');
  });

  it.each([
    ['developer-token', project, 403],
    ['outsider-token', 'my-group/secret', 404],
    ['maintainer-token', 'my-group/nothing', 404],
  ] as const)('%s on %s: %i, for the import and for the list', async (token, path, expected) => {
    expect(
      await status(
        as(token).projectImportExport.importRelation({ body: { file: exportArchive({}), path, relation: 'issues' } }),
      ),
    ).toBe(expected);
    expect(await status(as(token).projectImportExport.listRelationImports({ path: { id: path } }))).toBe(expected);
  });

  it('refuses a relation outside the four (400)', async () => {
    expect(
      await status(
        as('maintainer-token').projectImportExport.importRelation({
          body: { file: exportArchive({}), path: project, relation: 'labels' as never },
        }),
      ),
    ).toBe(400);
  });
});

describe('migration by direct transfer', () => {
  const configuration = { url: 'https://source.example', access_token: 'source-secret' };

  it('create → created, started, finished one step per read, entities with it; the destinations then exist', async () => {
    const api = as('owner-token');
    const migration = await api.bulkImports.createMigration({
      body: {
        configuration,
        entities: [
          {
            source_type: 'group_entity',
            source_full_path: 'source/platform',
            destination_slug: 'platform',
            destination_namespace: 'my-group',
          },
          {
            source_type: 'project_entity',
            source_full_path: 'source/platform/api',
            destination_slug: 'api',
            destination_namespace: 'my-group/sub',
          },
        ],
      },
    });
    expect(migration).toMatchObject({ id: 3, status: 'created', source_type: 'service' });
    expect(JSON.stringify(migration)).not.toContain('source-secret');

    const entities = await api.bulkImports.listMigrationEntities({
      path: { id: migration.id },
      query: { sort: 'asc' },
    });
    expect(entities.map((e) => [e.id, e.source_type, e.status])).toEqual([
      [3, 'group_entity', 'created'],
      [4, 'project_entity', 'created'],
    ]);
    expect(entities[0]!.stats).toEqual({});
    expect((await api.bulkImports.getMigration({ path: { id: migration.id } })).status).toBe('started');
    expect((await api.bulkImports.getMigrationEntity({ path: { id: migration.id, entity_id: 4 } })).status).toBe(
      'finished',
    );
    expect((await api.bulkImports.getMigration({ path: { id: migration.id } })).status).toBe('finished');

    const all = await api.bulkImports.listAllEntities({ query: { sort: 'asc' } });
    expect(all.map((e) => [e.id, e.status, e.destination_namespace, e.destination_slug])).toEqual([
      [3, 'finished', 'my-group', 'platform'],
      [4, 'finished', 'my-group/sub', 'api'],
    ]);
    const group = all[0]!;
    const project = all[1]!;
    expect(group.namespace_id).toEqual(expect.any(Number));
    expect(project.project_id).toEqual(expect.any(Number));
    expect(project.failures).toEqual([]);
    // The imported group (the importer its Owner) and project exist.
    expect((await api.groups.listSubgroups({ path: { id: 'my-group' } })).map((g) => g.full_path)).toContain(
      'my-group/platform',
    );
    expect(
      (await api.projects.listProjects({ query: { search: 'api' } })).map((p) => [p.id, p.path_with_namespace]),
    ).toEqual([[project.project_id, 'my-group/sub/api']]);
    expect(await api.bulkImports.getEntityFailures({ path: { id: migration.id, entity_id: 4 } })).toEqual([]);
  });

  it("a migration and its entities are their creator's only (404 for anyone else)", async () => {
    const dev = as('developer-token');
    expect((await dev.bulkImports.getMigration({ path: { id: 1 } })).status).toBe('finished');
    expect((await dev.bulkImports.listMigrations()).map((m) => m.id)).toEqual([1, 2]);
    for (const token of ['owner-token', 'admin-token']) {
      const other = as(token);
      expect(await status(other.bulkImports.getMigration({ path: { id: 1 } }))).toBe(404);
      expect(await status(other.bulkImports.listMigrationEntities({ path: { id: 1 } }))).toBe(404);
      expect(await status(other.bulkImports.getMigrationEntity({ path: { id: 1, entity_id: 1 } }))).toBe(404);
      expect(await status(other.bulkImports.getEntityFailures({ path: { id: 1, entity_id: 2 } }))).toBe(404);
      expect(await other.bulkImports.listMigrations()).toEqual([]);
      expect(await other.bulkImports.listAllEntities()).toEqual([]);
    }
    expect(await status(dev.bulkImports.getMigrationEntity({ path: { id: 1, entity_id: 99 } }))).toBe(404);
    expect(await status(as().bulkImports.listMigrations())).toBe(401);
  });

  it('a failed entity carries its failures; the failures endpoint answers them as a list', async () => {
    const dev = as('developer-token');
    const entities = await dev.bulkImports.listAllEntities({ query: { status: 'failed' } });
    expect(entities.map((e) => e.id)).toEqual([2]);
    expect(entities[0]!.failures[0]).toMatchObject({
      relation: 'issues',
      exception_class: 'StandardError',
      pipeline_step: 'extractor',
    });
    expect(await dev.bulkImports.getEntityFailures({ path: { id: 1, entity_id: 2 } })).toEqual([
      {
        relation: 'issues',
        exception_message: 'Error!',
        exception_class: 'StandardError',
        correlation_id_value: '06289e4b064329a69de7bb2d7a1b5a97',
        source_url: 'https://source.example/source-group/legacy-app/-/issues/7',
        source_title: 'Broken import of the issue tracker',
      },
    ]);
    expect(await dev.bulkImports.getEntityFailures({ path: { id: 1, entity_id: 1 } })).toEqual([]);
    expect(await status(dev.bulkImports.getEntityFailures({ path: { id: 1, entity_id: 99 } }))).toBe(404);
  });

  it('filters by status, sorts by creation date (default desc) and paginates', async () => {
    const owner = as('owner-token');
    const entity = {
      source_type: 'project_entity' as const,
      source_full_path: 'source/app',
      destination_namespace: 'my-group',
    };
    for (const slug of ['one', 'two', 'three'])
      await owner.bulkImports.createMigration({
        body: { configuration, entities: [{ ...entity, destination_slug: slug }] },
      });
    const created = await owner.bulkImports.listMigrations({ query: { status: 'created' } }); // this read moves them on
    expect(created.map((m) => m.id)).toEqual([5, 4, 3]);
    expect(
      (await owner.bulkImports.listMigrations({ query: { status: 'started', sort: 'asc' } })).map((m) => m.id),
    ).toEqual([3, 4, 5]);
    expect((await owner.bulkImports.listMigrations({ query: { status: 'finished' } })).map((m) => m.id)).toEqual([
      5, 4, 3,
    ]);
    const page = await owner.bulkImports.listMigrations.withResponse({ query: { per_page: 2, page: 1 } });
    expect(page.data.map((m) => m.id)).toEqual([5, 4]);
    expect(page.pagination).toMatchObject({ page: 1, nextPage: 2, total: 3, totalPages: 2 });
    expect(
      (await owner.bulkImports.listAllEntities({ query: { per_page: 2, page: 2 } })).map((e) => e.destination_slug),
    ).toEqual(['one']);
    const dev = as('developer-token');
    expect(
      (await dev.bulkImports.listMigrationEntities({ path: { id: 1 }, query: { status: 'finished' } })).map(
        (e) => e.id,
      ),
    ).toEqual([1]);
    expect((await dev.bulkImports.listMigrations({ query: { status: 'finished' } })).map((m) => m.id)).toEqual([1]);
    expect(await status(owner.bulkImports.listMigrations({ query: { status: 'paused' as never } }))).toBe(400);
    expect(await status(owner.bulkImports.listAllEntities({ query: { sort: 'sideways' as never } }))).toBe(400);
  });

  it.each([
    [
      'a namespace that does not exist',
      { destination_namespace: 'nowhere', destination_slug: 'x' },
      'entities[0][destination_namespace]',
    ],
    [
      'a namespace the caller cannot import into',
      { destination_namespace: 'my-group', destination_slug: 'x', token: 'developer-token' },
      'entities[0][destination_namespace]',
    ],
    [
      'a slug already taken',
      { destination_namespace: 'my-group', destination_slug: 'sub' },
      'entities[0][destination_slug]',
    ],
    [
      'an invalid slug',
      { destination_namespace: 'my-group', destination_slug: 'a/b' },
      'entities[0][destination_slug]',
    ],
  ])('refuses %s (400, naming the field)', async (_name, given, field) => {
    const { token = 'owner-token', ...entity } = given as {
      token?: string;
      destination_namespace: string;
      destination_slug: string;
    };
    const refused = await failure(
      as(token).bulkImports.createMigration({
        body: { configuration, entities: [{ source_type: 'group_entity', source_full_path: 'source/x', ...entity }] },
      }),
    );
    expect(refused.status).toBe(400);
    expect((refused.body as { errors: { field: string }[] }).errors.map((e) => e.field)).toContain(field);
    expect(fake.state().bulk_imports).toHaveLength(2); // the data set's two
  });

  it('refuses the same destination twice in one request, and a body without configuration or entities (400)', async () => {
    const api = as('owner-token');
    const entity = {
      source_type: 'group_entity' as const,
      source_full_path: 'source/x',
      destination_namespace: 'my-group',
      destination_slug: 'same',
    };
    const refused = await failure(
      api.bulkImports.createMigration({
        body: { configuration, entities: [entity, { ...entity, source_full_path: 'source/y' }] },
      }),
    );
    expect((refused.body as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual([
      'entities[1][destination_slug]',
    ]);
    expect(await status(api.bulkImports.createMigration({ body: { entities: [entity] } as never }))).toBe(400);
    expect(
      await status(
        api.bulkImports.createMigration({
          body: { configuration: { url: 'https://source.example' }, entities: [entity] } as never,
        }),
      ),
    ).toBe(400);
    expect(
      await status(
        api.bulkImports.createMigration({
          body: { configuration, entities: [{ ...entity, source_type: 'repository' }] } as never,
        }),
      ),
    ).toBe(400);
  });
});

describe('hostile archives and fields', () => {
  it('a gzip bomb and unsafe paths end as a failed import or are left out; override_params cannot reach a prototype', async () => {
    const api = as('owner-token');
    const bomb = new Blob([new Uint8Array(gzipSync(Buffer.alloc(65 * 1024 * 1024)))]);
    const exploded = await api.projectImportExport.importProject({
      body: { file: bomb, path: 'bomb', namespace: 'my-group' },
    });
    const steps = [];
    for (let i = 0; i < 3; i += 1)
      steps.push((await api.projectImportExport.getImportStatus({ path: { id: exploded.id } })).import_status);
    expect(steps).toEqual(['scheduled', 'started', 'failed']);

    const unsafe = exportArchive({
      'ok.txt': 'fine\n',
      '../escape.txt': 'no\n',
      'a/./b.txt': 'no\n',
      'c//d.txt': 'no\n',
    });
    const imported = await api.projectImportExport.importProject({
      body: { file: unsafe, path: 'unsafe', namespace: 'my-group' },
    });
    while ((await api.projectImportExport.getImportStatus({ path: { id: imported.id } })).import_status !== 'finished');
    const tree = await api.repository.listTree({ path: { id: imported.id }, query: { recursive: true } });
    expect(tree.map((e) => e.path)).toEqual(['ok.txt']);

    const form = new FormData();
    form.append('file', exportArchive({}));
    form.append('path', 'poisoned');
    form.append('override_params[__proto__][polluted]', 'yes');
    form.append('override_params[constructor][prototype][polluted]', 'yes');
    const response = await send('/projects/import', { method: 'POST', token: 'owner-token', body: form });
    expect(response.status).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
