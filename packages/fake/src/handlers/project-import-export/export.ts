/**
 * Project export: `none → queued → started → finished` (regeneration_in_progress when asked again after finishing).
 * The fake has no background worker: each status read moves a pending export one step, so a client polling until
 * `finished` sees every state, deterministically. `_links` only when finished; download only then (404 before).
 * The archive is a real gzip tarball of the default branch's files and a `project.json`.
 */
import { gzipSync } from 'node:zlib';
import type { Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import { FORBIDDEN, message, PROJECT_NOT_FOUND, readableProject, webBase } from '../../common.ts';
import type { Project, Store } from '../../store.ts';
import { entryOf, treePaths } from '../../tree.ts';

/** A ustar archive of these files (names up to 100 bytes go in the header, longer ones in the prefix field). */
export function tar(files: [string, Buffer][], mtime: number): Buffer {
  const blocks: Buffer[] = [];
  for (const [path, content] of files) {
    const header = Buffer.alloc(512);
    const name = Buffer.from(path);
    let prefix = Buffer.alloc(0);
    let base = name;
    if (name.length > 100) {
      const cut = path.lastIndexOf('/', 155);
      prefix = Buffer.from(path.slice(0, cut));
      base = Buffer.from(path.slice(cut + 1));
    }
    base.copy(header, 0, 0, 100);
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${content.length.toString(8).padStart(11, '0')}\0`, 124);
    header.write(
      `${Math.floor(mtime / 1000)
        .toString(8)
        .padStart(11, '0')}\0`,
      136,
    );
    header.write('        ', 148);
    header.write('0', 156);
    header.write('ustar\0', 257);
    header.write('00', 263);
    prefix.copy(header, 345, 0, 155);
    const sum = header.reduce((total, byte) => total + byte, 0);
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(header, content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export function exportHandlers(store: Store): Handlers<Principal> {
  const exports = () => (store.data.project_exports ??= {});
  const identity = (project: Project) => store.projectIdentity(project);
  const maintainable = (id: string | number, principal: Principal) => {
    const project = readableProject(store, id, principal);
    if (!project) return { answer: PROJECT_NOT_FOUND };
    if (!store.hasAccess(project, principal.user, 40)) return { answer: FORBIDDEN };
    return { project };
  };

  return {
    'project-import-export/export-project': ({ params, body }, { principal }) => {
      const { project, answer } = maintainable(params.id, principal);
      if (answer) return answer;
      const current = exports()[project!.id];
      exports()[project!.id] = {
        status: current?.status === 'finished' ? 'regeneration_in_progress' : 'queued',
        description: body?.description ?? project!.description ?? null,
        requested_at: store.now(true),
      };
      return { status: 202, body: { message: '202 Accepted' } };
    },
    'project-import-export/get-export-status': ({ params }, { principal }) => {
      const { project, answer } = maintainable(params.id, principal);
      if (answer) return answer;
      const entry = exports()[project!.id];
      const status = entry?.status ?? 'none';
      if (entry && status !== 'finished') entry.status = status === 'queued' ? 'started' : 'finished';
      const path = store.projectPath(project!);
      const base = identity(project!);
      if (status !== 'finished') return { status: 200, body: { ...base, export_status: status } as never };
      return {
        status: 200,
        body: {
          ...base,
          export_status: 'finished',
          _links: {
            api_url: `${webBase(store)}/api/v4/projects/${project!.id}/export/download`,
            web_url: `${webBase(store)}/${path}/download_export`,
          },
        } as never,
      };
    },
    'project-import-export/download-export': ({ params }, { principal, reply }) => {
      const { project, answer } = maintainable(params.id, principal);
      if (answer) return answer;
      if (exports()[project!.id]?.status !== 'finished') return { status: 404, body: message('404 Not found') };
      const head = store.resolveRef(project!, undefined);
      const files: [string, Buffer][] = [
        [
          'project.json',
          Buffer.from(
            JSON.stringify({ ...identity(project!), description: exports()[project!.id]!.description }, null, 2),
          ),
        ],
      ];
      for (const [path, entry] of head ? treePaths(head.tree).map((p) => [p, entryOf(head.tree, p)!] as const) : [])
        files.push([`repository/${path}`, Buffer.from(project!.repository.blobs[entry.blob_id]!, 'base64')]);
      void reply
        .header('content-disposition', `attachment; filename="${project!.path}_export.tar.gz"`)
        .type('application/gzip');
      return {
        status: 200,
        body: new Uint8Array(gzipSync(tar(files, Date.parse(exports()[project!.id]!.requested_at)))),
      };
    },
  };
}
