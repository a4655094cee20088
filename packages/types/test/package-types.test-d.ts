/**
 * Type tests of the generated packages, checked by vitest's typecheck (and by `tsc` in `npm test`): errors narrowed
 * by status, schema types by name, a method per view of a keyed list, response metadata and the `extra` escape hatch. Each
 * test fails on a type error inside it. The run-time behaviour is in client.test.ts.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  isServiceApiError,
  type ApiResponse,
  type CreateMergeRequestInput,
  type ErrorBody,
  type ErrorMessage,
  type Group,
  type Job,
  type MergeRequest,
  type MergeRequestSimple,
  type Pagination,
  type Project,
  type ProjectSimple,
  type ServiceApi,
  type ServiceApiErrorOf,
} from '@service-api/client';
import type { Handlers, MergeRequest as ServerMergeRequest } from '@service-api/server';
import type { MergeRequest as TypesMergeRequest } from '@service-api/types';
import type { Job as ValidatorsJob } from '@service-api/validators';

// Type positions only (and functions never called): nothing here reads a value at run time.
declare const api: ServiceApi;
declare const mrs: ServiceApi['mergeRequests']['listMergeRequests'];
declare const projects: ServiceApi['projects']['listProjects'];
declare const groups: ServiceApi['groups']['listGroups'];
type Result<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

describe('1. errors narrow by status', () => {
  it('isServiceApiError(e, op) gives a union that error.status narrows', () => {
    const error: unknown = undefined;
    if (isServiceApiError(error, 'merge-requests/merge')) {
      expectTypeOf(error.status).toEqualTypeOf<301 | 400 | 401 | 403 | 404 | 405 | 409 | 422 | 429 | 500 | 503>();
      if (error.status === 409)
        expectTypeOf(error.body.message).toEqualTypeOf<'SHA does not match HEAD of source branch'>();
      if (error.status === 301) expectTypeOf(error.body).toBeUndefined();
      if (error.status === 405) expectTypeOf(error.body).toEqualTypeOf<ErrorBody>();
      if (error.status === 422) expectTypeOf(error.body.message).toBeString();
      expectTypeOf(error.operationId).toEqualTypeOf<'merge-requests/merge'>();
    }
  });

  it('isServiceApiError(e, merge-requests/merge, 409) gives that status and its body', () => {
    const error: unknown = undefined;
    if (isServiceApiError(error, 'merge-requests/merge', 409)) {
      expectTypeOf(error.status).toEqualTypeOf<409>();
      expectTypeOf(error.operationId).toEqualTypeOf<'merge-requests/merge'>();
      expectTypeOf(error.body.message).toEqualTypeOf<'SHA does not match HEAD of source branch'>();
    }
  });

  it('isServiceApiError(e, merge-requests/merge, 401) gives that status and its body', () => {
    const error: unknown = undefined;
    if (isServiceApiError(error, 'merge-requests/merge', 401)) {
      expectTypeOf(error.status).toEqualTypeOf<401>();
      expectTypeOf(error.operationId).toEqualTypeOf<'merge-requests/merge'>();
      expectTypeOf(error.body).toEqualTypeOf<ErrorMessage>();
    }
  });

  it('isServiceApiError(e, merge-requests/create-merge-request, 409) gives that status and its body', () => {
    const error: unknown = undefined;
    if (isServiceApiError(error, 'merge-requests/create-merge-request', 409)) {
      expectTypeOf(error.status).toEqualTypeOf<409>();
      expectTypeOf(error.operationId).toEqualTypeOf<'merge-requests/create-merge-request'>();
      expectTypeOf(error.body).toEqualTypeOf<ErrorBody>();
    }
  });

  it('isServiceApiError refuses a status the operation does not document', () => {
    const error: unknown = undefined;
    // @ts-expect-error 418 is not a documented status of the operation
    isServiceApiError(error, 'merge-requests/merge', 418);
  });

  it('ServiceApiErrorOf picks statuses; the one-argument guard stays untyped', () => {
    expectTypeOf<ServiceApiErrorOf<'merge-requests/merge', 405 | 409>['status']>().toEqualTypeOf<405 | 409>();
    const error: unknown = undefined;
    if (isServiceApiError(error)) expectTypeOf(error.body).toBeUnknown();
  });
});

describe('2. every component schema by name, in every package, and in signatures', () => {
  it('the four packages export the same named types', () => {
    expectTypeOf<ServerMergeRequest>().toEqualTypeOf<MergeRequest>();
    expectTypeOf<TypesMergeRequest>().toEqualTypeOf<MergeRequest>();
    expectTypeOf<ValidatorsJob>().toEqualTypeOf<Job>();
  });

  it('mergeRequests.createMergeRequest resolves to MergeRequest', () => {
    expectTypeOf<Result<typeof api.mergeRequests.createMergeRequest>>().toEqualTypeOf<MergeRequest>();
  });

  it('mergeRequests.merge resolves to a MergeRequest whose state the merge allows', () => {
    expectTypeOf<Result<typeof api.mergeRequests.merge>>().toEqualTypeOf<
      MergeRequest & { state?: 'merged' | 'opened' | 'locked' }
    >();
  });

  it('jobs.listProjectJobs resolves to Job[]', () => {
    expectTypeOf<Result<typeof api.jobs.listProjectJobs>>().toEqualTypeOf<Job[]>();
  });

  it('createMergeRequest takes CreateMergeRequestInput', () => {
    expectTypeOf<ServiceApi['mergeRequests']['createMergeRequest']>()
      .parameter(0)
      .toEqualTypeOf<CreateMergeRequestInput>();
  });
});

describe('3. each view of a list keyed on a parameter is a method of its own (x-variants)', () => {
  it('no view: full merge requests', () => {
    expectTypeOf<Result<typeof mrs>>().toEqualTypeOf<MergeRequest[]>();
  });

  it('view=simple: .simple, MergeRequestSimple', () => {
    expectTypeOf<Result<typeof mrs.simple>>().toEqualTypeOf<MergeRequestSimple[]>();
  });

  it('the plain method does not take view', () => {
    expectTypeOf(mrs)
      .parameter(0)
      .exclude<undefined>()
      .toHaveProperty('query')
      .exclude<undefined>()
      .toEqualTypeOf<
        Omit<NonNullable<NonNullable<Parameters<typeof mrs.simple>[0]>['query']>, 'view'> & { view?: never }
      >();
  });

  it('project list: keyed on view as the global list', () => {
    const projectMrs = api.mergeRequests.listProjectMergeRequests;
    expectTypeOf<Result<typeof projectMrs>>().toEqualTypeOf<MergeRequest[]>();
    expectTypeOf<Result<typeof projectMrs.simple>>().toEqualTypeOf<MergeRequestSimple[]>();
  });

  it('simple=true: .simple, ProjectSimple; without it (or with false): Project', () => {
    expectTypeOf<Result<typeof projects.simple>>().toEqualTypeOf<ProjectSimple[]>();
    expectTypeOf<Result<typeof projects>>().toEqualTypeOf<Project[]>();
    expectTypeOf(projects)
      .parameter(0)
      .exclude<undefined>()
      .toHaveProperty('query')
      .exclude<undefined>()
      .toHaveProperty('simple')
      .toEqualTypeOf<false | undefined>();
  });

  it('statistics=true: .statistics, Group with statistics', () => {
    expectTypeOf<Result<typeof groups.statistics>>().toEqualTypeOf<Group[]>();
  });

  it('no statistics: no statistics field', () => {
    expectTypeOf<Result<typeof groups>[number]['statistics']>().toEqualTypeOf<undefined>();
  });

  it('iterate() items follow the view', () => {
    expectTypeOf<ReturnType<typeof mrs.simple.iterate>>().toEqualTypeOf<
      AsyncGenerator<MergeRequestSimple, void, undefined>
    >();
  });

  it('a literal call picks the view by its method', async () => {
    const call = async () => {
      const simple = await api.mergeRequests.listMergeRequests.simple({ query: { scope: 'all' } });
      expectTypeOf(simple).toEqualTypeOf<MergeRequestSimple[]>();
      const full = await api.mergeRequests.listMergeRequests({ query: { state: 'opened' } });
      expectTypeOf(full[0]!.iid).toBeNumber();
    };
    expectTypeOf(call).toBeFunction();
  });
});

describe('4. response metadata from any high-level call', () => {
  it('withResponse on a list: data, status, typed headers, pagination', () => {
    expectTypeOf<Result<typeof api.jobs.listProjectJobs.withResponse>>().toEqualTypeOf<
      ApiResponse<Job[], { Link?: string; 'x-next-page'?: string; 'x-page'?: string }>
    >();
  });

  it('pagination is numbers', () => {
    expectTypeOf<Result<typeof api.jobs.listProjectJobs.withResponse>['pagination']>().toEqualTypeOf<Pagination>();
  });

  it('withResponse on a single record', () => {
    expectTypeOf<Result<typeof api.mergeRequests.merge.withResponse>['data']>().toEqualTypeOf<
      MergeRequest & { state?: 'merged' | 'opened' | 'locked' }
    >();
  });

  it('HEAD headers as numbers', () => {
    expectTypeOf<
      Result<typeof api.repository.getFileMetadata.withResponse>['headers']['X-Service-Size']
    >().toEqualTypeOf<number | undefined>();
  });

  it('withResponse keeps the view', () => {
    expectTypeOf<Result<typeof api.mergeRequests.listMergeRequests.simple.withResponse>['data']>().toEqualTypeOf<
      MergeRequestSimple[]
    >();
  });
  it('Pagination fields', () =>
    expectTypeOf<Pagination>().toEqualTypeOf<{
      page?: number;
      perPage?: number;
      nextPage?: number;
      prevPage?: number;
      total?: number;
      totalPages?: number;
      next?: string;
    }>());
});

describe('5. the extra escape hatch', () => {
  it('types extra.query on every call and extra.body where the operation takes a body', () => {
    expectTypeOf<CreateMergeRequestInput['extra']>().toEqualTypeOf<
      | ({ query?: { readonly [name: string]: import('@service-api/types').QueryValue | undefined } } & {
          body?: { readonly [name: string]: unknown };
        })
      | undefined
    >();
    const call = async () => {
      await api.mergeRequests.listProjectMergeRequests({
        path: { id: 1 },
        extra: { query: { state: 'opened', search: 'fix' } },
      });
      // @ts-expect-error an undocumented parameter outside extra is still an error
      await api.mergeRequests.listProjectMergeRequests({ path: { id: 1 }, query: { state: 'opened' } });
      // @ts-expect-error a list takes no body, so no extra body
      await api.jobs.listProjectJobs({ path: { id: 1 }, extra: { body: { x: 1 } } });
    };
    expectTypeOf(call).toBeFunction();
  });
});

describe('server handlers', () => {
  it('name the schemas and take numbers for documented text headers', () => {
    const handlers: Handlers = {
      'jobs/list-project-jobs': () => ({ status: 200, headers: { 'x-page': 2, 'x-next-page': '' }, body: [] }),
    };
    expectTypeOf(handlers).not.toBeAny();
  });
});
