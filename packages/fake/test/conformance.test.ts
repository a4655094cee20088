/**
 * The conformance suite (support/conformance.ts, the cases run against the mock in conformance.test.ts) against the
 * fake, with responses validated by the fake itself (`validateResponses: true`) and again here. Each operation gets a
 * request that makes sense against the default data set (support/fake-requests.ts), on a fresh copy of it; its answer
 * must be a documented status with a body valid against that status's schema, and a 2xx; every operation has a
 * handler.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { implementedOperations, startFake, type RunningFake } from '../src/index.ts';
import { listOperations, listResponses, type OperationEntry } from '../../../generators/lib/document.ts';
import { describeConformance, expectDocumented } from '../../../test/support/conformance.ts';
import { publishedDocument } from '../../../test/support/documents.ts';
import { adminCall, fakeCredentials, fakeRequest, fakeRequests } from '../../../test/support/fake-requests.ts';

const doc = publishedDocument();
const operations = listOperations(doc).map((entry) => entry.operationId);
let fake: RunningFake | undefined;
beforeAll(async () => {
  fake = await startFake({ validateResponses: true });
});
afterAll(() => fake?.close());
const api = () => `${fake!.url}/api/v4`;
const admin = adminCall(api);

/** The status each operation answered its main request with. */
const answered = new Map<string, { status: number; text: string }>();
/** Parameter values the setup of the current operation resolved to. */
let extra: Record<string, unknown> = {};

describeConformance(doc, {
  api,
  request: (entry, options) => fakeRequest(doc, entry, extra, options),
  credentials: (entry) => fakeCredentials(doc, entry),
  prepare: async (entry: OperationEntry) => {
    fake!.reset();
    extra = {};
    extra = (await fakeRequests[entry.operationId]?.setup?.(admin)) ?? {};
  },
  title: () =>
    'answers a request on the default data set with a documented status (preferably 2xx) and a body valid against its schema',
  answer: (entry, response, text) => {
    answered.set(entry.operationId, { status: response.status, text: text.slice(0, 200) });
    expect(response.status, `answered 501: ${text}`).not.toBe(501);
    expectDocumented(
      entry,
      listResponses(doc, entry).find((r) => r.status === String(response.status)),
      response,
      text,
    );
  },
});

describe('coverage of the fake', () => {
  it(`implements ${implementedOperations.length} of ${operations.length} operations`, () => {
    const missing = operations.filter((id) => !implementedOperations.includes(id));
    expect(
      implementedOperations.every((id) => operations.includes(id)),
      'every handler is an operation of the document',
    ).toBe(true);
    expect(missing, 'operations without a handler').toEqual([]);
  });

  it('answers 2xx to the request of every implemented operation the suite ran', () => {
    const ran = [...answered];
    expect(ran.map(([id]) => id).sort(), 'every operation ran').toEqual([...operations].sort());
    const failed = ran
      .filter(([, { status }]) => status < 200 || status > 299)
      .map(([id, { status, text }]) => `${id} → ${status} ${text}`);
    console.log(
      `fake: ${ran.length - failed.length} of ${ran.length} implemented operations answered 2xx (${operations.length} in the document)`,
    );
    expect(ran.length, 'the conformance cases ran first').toBeGreaterThan(0);
    expect(failed).toEqual([]);
  });
});
