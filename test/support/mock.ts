import { afterAll, beforeAll } from 'vitest';
import { startMock, type RunningMock, type StartOptions } from '../../packages/mock/src/index.ts';

/** Starts the mock (of the published document) for the test file and returns a getter for its API root. */
export function useMock(options: StartOptions = {}): () => string {
  let mock: RunningMock | undefined;
  beforeAll(async () => {
    mock = await startMock(options);
  });
  afterAll(async () => {
    await mock?.close();
  });
  return () => {
    if (!mock) throw new Error('The mock is not running');
    return `${mock.url}/api/v4`;
  };
}
