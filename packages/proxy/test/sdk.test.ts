/**
 * The TypeScript SDK (@gitbeaker/rest) through the proxy to the stateful fake: every call the SDK makes in the
 * contract's exact form, and every answer of the fake, agree with the contract; the SDK's tolerated forms are reported
 * as such, on their own operations only.
 */
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFake, type RunningFake } from '../../fake/src/index.ts';
import { startProxy, type RunningProxy } from '../src/index.ts';
import { fakeIds, fakeTokens, gitbeakerCalls } from '../../../test/clients/gitbeaker-calls.ts';

const REQUEST_KINDS = new Set(['undocumented-parameter', 'tolerated-form']);
/**
 * A finding about the fake, reported to its owners rather than hidden: on the last page of the repository tree
 * (keyset pagination only) it sends no `Link`, where the API's pagination rules say every list answer carries one.
 */
const KNOWN = new Set(['repository/list-tree absent-optional-header: 200 without link']);

describe('@gitbeaker/rest through the proxy to the fake', () => {
  let fake: RunningFake;
  let proxy: RunningProxy;
  const lines: string[] = [];
  beforeAll(async () => {
    fake = await startFake({ port: 0 });
    proxy = await startProxy({ upstream: fake.url, port: 0, log: (line) => lines.push(line) });
  });
  afterAll(async () => {
    await proxy?.close();
    await fake?.close();
  });

  it('finds no disagreement beyond the forms the SDK is known to tolerate', async () => {
    const readme = await fetch(`${proxy.url}/api/v4/projects/1/repository/files/README.md?ref=main`, {
      headers: { 'PRIVATE-TOKEN': 'admin-token' },
    });
    const ids = fakeIds(((await readme.json()) as { blob_id: string }).blob_id);
    const clients = new Map<string, Gitlab>();
    const failed: string[] = [];
    for (const { operationId, call } of gitbeakerCalls) {
      const token = fakeTokens[operationId] ?? 'admin-token';
      if (!clients.has(token)) clients.set(token, new Gitlab({ host: proxy.url, token }));
      await Promise.resolve()
        .then(() => call(clients.get(token)!, ids))
        .catch((error: Error) => failed.push(`${operationId}: ${error.message}`));
    }
    expect(failed).toEqual([]);
    const report = proxy.report();
    const tolerated = new Set(gitbeakerCalls.filter((c) => c.tolerated).map((c) => c.operationId));
    const unexpected = Object.entries(report.operations)
      .flatMap(([operation, entry]) =>
        entry.disagreements
          .filter((d) => !(REQUEST_KINDS.has(d.kind) && tolerated.has(operation)))
          .map((d) => `${operation} ${d.kind}: ${d.detail}`),
      )
      .filter((finding) => !KNOWN.has(finding));
    expect(unexpected, lines.join('\n')).toEqual([]);
    // Every call reached a documented operation, and each was counted.
    expect(Object.keys(report.operations).every((operation) => !operation.includes(' '))).toBe(true);
    expect(report.requests).toBeGreaterThanOrEqual(gitbeakerCalls.length);
  });
});
