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
  /** Account and profile fields (users, tokens, activity, avatar); absent ones read as their defaults. */
  created_at?: string;
  bio?: string;
  private_profile?: boolean;
  two_factor_enabled?: boolean;
  external?: boolean;
  /** Day of the last activity (`YYYY-MM-DD`); every authenticated request moves it to the fake's current day. */
  last_activity_on?: string | null;
  /** The uploaded avatar (`PUT /user/avatar`): file name and base64 content. */
  avatar?: { filename: string; content: string };
  /** Other profile texts given at creation (public_email, location, organization, job_title, …). */
  profile?: Record<string, string>;
  created_by_id?: number | null;
  /** External identities (LDAP, SAML, OmniAuth): what `extern_uid`, `provider`, `saml_provider_id` and `skip_ldap` select by. */
  identities?: { provider: string; extern_uid: string; saml_provider_id?: number | null }[];
  /** An auditor (read-only administrator of Premium and Ultimate). */
  is_auditor?: boolean;
  /** What kind of account (default `human`); bots are left out by `exclude_internal` and `without_project_bots`. */
  user_type?: 'human' | 'alert_bot' | 'support_bot' | 'project_bot' | 'service_account';
  /** Custom attributes (key → value) set by administrators: `custom_attributes[key]=value` selects by them. */
  custom_attributes?: Record<string, string>;
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
  /** Token record of personal and impersonation tokens (those created through the API have all of them). */
  id?: number;
  name?: string;
  created_at?: string;
  /** Last day the token works (`YYYY-MM-DD`); it authenticates no more after it. */
  expires_at?: string | null;
  /** A revoked token authenticates no more. */
  revoked?: boolean;
}

export interface FakeMember {
  user_id: number;
  access_level: AccessLevel;
  /** `awaiting`: waiting for an administrator's approval (what `state=awaiting` lists; default `active`). */
  state?: 'awaiting' | 'active';
}

export interface FakeGroup {
  id: number;
  name: string;
  path: string;
  parent_id: number | null;
  visibility: 'public' | 'internal' | 'private';
  members: FakeMember[];
  /** Custom attributes (key → value) set by administrators. */
  custom_attributes?: Record<string, string>;
  /** The repository storage of the group's projects (default `default`). */
  repository_storage?: string;
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
  /** When the project was created (default: the data set's `now`). */
  created_at?: string;
  members: FakeMember[];
  /** Files of the default branch as a shorthand: expanded into one initial commit when `repository` is absent. */
  files?: Record<string, FakeFile | string>;
  repository?: FakeRepository;
  /** Topics (what `topic` and `topic_id` select by; topic ids number the data set's topics by first use). */
  topics?: string[];
  /** An archived project (listed only with `archived=true`). */
  archived?: boolean;
  /** Features (default enabled). */
  issues_enabled?: boolean;
  merge_requests_enabled?: boolean;
  /** Users who starred the project. */
  starred_by?: number[];
  /** Custom attributes (key → value) set by administrators. */
  custom_attributes?: Record<string, string>;
  /** The repository storage (default `default`). */
  repository_storage?: string;
  /** Groups the project is shared with (listed among their projects unless `with_shared=false`). */
  shared_with_group_ids?: number[];
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
  status:
    | 'created'
    | 'pending'
    | 'running'
    | 'failed'
    | 'success'
    | 'canceled'
    | 'skipped'
    | 'waiting_for_resource'
    | 'manual';
  user_id: number;
  ref?: string;
  allow_failure?: boolean;
  failure_reason?: string;
  retried?: boolean;
  tag_list?: string[];
  created_at?: string;
  started_at?: string | null;
  finished_at?: string | null;
  /** The runner that picked the job, and the system id of the runner manager that ran it. */
  runner_id?: number;
  runner_system_id?: string;
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
  /** Its milestone (one of `milestones` of its project). */
  milestone_id?: number | null;
  /** Users who approved it. */
  approved_by_ids?: number[];
  /** Its eligible approvers (its own approval rules' users; the project's approval rules add theirs). */
  approver_ids?: number[];
  /** Reactions: emoji name and the user who reacted. */
  award_emoji?: { name: string; user_id: number }[];
  /** Deployments of its merge: environment name and when. */
  deployments?: { environment: string; deployed_at: string }[];
}

export interface FakeMilestone {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description?: string | null;
  state: 'active' | 'closed';
  due_date?: string | null;
  start_date?: string | null;
  created_at: string;
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
  /** Project labels with their colours (a label a merge request names without one here has the default colour). */
  labels?: { project_id: number; name: string; color: string; description?: string | null }[];
  /** Project milestones (what merge requests' `milestone_id` names). */
  milestones?: FakeMilestone[];
  application_settings?: Record<string, unknown>;
  plan_limits?: Record<string, Record<string, number>>;
  /** Pending invitations (e-mails without an account); inviting an existing user makes a member. */
  invitations?: FakeInvitation[];
  /** Error-tracking client keys of projects. */
  error_tracking_client_keys?: { id: number; project_id: number; public_key: string }[];
  /** Approval settings by project id (defaults until changed). */
  approval_settings?: Record<
    string,
    {
      approvals_before_merge: number;
      reset_approvals_on_push: boolean;
      selective_code_owner_removals: boolean;
      disable_overriding_approvers_per_merge_request: boolean;
      merge_requests_author_approval: boolean;
      merge_requests_disable_committers_approval: boolean;
      require_password_to_approve: boolean;
    }
  >;
  approval_rules?: {
    id: number;
    project_id: number;
    name: string;
    rule_type: string;
    approvals_required: number;
    user_ids: number[];
    group_ids: number[];
    applies_to_all_protected_branches: boolean;
  }[];
  /** Project exports by project id. */
  project_exports?: Record<
    string,
    {
      status: 'queued' | 'started' | 'finished' | 'regeneration_in_progress';
      description: string | null;
      requested_at: string;
    }
  >;
  // Badges, group approval rules, dependencies (fake-badges)
  /** Group badges; `link_url` and `image_url` keep their placeholders (rendered from the group's oldest project). */
  group_badges?: FakeGroupBadge[];
  /** Group approval rules (the project ones are `approval_rules`). */
  group_approval_rules?: {
    id: number;
    group_id: number;
    name: string;
    rule_type: 'any_approver' | 'regular';
    approvals_required: number;
    user_ids: number[];
    group_ids: number[];
  }[];
  /** Dependencies detected in projects (`vulnerabilities` shown to callers who may read the security dashboard). */
  dependencies?: FakeDependency[];
  /** CI runners (instance, group and project runners) and their managers. */
  runners?: FakeRunner[];
  /** Trigger jobs (bridges) of pipelines. */
  bridges?: FakeBridge[];
  /** Kubernetes agents; a job token sees those its project may use (`GET /job/allowed_agents`). */
  cluster_agents?: FakeClusterAgent[];
  // Imports, direct transfer and integrations (packages/fake/src/handlers/project-import-export/imports.ts, bulk-imports/, integrations/)
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
  // Groups: hooks, LDAP and SAML links, shares, push rules; personal namespaces (fake-groups).
  /** Group hooks. The record's fields are not documented: these are the update's attributes; `token` is never returned. */
  group_hooks?: FakeGroupHook[];
  /** LDAP group links: `cn` or `filter` (exactly one), the role given, the LDAP provider. */
  ldap_group_links?: {
    group_id: number;
    cn?: string;
    filter?: string;
    group_access: 0 | 5 | AccessLevel;
    provider: string;
  }[];
  /** SAML group links, by SAML group name within a group. */
  saml_group_links?: {
    group_id: number;
    name: string;
    access_level: 0 | 5 | AccessLevel;
    member_role_id?: number | null;
  }[];
  /** Group `group_id` shared with group `shared_with_group_id`: its members get at most `group_access` there until `expires_at` (a date). */
  group_shares?: {
    group_id: number;
    shared_with_group_id: number;
    group_access: 0 | 5 | AccessLevel;
    expires_at: string | null;
  }[];
  /** Push rules of groups, at most one per group. */
  group_push_rules?: FakeGroupPushRule[];
  /**
   * Personal namespaces: a project whose `namespace_id` is one of these ids is in that user's own namespace (the user
   * owns it); ids distinct from group ids. `private_profile` empties the user's project list.
   */
  user_namespaces?: { id: number; user_id: number; private_profile?: boolean }[];
  /**
   * Commits made on a project's default branch after its initial commit, in order, each by a user of the data set;
   * `files` changes paths (`null` deletes one), `tag` tags the commit. Applied once when the fake starts.
   */
  repository_history?: {
    project_id: number;
    commits: { author_id: number; message: string; files: Record<string, FakeFile | string | null>; tag?: string }[];
  }[];
}

export interface FakeGroupBadge {
  id: number;
  group_id: number;
  name: string | null;
  link_url: string;
  image_url: string;
}

export interface FakeDependency {
  project_id: number;
  name: string;
  version: string;
  package_manager: string;
  dependency_file_path: string;
  vulnerabilities?: { id: number; name: string; severity: string; url: string | null }[];
  licenses?: { name: string; url: string | null }[];
}

export interface FakeRunner {
  id: number;
  runner_type: 'instance_type' | 'group_type' | 'project_type';
  /** For a group runner: its group. */
  group_id?: number;
  /** For a project runner: the projects it is assigned to (the first one owns it). */
  project_ids?: number[];
  description?: string | null;
  name?: string | null;
  status: 'online' | 'offline' | 'stale' | 'never_contacted';
  paused?: boolean;
  locked?: boolean;
  run_untagged?: boolean;
  tag_list?: string[];
  access_level?: 'not_protected' | 'ref_protected';
  maximum_timeout?: number | null;
  maintenance_note?: string | null;
  /** Null while the status is never_contacted. */
  contacted_at?: string | null;
  /** The runner managers (one per machine running the runner), with the version they run. */
  managers?: { system_id: string; version: string }[];
  creator_id?: number;
  created_at?: string;
}

export interface FakeBridge {
  id: number;
  project_id: number;
  pipeline_id: number;
  name: string;
  stage: string;
  status: FakeJob['status'];
  user_id: number;
  /** The pipeline the trigger job started (in `pipelines`). */
  downstream_pipeline_id: number;
}

export interface FakeClusterAgent {
  id: number;
  name: string;
  /** The project holding the agent's configuration; its own jobs may use the agent. */
  config_project_id: number;
  /** Projects and groups (with their subgroups and projects) the agent's configuration authorizes. */
  authorized_project_ids?: number[];
  authorized_group_ids?: number[];
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
  | 'mobile_store_connector'
  | 'task_tracker'
  | 'token_subdomain'
  | 'build_server'
  | 'issue_tracker'
  | 'short_issue_tracker'
  | 'pipeline_notifier'
  | 'wiki_workspace'
  | 'monitoring'
  | 'test_generation'
  | 'chat_notifications';

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

export interface FakeGroupHook {
  id: number;
  group_id: number;
  url: string;
  /** Write-only: never returned; cleared when `url` changes without a new token. */
  token?: string | null;
  created_at: string;
  /** name, description, the `*_events` toggles, push_events_branch_filter, enable_ssl_verification, … as last set. */
  [attribute: string]: unknown;
}

export interface FakeGroupPushRule {
  id: number;
  group_id: number;
  created_at: string;
  commit_committer_check: boolean;
  commit_committer_name_check: boolean;
  reject_unsigned_commits: boolean;
  commit_message_regex: string | null;
  commit_message_negative_regex: string | null;
  branch_name_regex: string | null;
  deny_delete_tag: boolean;
  member_check: boolean;
  prevent_secrets: boolean;
  author_email_regex: string | null;
  file_name_regex: string | null;
  max_file_size: number;
}
