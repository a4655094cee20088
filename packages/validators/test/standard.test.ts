/**
 * Standard Schema v1 on the guards and the operations' validators (`@service-api/validators/standard`): the same
 * verdicts as the package's boolean guards and string errors, issues with paths a form library can place, and a
 * third-party consumer (tRPC) that validates with them without an adapter.
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import * as validators from '@service-api/validators';
import { MAX_ERRORS, validateRequest, validateResponse, validateSchema } from '@service-api/validators';
import * as standard from '@service-api/validators/standard';
import { isJob, isJobStatus, requestSchema, responseSchema } from '@service-api/validators/standard';
import * as listProjectJobs from '@service-api/validators/operations/jobs/list-project-jobs';
import { publishedDocument } from '../../../test/support/documents.ts';

const examples = (publishedDocument().components?.examples ?? {}) as Record<string, { value?: unknown }>;
const job = (examples.TokenJob?.value ?? null) as Record<string, unknown> | null;

function sync<T>(result: T | Promise<T>): T {
  if (result instanceof Promise) throw new Error('a Standard Schema of this package validates synchronously');
  return result;
}

describe('Standard Schema on the guards', () => {
  const guardNames = (module: object) => Object.keys(module).filter((name) => /^is[A-Z]/.test(name));

  it('has every guard of the package, which narrows alone and carries no Standard Schema', () => {
    expect(guardNames(standard).sort()).toEqual(guardNames(validators).sort());
    expect(guardNames(validators).length).toBeGreaterThan(100);
    for (const [name, guard] of Object.entries(validators).filter(([name]) => /^is[A-Z]/.test(name)))
      expect(guard, name).not.toHaveProperty('~standard');
    expect([validators.isJob(job), validators.isJob({})]).toEqual([isJob(job), isJob({})]);
  });

  it('declares version 1 and the vendor', () => {
    expect(isJob['~standard']).toMatchObject({ version: 1, vendor: 'service-api' });
    expect(typeof isJob['~standard'].validate).toBe('function');
  });

  it.each([
    ['a job status', isJobStatus, 'running'],
    ['a job status outside the enum', isJobStatus, 'exploded'],
    ['a documented job', isJob, job],
    ['an empty object as a job', isJob, {}],
    ['a list where a job is expected', isJob, [job]],
  ])('agrees with the guard on %s', (_, guard, value) => {
    const result = sync(guard['~standard'].validate(value));
    expect(result.issues === undefined).toBe(guard(value));
    if (!result.issues) expect(result.value).toBe(value);
  });

  it('reports a wrong type at its path, with the message of the string errors', () => {
    const value = { ...job, tag: 'yes' };
    const { issues } = sync(isJob['~standard'].validate(value));
    expect(issues).toContainEqual({ path: ['tag'], message: 'must be boolean' });
    expect(validateSchema('Job', value).errors).toContain('/tag must be boolean');
  });

  it('reports a missing required field at the field, an index as a number', () => {
    const { id: _, ...withoutId } = job ?? {};
    const { issues } = sync(isJob['~standard'].validate({ ...job, pipeline: { ...(job?.pipeline as object) } }));
    expect(issues).toBeUndefined();
    expect(sync(isJob['~standard'].validate(withoutId)).issues).toContainEqual({
      path: ['id'],
      message: 'is required',
    });
    const list = responseSchema('jobs/list-project-jobs', 200);
    expect(sync(list['~standard'].validate([job, withoutId])).issues).toContainEqual({
      path: [1, 'id'],
      message: 'is required',
    });
  });

  it('bounds the issues as the string errors are bounded, and counts the rest', () => {
    const jobs = Array.from({ length: MAX_ERRORS }, () => ({ ...job, id: 'one', status: 'exploded' }));
    const { issues } = sync(responseSchema('jobs/list-project-jobs', 200)['~standard'].validate(jobs));
    const { errors, errorCount } = validateResponse('jobs/list-project-jobs', 200, jobs);
    expect(errorCount).toBeGreaterThan(MAX_ERRORS);
    expect(issues).toHaveLength(MAX_ERRORS + 1);
    expect(issues?.at(-1)).toEqual({ message: `and ${errorCount! - MAX_ERRORS} more problem(s)` });
    expect(errors.at(-1)).toBe(`and ${errorCount! - MAX_ERRORS} more problem(s)`);
  });
});

describe('Standard Schema of the operations', () => {
  it('validates a response body by status as validateResponse does', () => {
    for (const body of [[job], [{}], {}, null]) {
      const { issues } = sync(responseSchema('jobs/list-project-jobs', '200')['~standard'].validate(body));
      expect(issues === undefined).toBe(validateResponse('jobs/list-project-jobs', 200, body).valid);
    }
    expect(() => responseSchema('jobs/list-project-jobs', 204 as 200)).toThrow(/no JSON body for status 204/);
  });

  it('gives the coerced request as its output, and issues that start with the part', () => {
    const request = { params: { id: '42' }, query: { per_page: '20', 'scope[]': 'failed' } };
    const result = sync(requestSchema('jobs/list-project-jobs')['~standard'].validate(request));
    expect(result.issues).toBeUndefined();
    expect(result.issues ? null : result.value).toEqual(validateRequest('jobs/list-project-jobs', request).value);
    const bad = sync(
      requestSchema('jobs/list-project-jobs')['~standard'].validate({ ...request, query: { per_page: '500' } }),
    );
    expect(bad.issues).toContainEqual({
      path: ['query', 'per_page'],
      message: 'query parameter per_page must be <= 100',
    });
  });

  it('is the same in the module of one operation', () => {
    const bad = { params: { id: '42' }, query: { per_page: '500' } };
    expect(sync(listProjectJobs.requestSchema['~standard'].validate(bad)).issues).toEqual(
      sync(requestSchema('jobs/list-project-jobs')['~standard'].validate(bad)).issues,
    );
    expect(sync(listProjectJobs.responseSchema(200)['~standard'].validate([job])).issues).toBeUndefined();
    expect(sync(listProjectJobs.responseSchema('200')['~standard'].validate([{}])).issues?.[0]?.path).toEqual([
      0,
      'id',
    ]);
  });
});

describe('a third-party consumer of Standard Schema (tRPC)', () => {
  const t = initTRPC.create();
  const router = t.router({
    failedJob: t.procedure.input(isJob).query(({ input }) => input.id),
    jobs: t.procedure.output(responseSchema('jobs/list-project-jobs', 200)).query(() => [job] as never),
  });
  const caller = t.createCallerFactory(router)({});

  it('takes a guard as an input validator: a valid job passes, typed', async () => {
    expect(await caller.failedJob(job as never)).toBe(job?.id);
  });

  it('refuses an invalid input with the issues as its cause', async () => {
    const error = await caller.failedJob({ ...job, status: 'exploded' } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe('BAD_REQUEST');
    expect(JSON.stringify((error as TRPCError).cause)).toContain('"path":["status"]');
  });

  it('takes an operation response schema as an output validator', async () => {
    expect(await caller.jobs()).toEqual([job]);
  });
});
