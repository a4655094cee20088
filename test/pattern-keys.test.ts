/** `patternProperties` keys as template-literal index signatures: the pattern table (the generated types: pattern-keys.test-d.ts). */
import { describe, expect, it } from 'vitest';
import { patternKey } from '../generators/lib/pattern-keys.ts';

describe('patternKey', () => {
  it.each([
    ['^[a-z][a-z0-9_]*_api_key$', { prefix: '', suffix: '_api_key' }],
    ['^[a-z0-9]+(?:_[a-z0-9]+)*_env$', { prefix: '', suffix: '_env' }],
    ['^x-[a-z]+$', { prefix: 'x-', suffix: '' }],
    ['^ab*$', { prefix: 'a', suffix: '' }],
    ['^label_id$', { exact: 'label_id' }],
    ['[a-z]+\\d$', undefined],
    ['^[a-z]+\\d$', undefined],
    ['^a_x|b_y$', undefined],
    ['^(?:a|b)_key$', { prefix: '', suffix: '_key' }],
    ['[a-z]+', undefined],
  ] as const)('%s → %j', (pattern, expected) => {
    expect(patternKey(pattern)).toEqual(expected);
  });
});
