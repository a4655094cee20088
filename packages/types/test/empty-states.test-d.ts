/** The generated types of fields the Service sends as null in an empty state: nullable, so they narrow without a cast. */
import { describe, expectTypeOf, it } from 'vitest';
import type { Badge, Invitation, Member, RunnerDetails, SamlGroupLink } from '@service-api/types';

describe('nullable fields of the empty states', () => {
  it('RunnerDetails.contacted_at is a time or null', () => {
    expectTypeOf<RunnerDetails['contacted_at']>().toEqualTypeOf<string | null>();
  });

  it('Member.expires_at and Invitation.expires_at are a date or null', () => {
    expectTypeOf<Member['expires_at']>().toEqualTypeOf<string | null>();
    expectTypeOf<Invitation['expires_at']>().toEqualTypeOf<string | null>();
  });

  it('Badge.name and SamlGroupLink.member_role_id may be null', () => {
    expectTypeOf<Badge['name']>().toEqualTypeOf<string | null>();
    expectTypeOf<SamlGroupLink['member_role_id']>().toEqualTypeOf<number | null>();
  });
});
