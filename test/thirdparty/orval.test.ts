/**
 * orval (on Node >= 22): the fetch client with its models, msw handlers (with faker) and zod schemas, from the
 * published 3.1 document (orval.config.ts); compiled strict, then checked for fidelity.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ENCODED_PROJECT_PATH, fetchStub, generatorTests, PROJECT_PATH } from './support/generator.ts';
import { pascalCase, refusedExamples, successExamples } from './support/examples.ts';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../../scripts/lib/paths.ts';
import { NODE_LTS, run, TIER, toolFile } from './support/tools.ts';

/** The repository's tsx, which runs the probe's TypeScript and resolves orval's extensionless imports. */
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

interface Zod {
  safeParse(value: unknown): { success: boolean; error?: unknown };
}
type Sdk = Record<string, (...args: unknown[]) => Promise<{ status: number; data: unknown }>>;

describe('orval', () => {
  const orval = generatorTests('orval', 'generates the fetch client, msw handlers and zod from the 3.1 document', () =>
    run(NODE_LTS, [toolFile('.bin', 'orval'), '--config', 'orval.config.ts']),
  );
  afterEach(() => vi.unstubAllGlobals());

  it('orval: zod refuses {} as a MergeRequest and as a Job', async () => {
    const zod = await orval.load<Record<string, Zod>>('zod.ts');
    expect(zod.MergeRequestsCreateMergeRequestResponse!.safeParse({}).success).toBe(false);
    expect(zod.JobsListProjectJobsResponseItem!.safeParse({}).success).toBe(false);
  });

  it("orval: zod accepts every documented success example (each operation's …Response)", async () => {
    const zod = await orval.load<Record<string, Zod | undefined>>('zod.ts');
    const { checked, refused } = refusedExamples(
      successExamples(),
      (example) => zod[`${pascalCase(example.operationId)}Response`],
    );
    expect(refused.join('\n')).toBe('');
    expect(checked).toBeGreaterThan(100);
  });

  it('orval: zod keeps enums closed and nullable fields nullable', async () => {
    const zod = await orval.load<Record<string, Zod>>('zod.ts');
    const example = successExamples().find((e) => e.operationId === 'merge-requests/create-merge-request')!;
    const mergeRequest = example.value as Record<string, unknown>;
    const schema = zod.MergeRequestsCreateMergeRequestResponse!;
    expect(schema.safeParse({ ...mergeRequest, merged_at: null }).success).toBe(true);
    expect(schema.safeParse({ ...mergeRequest, state: 'no-such-state' }).success).toBe(false);
  });

  it(`orval: the fetch client sends the path id ${PROJECT_PATH} encoded (urlEncodeParameters)`, async () => {
    const api = await orval.load<Sdk>('api.ts');
    const stub = fetchStub([]);
    vi.stubGlobal('fetch', stub.fetch);
    await api.jobsListProjectJobs!(PROJECT_PATH);
    expect(stub.urls).toEqual([`http://127.0.0.1/api/v4${ENCODED_PROJECT_PATH}jobs`]);
  });

  it('orval: its msw handlers answer its fetch client (offline, on the Node msw needs)', async () => {
    await orval.load('api.msw.ts');
    const probe = await run(NODE_LTS, ['--import', TSX, join(TIER, 'support', 'msw-probe.ts')]);
    expect(probe.code, probe.output).toBe(0);
    expect(JSON.parse(probe.output.trim().split('\n').at(-1)!)).toEqual({ status: 200, isArray: true });
  });
});
