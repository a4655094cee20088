/** operationMatcher: a method and a path reach the operation the server routes them to, with decoded parameters. */
import { describe, expect, it } from 'vitest';
import { operationMatcher } from '../src/routing.ts';
import { routes } from '@service-api/server';

const match = operationMatcher(routes);

describe('operationMatcher', () => {
  const cases: [string, string, string | undefined, Record<string, string>?][] = [
    ['GET', '/projects/42/jobs', 'jobs/list-project-jobs', { id: '42' }],
    [
      'GET',
      '/projects/my-group%2Fmy-project/jobs/7',
      'jobs/get-project-job',
      { id: 'my-group/my-project', job_id: '7' },
    ],
    [
      'GET',
      '/projects/1/repository/files/docs%2FREADME.md/raw',
      'repository/get-raw-file',
      { id: '1', file_path: 'docs/README.md' },
    ],
    ['HEAD', '/projects/1/repository/files/a.txt', 'repository/get-file-metadata', { id: '1', file_path: 'a.txt' }],
    // A literal segment wins over a parameter at the same place.
    ['POST', '/projects/import', 'project-import-export/import-project', {}],
    ['GET', '/job', 'jobs/get-token-job', {}],
    ['GET', '/projects/1/repository/archive', 'repository/download-archive', { id: '1' }],
    [
      'GET',
      '/projects/1/repository/archive.tar.gz',
      'repository/download-archive-in-format',
      { id: '1', format: 'tar.gz' },
    ],
    ['DELETE', '/projects/42/jobs', undefined],
    ['GET', '/projects/42/jobs/extra/segments', undefined],
    ['GET', '/nothing', undefined],
    ['GET', '/projects/%E0%A4%A/jobs', undefined],
  ];
  it.each(cases)('%s %s → %s', (method, path, operationId, params) => {
    const found = match(method, path);
    expect(found?.route.id).toBe(operationId);
    if (params) expect(found?.params).toEqual(params);
  });

  it('reaches every operation from its own path template', () => {
    const missed = routes.filter(
      (route) => match(route.method, route.path.replace(/\{[^}]+\}/g, 'x1'))?.route.path !== route.path,
    );
    expect(missed.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });
});
