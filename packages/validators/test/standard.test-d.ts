/** The types Standard Schema consumers infer from the guards and the operations' schemas. */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expectTypeOf, it } from 'vitest';
import type { Job, RequestParts } from '@service-api/validators';
import { type isJob, requestSchema, responseSchema, type ValidatedRequest } from '@service-api/validators/standard';
import * as tokenJob from '@service-api/validators/operations/jobs/get-token-job';

describe('Standard Schema types', () => {
  it('a guard outputs its schema type', () => {
    expectTypeOf<StandardSchemaV1.InferOutput<typeof isJob>>().toEqualTypeOf<Job>();
  });

  it('a response schema outputs the body of its status, by string or number', () => {
    expectTypeOf<
      StandardSchemaV1.InferOutput<ReturnType<typeof responseSchema<'jobs/get-token-job', 200>>>
    >().toEqualTypeOf<Job>();
    expectTypeOf(tokenJob.responseSchema('200')).toEqualTypeOf(tokenJob.responseSchema(200));
    expectTypeOf<StandardSchemaV1.InferOutput<ReturnType<typeof tokenJob.responseSchema<200>>>>().toEqualTypeOf<Job>();
  });

  it('a request schema takes the request parts and outputs the coerced request', () => {
    expectTypeOf(requestSchema('merge-requests/merge')).toEqualTypeOf<
      StandardSchemaV1<RequestParts, ValidatedRequest>
    >();
  });

  it('refuses a status the operation does not document', () => {
    // @ts-expect-error 418 is not a documented status of merge-requests/merge
    responseSchema('merge-requests/merge', 418);
  });
});
