/** CI jobs: project and pipeline lists with `scope[]` (id descending, paginated), one job, the job of a job token. */
import type { Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeJob } from '../../data.ts';
import {
  message,
  paginate,
  perRevision,
  PROJECT_NOT_FOUND,
  readableProject,
  userBasic,
  webBase,
} from '../../common.ts';
import type { Store } from '../../store.ts';
import { runnerOf } from '../runners/runner-summary.ts';

/** The job record of a job (also the base of the trigger job record). */
export function jobRecord(store: Store, job: FakeJob) {
  const project = store.project(job.project_id)!;
  const pipeline = store.data.pipelines.find((p) => p.id === job.pipeline_id);
  const sha = pipeline?.sha ?? project.repository.branches[project.default_branch] ?? '0'.repeat(40);
  const commit = store.findCommit(project, sha);
  const user = store.user(job.user_id);
  const started =
    job.started_at ?? (['running', 'failed', 'success', 'canceled'].includes(job.status) ? job.created_at! : null);
  const finished = job.finished_at ?? (['failed', 'success', 'canceled'].includes(job.status) ? job.created_at! : null);
  return {
    id: job.id,
    name: job.name,
    stage: job.stage,
    status: job.status,
    // The Service sends a reason with every failed job, and none with the others.
    ...(job.status === 'failed' ? { failure_reason: job.failure_reason ?? 'script_failure' } : {}),
    ref: job.ref ?? pipeline?.ref ?? project.default_branch,
    tag: false,
    coverage: null,
    archived: false,
    allow_failure: job.allow_failure === true,
    created_at: job.created_at ?? null,
    started_at: started,
    finished_at: finished,
    erased_at: null,
    // The Service computes both from the start: null until the job has started.
    duration: started === null ? null : 0,
    queued_duration: started === null ? null : 0,
    web_url: `${webBase(store)}/${store.projectPath(project)}/-/jobs/${job.id}`,
    commit: {
      id: sha,
      short_id: sha.slice(0, 8),
      title: commit?.message.split('\n')[0] ?? '',
      message: commit?.message ?? '',
      author_name: commit?.author_name ?? '',
      author_email: commit?.author_email ?? '',
      created_at: commit?.created_at ?? store.now(),
    },
    pipeline: {
      id: job.pipeline_id,
      project_id: job.project_id,
      ref: pipeline?.ref ?? project.default_branch,
      sha,
      status: pipeline?.status ?? 'success',
    },
    project: { ci_job_token_scope_enabled: false },
    user: {
      ...userBasic(store, user)!,
      created_at: store.now(),
      bio: null,
      location: null,
      public_email: null,
      skype: null,
      linkedin: null,
      twitter: null,
      website_url: null,
      organization: null,
    },
    artifacts: [],
    // The fake keeps no artifacts; the Service sends null without them.
    artifacts_expire_at: null,
    tag_list: [...(job.tag_list ?? [])],
    runner: runnerOf(store, job),
  };
}

export function jobHandlers(store: Store): Handlers<Principal> {
  // A record is derived from the state: built once per revision and reused by every read until the next write.
  const record = perRevision(store, (job: FakeJob) => jobRecord(store, job));

  const scoped = (jobs: FakeJob[], scope: string[] | undefined) =>
    scope && scope.length > 0 ? jobs.filter((j) => scope.includes(j.status)) : jobs;
  const descending = (jobs: FakeJob[]) => [...jobs].sort((a, b) => b.id - a.id);

  return {
    'jobs/list-project-jobs': ({ params, query }, { principal, request }) => {
      const project = readableProject(store, params.id, principal);
      if (!project) return PROJECT_NOT_FOUND;
      const jobs = descending(
        scoped(
          store.data.jobs.filter((j) => j.project_id === project.id),
          query['scope[]'],
        ),
      );
      const page = paginate(jobs, query, request);
      return { status: 200, body: page.items.map(record), headers: page.headers };
    },
    'jobs/list-pipeline-jobs': ({ params, query }, { principal, request }) => {
      const project = readableProject(store, params.id, principal);
      if (!project) return PROJECT_NOT_FOUND;
      if (!store.data.pipelines.some((p) => p.id === params.pipeline_id && p.project_id === project.id))
        return { status: 404, body: message('404 Pipeline Not Found') };
      const inPipeline = store.data.jobs.filter(
        (j) => j.pipeline_id === params.pipeline_id && (query.include_retried === true || j.retried !== true),
      );
      const page = paginate(descending(scoped(inPipeline, query['scope[]'])), query, request);
      return { status: 200, body: page.items.map(record), headers: page.headers };
    },
    'jobs/get-project-job': ({ params }, { principal }) => {
      const project = readableProject(store, params.id, principal);
      if (!project) return PROJECT_NOT_FOUND;
      const job = store.data.jobs.find((j) => j.id === params.job_id && j.project_id === project.id);
      if (!job) return { status: 404, body: message('404 Not found') };
      return { status: 200, body: record(job) };
    },
    'jobs/get-token-job': (_input, { principal }) => {
      const job =
        principal.token.kind === 'job' ? store.data.jobs.find((j) => j.id === principal.token.job_id) : undefined;
      if (!job) return { status: 401, body: message('401 Unauthorized') };
      return { status: 200, body: record(job) };
    },
  };
}
