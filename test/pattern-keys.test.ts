/** `patternProperties` keys as template-literal index signatures: the pattern table, then the generated types. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { MonitoringIntegrationSettingsRequest, UpdateApplicationSettingsRequest } from '../generated/types/src/index.ts';
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

describe('generated types', () => {
  it('keep documented properties of another type next to pattern keys (no `never`)', () => {
    expectTypeOf<UpdateApplicationSettingsRequest['admin_mode']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<{ admin_mode: true; wiki_page_max_content_bytes: 2048; foo_api_key: 'k' }>().toExtend<UpdateApplicationSettingsRequest>();
    expectTypeOf<MonitoringIntegrationSettingsRequest['archive_trace_events']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<{ api_key: 'k'; archive_trace_events: true; acme_env: 'prod' }>().toExtend<MonitoringIntegrationSettingsRequest>();
  });

  it('type the pattern keys by their schema', () => {
    expectTypeOf<{ foo_api_key: number }>().not.toExtend<UpdateApplicationSettingsRequest>();
    expectTypeOf<{ api_key: 'k'; acme_env: 1 }>().not.toExtend<MonitoringIntegrationSettingsRequest>();
  });
});
