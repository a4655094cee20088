import { afterAll, beforeAll } from 'vitest';
import { startMock, type MockOptions, type RunningMock } from '../../scripts/mock/server.ts';
import { publishedDocument } from './documents.ts';

/** Starts the mock of the published document for the test file and returns a getter for its API root. */
export function useMock(options: Omit<MockOptions, 'document'> = {}): () => string {
  let mock: RunningMock | undefined;
  beforeAll(async () => {
    mock = await startMock({ document: publishedDocument(), ...options });
  });
  afterAll(async () => {
    await mock?.close();
  });
  return () => {
    if (!mock) throw new Error('The mock is not running');
    return `${mock.origin}/api/v4`;
  };
}
