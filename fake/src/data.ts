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
  /** A personal project: the user whose namespace holds it (its Owner); `namespace_id` is then 0, no group. */
  owner_id?: number;
  /** When the project was created (default: the data set's `now`). */
  created_at?: string;
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
  // Imports, direct transfer and integrations (fake/src/handlers/imports.ts, bulk-imports.ts, integrations.ts)
  /** Project imports by project id: what `GET /projects/{id}/import` reports; each read moves a pending one a step. */
  project_imports?: Record<string, FakeProjectImport>;
  /** Relation imports (`POST /projects/import-relation`); each list read moves a pending one a step. */
  relation_imports?: FakeRelationImport[];
  /** Migrations by direct transfer, each visible to the user who started it. */
  bulk_imports?: FakeBulkImport[];
  /** The groups and projects of those migrations. */
  bulk_import_entities?: FakeBulkImportEntity[];
  /** Integrations set up (or disabled and reset) on projects. */
  integrations?: FakeIntegration[];
  /**
   * The integration slugs whose kind the fake knows (the API documents kinds of integration, not their slugs): their
   * required setup parameters are checked (400). Other slugs take any parameters.
   */
  integration_kinds?: Record<string, { title: string; kind: FakeIntegrationKind }>;
}

export interface FakeProjectImport {
  status: 'scheduled' | 'started' | 'finished' | 'failed';
  correlation_id: string;
  /** `file` for an uploaded archive; remote and object-storage imports answer with `import_error`. */
  source: 'file' | 'url' | 's3';
  /** The error the import ends with (it fails at its last step); null when it succeeds. */
  error: string | null;
  /** Files (path → base64) of the export archive, committed when the import finishes. */
  files?: Record<string, string>;
}

export interface FakeRelationImport {
  id: number;
  project_id: number;
  relation: 'issues' | 'milestones' | 'ci_pipelines' | 'merge_requests';
  status: 'created' | 'started' | 'finished' | 'failed';
  /** Whether it ends `failed` (the archive was not a project export). */
  fails?: boolean;
  created_at: string;
  updated_at: string;
}

export type FakeBulkImportStatus = 'created' | 'started' | 'finished' | 'failed';

export interface FakeBulkImport {
  id: number;
  user_id: number;
  status: FakeBulkImportStatus;
  source_type: string;
  source_url: string;
  created_at: string;
  updated_at: string;
}

export interface FakeBulkImportFailure {
  relation: string;
  step: string | null;
  exception_message: string | null;
  exception_class: string | null;
  correlation_id_value: string | null;
  created_at: string;
  pipeline_class: string | null;
  pipeline_step: string | null;
  source_url: string | null;
  source_title: string | null;
}

export interface FakeBulkImportEntity {
  id: number;
  bulk_import_id: number;
  source_type: 'group_entity' | 'project_entity';
  source_full_path: string;
  destination_slug: string;
  destination_namespace: string;
  migrate_projects: boolean;
  status: FakeBulkImportStatus;
  parent_id: number | null;
  namespace_id: number | null;
  project_id: number | null;
  created_at: string;
  updated_at: string;
  failures: FakeBulkImportFailure[];
  stats: Record<string, { source: number; fetched: number; imported: number }>;
}

export type FakeIntegrationKind =
  | 'mobile_store_connector' | 'task_tracker' | 'token_subdomain' | 'build_server' | 'issue_tracker' | 'short_issue_tracker'
  | 'pipeline_notifier' | 'wiki_workspace' | 'monitoring' | 'test_generation' | 'chat_notifications';

export interface FakeIntegration {
  id: number;
  project_id: number;
  slug: string;
  title: string;
  active: boolean;
  /** The setup parameters, secrets included (never answered). */
  properties: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}
