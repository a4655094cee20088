/**
 * The fixtures are typed by the contract: a documented example is its operation's body for its status, with no cast,
 * and an example, status or operation the document does not have does not compile.
 */
import { responseFixture, responseFixtures, schemaFixture } from '@service-api/openapi/fixtures';
import type { ErrorBodyOf, Job } from '@service-api/types';
import { describe, expectTypeOf, it } from 'vitest';

describe('typed fixtures', () => {
  it('a documented example is the body of its operation and status', () => {
    expectTypeOf(responseFixture('jobs/get-project-job', 200, 'SingleJob')).toEqualTypeOf<Job>();
    expectTypeOf(responseFixtures('jobs/get-project-job', 200)).toEqualTypeOf<Record<'SingleJob', Job>>();
    expectTypeOf(schemaFixture('Job', 'SingleJob')).toEqualTypeOf<Job>();
  });

  it('an error example is the documented error body', () => {
    const notFound = responseFixture('jobs/get-project-job', 404, 'NotFoundError');
    expectTypeOf(notFound).not.toBeAny();
    expectTypeOf(notFound).toHaveProperty('message');
    expectTypeOf(notFound).toMatchTypeOf<ErrorBodyOf<'jobs/get-project-job'>>();
  });

  it('what the document does not have does not compile', () => {
    // @ts-expect-error: no example of that name
    responseFixture('jobs/get-project-job', 200, 'NoSuchExample');
    // @ts-expect-error: an example of another status
    responseFixture('jobs/get-project-job', 200, 'NotFoundError');
    // @ts-expect-error: no examples for that status
    responseFixtures('jobs/get-project-job', 201);
    // @ts-expect-error: no such operation
    responseFixture('jobs/no-such-operation', 200, 'SingleJob');
    // @ts-expect-error: no example of that name for the schema
    schemaFixture('Job', 'NoSuchExample');
  });
});
