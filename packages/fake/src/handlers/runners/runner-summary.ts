/** A runner as list items and a job's `runner` show it (its own module: jobs and runners both read it). */
import type { FakeJob, FakeRunner } from '../../data.ts';
import type { Store } from '../../store.ts';

/** The runner summary of list items (and of a job's `runner`). */
export function runnerSummary(runner: FakeRunner) {
  const paused = runner.paused === true;
  return {
    id: runner.id,
    description: runner.description ?? null,
    // Deprecated; the Service always sends null for it.
    ip_address: null,
    active: !paused,
    paused,
    is_shared: runner.runner_type === 'instance_type',
    runner_type: runner.runner_type,
    name: runner.name ?? null,
    online: runner.status === 'online',
    status: runner.status,
  };
}

/** The runner that picked a job, as the job record shows it, or null. */
export function runnerOf(store: Store, job: FakeJob) {
  const runner = job.runner_id === undefined ? undefined : store.data.runners?.find((r) => r.id === job.runner_id);
  return runner ? runnerSummary(runner) : null;
}
