/**
 * Requests that make sense against the fake's default data set (packages/fake/src/default-data.ts), for the conformance cases
 * and the third-party client calls run against the fake: the records each path parameter names, filters that would
 * leave a list empty dropped, bodies naming existing branches and users, and a setup that first creates what a
 * request needs (an invitation to update, a finished export to download). Each aims at a 2xx answer.
 */
import { gzipSync } from 'node:zlib';
import type { OperationEntry } from '../../generators/lib/document.ts';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { buildRequest, credentialsFor, type BuildOptions, type BuiltRequest, type Credentials } from './requests.ts';

/** The default data set's administrator; job-token operations take the token of its running job. */
export const FAKE_TOKENS: Record<string, string> = {
  jobTokenHeader: 'job-token',
  jobTokenQuery: 'job-token',
  oauthAccessTokenQuery: 'oauth-token',
  sessionCookie: 'session-cookie',
};
export const FAKE_ADMIN_TOKEN = 'admin-token';

/** Calls the fake as its administrator; rejects on anything but 2xx. Resolves to the parsed JSON body, if any. */
// biome-ignore lint/suspicious/noExplicitAny: setups read the fields of what they created, `(await admin(...)).id`.
export type AdminCall = (method: string, path: string, body?: unknown) => Promise<any>;

export interface FakeRequest {
  /** Path and query parameter values by name (query examples are kept unless `query` is given). */
  params?: Record<string, unknown>;
  /** Replaces the query examples with these parameters. */
  query?: Record<string, unknown>;
  /** Replaces the JSON body. */
  body?: unknown;
  /** Replaces the body with a multipart form (files as files). */
  form?: () => FormData;
  /** The caller's token where the administrator's is not the one (default: `admin-token`). */
  token?: string;
  /** Creates what the request names; resolves to more parameter values (e.g. the id of what it created). */
  // biome-ignore lint/suspicious/noConfusingVoidType: a setup that creates nothing is an `async` function returning nothing.
  setup?: (admin: AdminCall) => Promise<Record<string, unknown> | void>;
}

const PROJECT = 'my-group/my-project';

/** Values by path parameter name, per first segment of the path (`/projects/{id}` is a project, `/groups/{id}` a group). */
function pathDefaults(entry: OperationEntry): Record<string, unknown> {
  const root = entry.path.split('/')[1];
  const idSchema = entry.parameters.find((p) => p.in === 'path' && p.name === 'id')?.schema as
    | { type?: unknown }
    | undefined;
  const byRoot: Record<string, Record<string, unknown>> = {
    // The project by path where the operation takes one, else by its numeric id.
    projects: {
      id: idSchema?.type === 'integer' ? 1 : PROJECT,
      pipeline_id: 11,
      job_id: 101,
      file_path: 'README.md',
      merge_request_iid: 1,
      user_id: 3,
      format: 'zip',
    },
    groups: { id: 1, user_id: 2 },
    users: { id: 4, user_id: 4 },
    user: {},
    bulk_imports: { id: 1 },
    runners: { id: 1 },
  };
  return byRoot[root ?? ''] ?? {};
}

/** README.md's blob id on the default branch of the default project. */
const readmeBlob = async (admin: AdminCall) => ({
  sha: (
    (await admin('GET', `/projects/${encodeURIComponent(PROJECT)}/repository/files/README.md?ref=main`)) as {
      blob_id: string;
    }
  ).blob_id,
});
const project = (rest: string) => `/projects/${encodeURIComponent(PROJECT)}${rest}`;

/** Per operation: what differs from the operation's examples with the defaults above. */
export const fakeRequests: Record<string, FakeRequest> = {
  'project-import-export/download-export': {
    setup: async (admin) => {
      await admin('POST', project('/export'), {});
      for (let i = 0; i < 20; i += 1)
        if (((await admin('GET', project('/export'))) as { export_status: string }).export_status === 'finished')
          return;
    },
  },
  'repository/create-file': {
    params: { file_path: 'docs/new.md' },
    body: { branch: 'main', content: '# New\n', commit_message: 'Add docs' },
  },
  'repository/update-file': {
    body: { branch: 'main', content: '# My Project\n\nUpdated.\n', commit_message: 'Update the README' },
  },
  'repository/delete-file': { body: { branch: 'main', commit_message: 'Remove the README' } },
  'repository/list-tree': { query: { ref: 'main', recursive: true } },
  'repository/get-blob': { setup: readmeBlob },
  'repository/get-raw-blob': { setup: readmeBlob },
  'users/list-users': { query: {} },
  'groups/list-groups': { query: {} },
  'groups/list-subgroups': { query: {} },
  'groups/list-descendant-groups': { query: {} },
  'members/list-group-members': { query: {} },
  'members/list-project-members': { query: {} },
  'members/list-all-group-members': { query: {} },
  'members/list-all-project-members': { query: {} },
  'members/get-inherited-project-member': { params: { user_id: 2 } },
  'invitations/list-group-invitations': { query: {} },
  'invitations/list-project-invitations': { query: {} },
  'invitations/create-group-invitation': { body: { email: 'new@example.com', access_level: 30 } },
  'invitations/create-project-invitation': { body: { email: 'new@example.com', access_level: 30 } },
  'invitations/update-group-invitation': invitation('/groups/1'),
  'invitations/delete-group-invitation': invitation('/groups/1'),
  'invitations/update-project-invitation': invitation(project('')),
  'invitations/delete-project-invitation': invitation(project('')),
  'projects/list-projects': { query: {} },
  'merge-requests/list-merge-requests': { query: { scope: 'all' } },
  'merge-requests/list-project-merge-requests': { query: {} },
  'merge-requests/create-merge-request': {
    body: {
      source_branch: 'feature/new',
      target_branch: 'main',
      title: 'Add a feature',
      assignee_ids: [4],
      reviewer_ids: [3],
    },
    setup: async (admin) =>
      void (await admin('POST', project('/repository/files/docs%2Fnew.md'), {
        branch: 'feature/new',
        start_branch: 'main',
        content: '# New\n',
        commit_message: 'Add docs',
      })),
  },
  'merge-requests/merge': { body: { squash: false } },
  'approvals/create-project-approval-rule': { body: { name: 'Security review', approvals_required: 1, user_ids: [3] } },
  'approvals/get-project-approval-rule': {
    setup: async (admin) => ({
      approval_rule_id: (
        (await admin('POST', project('/approval_rules'), { name: 'Security review', approvals_required: 1 })) as {
          id: number;
        }
      ).id,
    }),
  },
  'error-tracking/delete-client-key': {
    setup: async (admin) => ({
      key_id: ((await admin('POST', project('/error_tracking/client_keys'), {})) as { id: number }).id,
    }),
  },
};

/** A form with `fields` and one file. */
function form(
  fields: Record<string, string>,
  file: { name: string; filename: string; type: string; bytes: Uint8Array<ArrayBuffer> },
): () => FormData {
  return () => {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) data.append(name, value);
    data.append(file.name, new Blob([file.bytes], { type: file.type }), file.filename);
    return data;
  };
}

/** Product analytics need the query engine's base URL and key set first. */
const analyticsSettings = async (admin: AdminCall) =>
  void (await admin('PUT', '/application/settings', {
    cube_api_base_url: 'https://cube.example',
    cube_api_key: 'secret',
  }));

/** The chat notifications integration set up on the project. */
const chatIntegration = async (admin: AdminCall) =>
  void (await admin('PUT', project('/integrations/chat-notifications'), { webhook: 'https://chat.example/hooks/1' }));

/** An export file: a gzipped empty tar archive (two zero blocks). */
const exportFile = {
  name: 'file',
  filename: 'my-project-export.tar.gz',
  type: 'application/gzip',
  bytes: new Uint8Array(gzipSync(new Uint8Array(1024))),
};
/** A 1×1 PNG. */
const avatarFile = {
  name: 'avatar',
  filename: 'avatar.png',
  type: 'image/png',
  bytes: new Uint8Array(
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    ),
  ),
};

/**
 * The operations of the other domains of issue 12: requests on the records their default data
 * declares (runners 1–7, group hook 1, LDAP link `developers`, SAML link `Engineering`, badges 1–2, migration 1 with
 * entities 1–2, the custom issue tracker, impersonation token 1 of user 4, the tag v1.0.0).
 */
const pending: Record<string, FakeRequest> = {
  'jobs/list-pipeline-bridges': { params: { pipeline_id: 12 }, query: {} },
  'project-import-export/import-project': {
    form: form({ path: 'imported-project', namespace: 'my-group' }, exportFile),
  },
  'project-import-export/import-project-from-url': {
    body: {
      path: 'remote-project',
      namespace: 'my-group',
      url: 'https://service.example/exports/remote-project-export.tar.gz',
    },
  },
  'project-import-export/import-relation': { form: form({ path: PROJECT, relation: 'issues' }, exportFile) },
  'project-import-export/import-project-from-s3': {
    body: {
      access_key_id: 'example-access-key-id',
      bucket_name: 'project-exports',
      file_key: 'exports/my-project-export.tar.gz',
      path: 's3-project',
      namespace: 'my-group',
      region: 'us-east-1',
      secret_access_key: 'example-secret-access-key',
    },
  },
  'bulk-imports/create-migration': {
    body: {
      configuration: { url: 'https://source.example', access_token: 'source-token' },
      entities: [
        {
          source_type: 'group_entity',
          source_full_path: 'source-group',
          destination_slug: 'migrated',
          destination_namespace: 'my-group',
        },
      ],
    },
  },
  // Migration 1 is Dev's: its owner reads it.
  'bulk-imports/list-migrations': { token: 'developer-token', query: {} },
  'bulk-imports/list-all-entities': { token: 'developer-token', query: {} },
  'bulk-imports/get-migration': { token: 'developer-token' },
  'bulk-imports/list-migration-entities': { token: 'developer-token', query: {} },
  'bulk-imports/get-migration-entity': { token: 'developer-token' },
  'bulk-imports/get-entity-failures': { token: 'developer-token' },
  'repository/get-file-blame': { query: { ref: 'main' } },
  'repository/get-file-blame-metadata': { query: { ref: 'main' } },
  'repository/download-archive': { query: { sha: 'main' } },
  'repository/download-archive-in-format': { query: { sha: 'main' } },
  'repository/compare': { query: { from: 'main', to: 'feature/login' } },
  'repository/list-contributors': { query: {} },
  // The release after the data set's tag v1.0.0, so the range starts at that tag.
  'repository/get-changelog': { query: { version: '1.1.0', branch: 'main' } },
  'repository/create-changelog': { body: { version: '1.1.0', branch: 'main' } },
  'users/create-user': {
    body: { email: 'jdoe@example.com', name: 'Jane Doe', username: 'jdoe', password: 'Correct-Horse-Battery-42' },
  },
  'users/get-user': { query: {} },
  'users/get-impersonation-token': { params: { impersonation_token_id: 1 } },
  'users/revoke-impersonation-token': { params: { impersonation_token_id: 1 } },
  'users/list-activities': { query: {} },
  'users/disable-two-factor': { params: { id: 3 } },
  // Runner creation takes a token with the create_runner scope: the group owner's.
  'runners/create-user-runner': {
    token: 'runner-creator-token',
    body: { runner_type: 'group_type', group_id: 1, description: 'group runner' },
  },
  'users/upload-avatar': { form: form({}, avatarFile) },
  'groups/list-projects': { query: {} },
  'groups/update-hook': {
    params: { hook_id: 1 },
    body: { url: 'https://hooks.example.com/my-group', push_events: false },
  },
  'groups/delete-hook': { params: { hook_id: 1 } },
  'groups/create-ldap-group-link': { body: { cn: 'maintainers', group_access: 40, provider: 'ldapmain' } },
  'groups/create-saml-group-link': { body: { saml_group_name: 'saml-developers', access_level: 30 } },
  'groups/get-saml-group-link': { params: { saml_group_name: 'Engineering' } },
  'groups/delete-saml-group-link': { params: { saml_group_name: 'Engineering' } },
  'groups/share': { params: { id: 2 }, body: { group_id: 1, group_access: 30 } },
  'groups/unshare': {
    params: { id: 2, group_id: 1 },
    setup: async (admin) => void (await admin('POST', '/groups/2/share', { group_id: 1, group_access: 30 })),
  },
  'groups/get-push-rule': {
    setup: async (admin) => void (await admin('POST', '/groups/1/push_rule', { member_check: true })),
  },
  'groups/update-push-rule': {
    setup: async (admin) => void (await admin('POST', '/groups/1/push_rule', { member_check: true })),
  },
  'badges/list-group-badges': { query: {} },
  'badges/get-group-badge': { params: { badge_id: 1 } },
  'badges/update-group-badge': { params: { badge_id: 1 } },
  'badges/delete-group-badge': { params: { badge_id: 1 } },
  'members/list-billable-members': { query: {} },
  'runners/list-runners': { query: {} },
  'runners/list-all-runners': { query: {} },
  'runners/list-runner-jobs': { query: {} },
  'runners/list-project-runners': { query: {} },
  'runners/list-runner-manager-jobs': { params: { system_id: 's_0a1b2c3d4e5f' }, query: {} },
  'runners/list-group-runners': { query: {} },
  'integrations/set-up-integration': { body: { webhook: 'https://chat.example/hooks/1' } },
  'integrations/get-integration': { setup: chatIntegration },
  'integrations/disable-integration': { setup: chatIntegration },
  'projects/list-user-projects': { params: { user_id: 4 }, query: {} },
  'approvals/create-group-approval-rule': {
    body: { name: 'Group security review', approvals_required: 1, user_ids: [3] },
  },
  'approvals/update-group-approval-rule': {
    setup: async (admin) => ({
      approval_rule_id: (
        (await admin('POST', '/groups/1/approval_rules', { name: 'Group security review', approvals_required: 1 })) as {
          id: number;
        }
      ).id,
    }),
  },
  'dependencies/list-project-dependencies': { query: {} },
  'product-analytics/load-query': { setup: analyticsSettings },
  'product-analytics/dry-run-query': { setup: analyticsSettings },
  'product-analytics/get-meta': { setup: analyticsSettings },
};
Object.assign(fakeRequests, pending);

function invitation(prefix: string): FakeRequest {
  return {
    params: { email: 'new@example.com' },
    body: { access_level: 40 },
    setup: async (admin) =>
      void (await admin('POST', `${prefix}/invitations`, { email: 'new@example.com', access_level: 30 })),
  };
}

/** The request of `entry` against the default data set; `extra` holds the values a setup resolved to. */
export function fakeRequest(
  doc: OpenApiDocument,
  entry: OperationEntry,
  extra: Record<string, unknown> = {},
  options: BuildOptions = {},
): BuiltRequest {
  const spec = fakeRequests[entry.operationId] ?? {};
  const request = buildRequest(doc, entry, {
    ...options,
    withoutQuery: spec.query !== undefined,
    overrides: { ...pathDefaults(entry), ...spec.query, ...spec.params, ...extra, ...options.overrides },
  });
  if (spec.body !== undefined && !options.withoutBody) {
    request.body = JSON.stringify(spec.body);
    request.headers = { ...request.headers, 'content-type': 'application/json' };
  }
  if (spec.form && !options.withoutBody) request.body = spec.form();
  return request;
}

/** Credentials of the default data set for the operation's first security requirement. */
export function fakeCredentials(doc: OpenApiDocument, entry: OperationEntry): Credentials {
  return credentialsFor(
    doc,
    entry,
    (scheme) => FAKE_TOKENS[scheme] ?? fakeRequests[entry.operationId]?.token ?? FAKE_ADMIN_TOKEN,
  );
}

/** An `AdminCall` against the API root `api`. */
export function adminCall(api: () => string): AdminCall {
  return async (method, path, body) => {
    const response = await fetch(`${api()}${path}`, {
      method,
      headers: {
        'PRIVATE-TOKEN': FAKE_ADMIN_TOKEN,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status < 200 || response.status > 299)
      throw new Error(`setup: ${method} ${path} answered ${response.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}
