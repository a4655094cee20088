/**
 * The fake's data set: plain JSON (what `--data file.json` and `startFake({ data })` take, and what
 * `GET /__fake/state` dumps). Ids are given in the data, so a test can name them; new records take the next id.
 */

/** Access levels of members (guest, reporter, developer, maintainer, owner). */
export type AccessLevel = 10 | 20 | 30 | 40 | 50;

export interface FakeUser {
  id: number;
  username: string;
  name: string;
  email: string;
  state?: 'active' | 'blocked';
  is_admin?: boolean;
}

/**
 * A credential the fake accepts. `personal` (also project, group and impersonation tokens) is sent as
 * `PRIVATE-TOKEN`, `private_token` or Bearer; `oauth` as Bearer or `access_token`; `job` as `JOB-TOKEN`,
 * `job_token` or Bearer; `session` as the `_service_session` cookie.
 */
export interface FakeToken {
  token: string;
  kind: 'personal' | 'impersonation' | 'oauth' | 'job' | 'session';
  user_id: number;
  scopes?: string[];
  /** For a job token: the job it is bound to (it works only while that job is running). */
  job_id?: number;
}

export interface FakeMember {
  user_id: number;
  access_level: AccessLevel;
}

export interface FakeGroup {
  id: number;
  name: string;
  path: string;
  parent_id: number | null;
  visibility: 'public' | 'internal' | 'private';
  members: FakeMember[];
}

export interface FakeFile {
  /** Base64 content. */
  content: string;
  execute_filemode?: boolean;
}

export interface FakeCommit {
  id: string;
  parent_ids: string[];
  message: string;
  author_name: string;
  author_email: string;
  created_at: string;
  /** The whole tree at this commit: path → blob id, and its mode. */
  tree: Record<string, { blob_id: string; execute_filemode: boolean; last_commit_id: string }>;
}

export interface FakeRepository {
  /** Branch name → commit id. */
  branches: Record<string, string>;
  commits: FakeCommit[];
  /** Blob id → base64 content. */
  blobs: Record<string, string>;
  /** Tag name → commit id (refs resolve branches first, then tags). */
  tags?: Record<string, string>;
}

export interface FakeProject {
  id: number;
  name: string;
  path: string;
  namespace_id: number;
  visibility: 'public' | 'internal' | 'private';
  default_branch: string;
  description?: string | null;
  /** Full paths the project had before a rename: requests by them answer 301 to the numeric-id URL. */
  previous_paths?: string[];
  members: FakeMember[];
  /** Files of the default branch as a shorthand: expanded into one initial commit when `repository` is absent. */
  files?: Record<string, FakeFile | string>;
  repository?: FakeRepository;
}

export interface FakePipeline {
  id: number;
  project_id: number;
  ref: string;
  sha: string;
  status: string;
}

export interface FakeJob {
  id: number;
  project_id: number;
  pipeline_id: number;
  name: string;
  stage: string;
  status: 'created' | 'pending' | 'running' | 'failed' | 'success' | 'canceled' | 'skipped' | 'waiting_for_resource' | 'manual';
  user_id: number;
  ref?: string;
  allow_failure?: boolean;
  failure_reason?: string;
  retried?: boolean;
  tag_list?: string[];
  created_at?: string;
  started_at?: string | null;
  finished_at?: string | null;
}

export interface FakeMergeRequest {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description?: string | null;
  state: 'opened' | 'closed' | 'locked' | 'merged';
  author_id: number;
  source_branch: string;
  target_branch: string;
  labels?: string[];
  draft?: boolean;
  assignee_ids?: number[];
  reviewer_ids?: number[];
  /** Head of the source branch when the branch does not exist in the repository. */
  sha?: string | null;
  /** A merge request with conflicts cannot be merged (405). */
  has_conflicts?: boolean;
  squash?: boolean;
  should_remove_source_branch?: boolean;
  allow_collaboration?: boolean;
  discussion_locked?: boolean | null;
  merge_when_pipeline_succeeds?: boolean;
  merge_user_id?: number | null;
  merged_at?: string | null;
  merge_commit_sha?: string | null;
  squash_commit_sha?: string | null;
  closed_by_id?: number | null;
  closed_at?: string | null;
  created_at?: string;
  updated_at?: string;
}

export interface FakeInvitation {
  id: number;
  source_type: 'group' | 'project';
  source_id: number;
  invite_email: string;
  access_level: AccessLevel;
  expires_at: string | null;
  created_at: string;
  created_by_id: number;
}

export interface FakeData {
  /** Where the fake's clock starts (ISO 8601); every write advances it by one second. */
  now?: string;
  users: FakeUser[];
  tokens: FakeToken[];
  groups: FakeGroup[];
  projects: FakeProject[];
  pipelines: FakePipeline[];
  jobs: FakeJob[];
  merge_requests: FakeMergeRequest[];
  application_settings?: Record<string, unknown>;
  plan_limits?: Record<string, Record<string, number>>;
  /** Pending invitations (e-mails without an account); inviting an existing user makes a member. */
  invitations?: FakeInvitation[];
  /** Error-tracking client keys of projects. */
  error_tracking_client_keys?: { id: number; project_id: number; public_key: string }[];
  /** Approval settings by project id (defaults until changed). */
  approval_settings?: Record<string, { reset_approvals_on_push: boolean; selective_code_owner_removals: boolean; disable_overriding_approvers_per_merge_request: boolean; merge_requests_author_approval: boolean; merge_requests_disable_committers_approval: boolean; require_password_to_approve: boolean }>;
  approval_rules?: { id: number; project_id: number; name: string; rule_type: string; approvals_required: number; user_ids: number[]; group_ids: number[]; applies_to_all_protected_branches: boolean }[];
  /** Project exports by project id. */
  project_exports?: Record<string, { status: 'queued' | 'started' | 'finished' | 'regeneration_in_progress'; description: string | null; requested_at: string }>;
  /**
   * Commits made on a project's default branch after its initial commit, in order, each by a user of the data set;
   * `files` changes paths (`null` deletes one), `tag` tags the commit. Applied once when the fake starts.
   */
  repository_history?: { project_id: number; commits: { author_id: number; message: string; files: Record<string, FakeFile | string | null>; tag?: string }[] }[];
}
