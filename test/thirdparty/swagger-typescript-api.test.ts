/**
 * swagger-typescript-api (Node >= 20, runs on this Node): the fetch client and its types in one Api.ts, from the
 * published 3.1 document (with swagger-typescript-api.config.ts); compiled strict, then checked for fidelity.
 */
import { describe, expect, it } from 'vitest';
import { ENCODED_PROJECT_PATH, fetchStub, generatorTests, PROJECT_PATH } from './support/generator.ts';
import { DOCUMENT_31, NODE_HERE, run, toolFile } from './support/tools.ts';

type Api = new (config: { baseUrl: string; customFetch: typeof fetch }) => Record<string, Record<string, unknown>>;

describe('swagger-typescript-api', () => {
  const sta = generatorTests(
    'swagger-typescript-api',
    'generates the fetch client and its types from the 3.1 document',
    (out) =>
      run(NODE_HERE, [
        toolFile('.bin', 'swagger-typescript-api'),
        'generate',
        '--path',
        DOCUMENT_31,
        '--output',
        out,
        '--name',
        'Api.ts',
        '--enum-style=union',
      ]),
  );

  it('swagger-typescript-api: Api.ts is valid JavaScript (each method names a parameter once)', async () => {
    // Its output starts with `// @ts-nocheck`, so tsc passes a duplicate parameter; loading it does not.
    await expect(sta.load('Api.ts')).resolves.toHaveProperty('Api');
  });

  it(`swagger-typescript-api: the client sends the path id ${PROJECT_PATH} encoded`, async () => {
    const { Api } = await sta.load<{ Api: Api }>('Api.ts');
    const stub = fetchStub([]);
    const api = new Api({ baseUrl: 'http://127.0.0.1/api/v4', customFetch: stub.fetch as typeof fetch });
    const list = api.projects!.jobsListProjectJobs as (id: string) => Promise<unknown>;
    await list(PROJECT_PATH);
    expect(stub.urls).toEqual([`http://127.0.0.1/api/v4${ENCODED_PROJECT_PATH}jobs`]);
  });
});
