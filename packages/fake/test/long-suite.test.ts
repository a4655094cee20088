/**
 * What a long suite leaves behind, at a small scale (the bench's `fake-suite` runs it at 5,000 merge requests and
 * 20,000 file writes): after merge requests created, updated and merged and many file writes, every record written is
 * read back as written and every list's x-total is what its pages hold.
 */
import { describe, expect, it } from 'vitest';
import { runLongSuite } from '../../../test/support/long-suite.ts';
import { useFake } from '../../../test/support/fake.ts';

const { fake } = useFake({ anyToken: true, reset: false });

describe('a long suite against the fake', { timeout: 120_000 }, () => {
  it('reads back every record it wrote, and every list pages through its x-total', async () => {
    const result = await runLongSuite({
      api: `${fake.url}/api/v4`,
      token: 'suite',
      project: 1,
      mergeRequests: 60,
      fileWrites: 300,
    });
    expect(result.disagreements).toEqual([]);
    expect(result.disagreementCount).toBe(0);
    // 240 files and 60 merge-request files, then each merge request in three lists.
    expect(result.recordsRead).toBe(300 + 3 * 60);
    expect(result.listsPaged).toBe(3);
  });
});
