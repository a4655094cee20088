/**
 * Trigger jobs (bridges) of a pipeline (`scope[]`, id descending, paginated) and the Kubernetes agents a job token's
 * project may use: agents configured in the project, or whose configuration authorizes the project or one of its groups.
 */
import type { Handler, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeBridge } from '../../data.ts';
import { message, paginate, PROJECT_NOT_FOUND, readableProject, userBasic, webBase } from '../../common.ts';
import type { Store } from '../../store.ts';
import { groupAncestors } from '../group-access.ts';
import { jobRecord } from './jobs.ts';

const since = (store: Store) => store.data.now ?? '2025-01-01T00:00:00.000Z';
const pipelineUrl = (store: Store, projectId: number, pipelineId: number) => {
  const project = store.project(projectId);
  return `${webBase(store)}/${project ? store.projectPath(project) : projectId}/-/pipelines/${pipelineId}`;
};

const record = (store: Store, bridge: FakeBridge) => {
  // The trigger job record is the job record without artifacts, runner, failure_reason and tag_list.
  const {
    artifacts: _a,
    artifacts_expire_at: _e,
    tag_list: _t,
    runner: _r,
    failure_reason: _f,
    ...base
  } = jobRecord(store, { ...bridge, created_at: since(store) });
  // A downstream pipeline missing from the data is answered with the trigger job's own ref and commit.
  const downstream = store.data.pipelines.find((p) => p.id === bridge.downstream_pipeline_id) ?? {
    id: bridge.downstream_pipeline_id,
    project_id: bridge.project_id,
    sha: base.pipeline.sha,
    ref: base.pipeline.ref,
    status: 'created',
  };
  return {
    ...base,
    pipeline: {
      ...base.pipeline,
      created_at: since(store),
      updated_at: since(store),
      web_url: pipelineUrl(store, bridge.project_id, bridge.pipeline_id),
    },
    downstream_pipeline: {
      id: downstream.id,
      sha: downstream.sha,
      ref: downstream.ref,
      status: downstream.status,
      created_at: since(store),
      updated_at: since(store),
      web_url: pipelineUrl(store, downstream.project_id, downstream.id),
    },
  };
};

const listPipelineBridges =
  (store: Store): Handler<'jobs/list-pipeline-bridges', Principal> =>
  ({ params, query }, { principal, request }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    if (!store.data.pipelines.some((p) => p.id === params.pipeline_id && p.project_id === project.id))
      return { status: 404, body: message('404 Pipeline Not Found') };
    const scope = query['scope[]'];
    const bridges = (store.data.bridges ?? [])
      .filter(
        (b) =>
          b.pipeline_id === params.pipeline_id &&
          b.project_id === project.id &&
          (!scope || scope.length === 0 || scope.includes(b.status)),
      )
      .sort((a, b) => b.id - a.id);
    const page = paginate(bridges, query, request);
    return { status: 200, body: page.items.map((item) => record(store, item)), headers: page.headers };
  };

const getAllowedAgents =
  (store: Store): Handler<'jobs/get-allowed-agents', Principal> =>
  (_input, { principal }) => {
    const job =
      principal.token.kind === 'job' ? store.data.jobs.find((j) => j.id === principal.token.job_id) : undefined;
    const project = job ? store.project(job.project_id) : undefined;
    if (!job || !project) return { status: 401, body: message('401 Unauthorized') };
    const groups = groupAncestors(store, store.group(project.namespace_id)).map((g) => g.id);
    const agents = (store.data.cluster_agents ?? [])
      .filter(
        (a) =>
          a.config_project_id === project.id ||
          (a.authorized_project_ids ?? []).includes(project.id) ||
          (a.authorized_group_ids ?? []).some((id) => groups.includes(id)),
      )
      .flatMap((a) => {
        const config = store.project(a.config_project_id);
        return config ? [{ id: a.id, config_project: store.projectIdentity(config) }] : [];
      })
      .sort((a, b) => a.id - b.id);
    return {
      status: 200,
      body: {
        allowed_agents: agents,
        job: { id: job.id },
        pipeline: { id: job.pipeline_id },
        project: { id: project.id, groups: groups.map((id) => ({ id })) },
        user: userBasic(store, store.user(job.user_id))!,
      },
    };
  };

export function bridgeHandlers(store: Store): Handlers<Principal> {
  return {
    'jobs/list-pipeline-bridges': listPipelineBridges(store),
    'jobs/get-allowed-agents': getAllowedAgents(store),
  };
}
