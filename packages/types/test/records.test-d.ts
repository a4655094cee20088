/**
 * The success bodies that the API does not document in full but whose record it names are typed by that record
 * (`openapi/conventions.md`), not `Record<string, unknown>`: a client reads the fields without a cast.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { GroupPushRule, IntegrationSummary, Job, RunnerSummary, Success, UserAdmin } from '@service-api/types';

describe('bodies typed by the record the API names', () => {
  it('a single job is a Job', () => {
    expectTypeOf<Success<'jobs/get-project-job'>>().toEqualTypeOf<Job>();
    expectTypeOf<Success<'jobs/get-project-job'>['status']>().toEqualTypeOf<Job['status']>();
  });

  it('the created user is the administrator view', () => {
    expectTypeOf<Success<'users/create-user'>>().toEqualTypeOf<UserAdmin>();
    expectTypeOf<Success<'users/create-user'>['email']>().toBeString();
  });

  it('the updated push rule is a GroupPushRule', () => {
    expectTypeOf<Success<'groups/update-push-rule'>>().toEqualTypeOf<GroupPushRule>();
  });

  it('the project and group runner lists hold runner summaries', () => {
    expectTypeOf<Success<'runners/list-project-runners'>>().toEqualTypeOf<RunnerSummary[]>();
    expectTypeOf<Success<'runners/list-group-runners'>>().toEqualTypeOf<RunnerSummary[]>();
  });

  it("an integration's settings and setups are its record", () => {
    expectTypeOf<Success<'integrations/get-integration'>>().toEqualTypeOf<IntegrationSummary>();
    expectTypeOf<Success<'integrations/set-up-integration'>>().toEqualTypeOf<IntegrationSummary>();
    expectTypeOf<Success<'integrations/get-custom-issue-tracker'>>().toEqualTypeOf<IntegrationSummary>();
    expectTypeOf<Success<'integrations/set-up-custom-issue-tracker'>>().toEqualTypeOf<IntegrationSummary>();
  });
});
