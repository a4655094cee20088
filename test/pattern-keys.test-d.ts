/** The generated types of `patternProperties` keys: template-literal index signatures beside documented properties. */
import { describe, expectTypeOf, it } from 'vitest';
import type { MonitoringIntegrationSettingsRequest, UpdateApplicationSettingsRequest } from '@service-api/types';

describe('generated types', () => {
  it('keep documented properties of another type next to pattern keys (no `never`)', () => {
    expectTypeOf<UpdateApplicationSettingsRequest['admin_mode']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<{
      admin_mode: true;
      wiki_page_max_content_bytes: 2048;
      foo_api_key: 'k';
    }>().toExtend<UpdateApplicationSettingsRequest>();
    expectTypeOf<MonitoringIntegrationSettingsRequest['archive_trace_events']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<{
      api_key: 'k';
      archive_trace_events: true;
      acme_env: 'prod';
    }>().toExtend<MonitoringIntegrationSettingsRequest>();
  });

  it('type the pattern keys by their schema', () => {
    expectTypeOf<{ foo_api_key: number }>().not.toExtend<UpdateApplicationSettingsRequest>();
    expectTypeOf<{ api_key: 'k'; acme_env: 1 }>().not.toExtend<MonitoringIntegrationSettingsRequest>();
  });
});
