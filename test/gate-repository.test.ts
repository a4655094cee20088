/**
 * The breaking-change gate on this repository: the current document against its latest release. An integration test:
 * it compares whole documents (test/releases.test.ts checks the gate's rules on small ones).
 */
import { expect, it } from 'vitest';
import { gate, gateInputFromRepository } from '../scripts/lib/releases.ts';

it('passes on this repository: the current document against its latest release', () => {
  const result = gate(gateInputFromRepository());
  expect(result.failures).toEqual([]);
});
