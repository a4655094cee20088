/**
 * Conformance of the mock with the published document, for every operation the document has: adding a domain adds
 * its cases here with no new test code (the cases are in support/conformance.ts, shared with the fake's suite).
 */
import { expect } from 'vitest';
import { listResponses, successStatus } from '../generators/lib/document.ts';
import { describeConformance, expectDocumented } from './support/conformance.ts';
import { publishedDocument } from './support/documents.ts';
import { useMock } from './support/mock.ts';

const doc = publishedDocument();
const api = useMock();

describeConformance(doc, {
  api,
  title: (entry) =>
    `answers ${successStatus(entry)} to a request built from its examples, with a body the generated validator accepts`,
  answer: (entry, response, text) => {
    const status = successStatus(entry);
    expect(status, `${entry.operationId} documents no 2xx response`).toBeDefined();
    expect(response.status, text).toBe(Number(status));
    expectDocumented(
      entry,
      listResponses(doc, entry).find((r) => r.status === status),
      response,
      text,
    );
  },
});
