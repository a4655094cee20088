/**
 * Project integrations, for Maintainers and Owners (403 below, 404 when the project cannot be read). `PUT` sets one
 * up (creates it or changes the parameters given), `GET` reads its settings (404 before its first setup), `DELETE`
 * disables it and resets its settings (the record stays, inactive); the list holds the active ones only.
 *
 * The API documents kinds of integration and their required parameters, not their slugs: the data set's
 * `integration_kinds` says which kind a slug is, and a setup missing a required parameter of that kind answers 400.
 * The custom issue tracker (`custom-issue-tracker`) is the "issue tracker with URLs" kind. Other slugs take any
 * parameters. Secrets (passwords, tokens, API keys, private and license keys, access token secrets) are stored but
 * never answered.
 */
import { errorBody, type Handler, type Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeIntegration, FakeIntegrationKind } from '../../data.ts';
import { FORBIDDEN, message, paginate, PROJECT_NOT_FOUND, readableProject } from '../../common.ts';
import { keyed, type Project, type Store } from '../../store.ts';

const INTEGRATION_NOT_FOUND = { status: 404 as const, body: message('404 Integration Not Found') };
const CUSTOM_ISSUE_TRACKER = 'custom-issue-tracker';

/** The event flags of an integration summary (`vulnerability_events` is enterprise edition only: not sent). */
const FLAGS = [
  'commit_events',
  'push_events',
  'issues_events',
  'alert_events',
  'confidential_issues_events',
  'merge_requests_events',
  'tag_push_events',
  'deployment_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'wiki_page_events',
  'job_events',
  'comment_on_event_enabled',
] as const;

const SECRET = /^(password|token|api_key)$|_private_key$|_license_key$|_access_token_secret$/;

/** `<vendor>_<suffix>` for every suffix with the same vendor: the vendor, or undefined. */
function vendorOf(params: Record<string, unknown>, suffixes: string[]): string | undefined {
  const [first, ...rest] = suffixes;
  for (const key of Object.keys(params)) {
    if (!key.endsWith(`_${first}`)) continue;
    const vendor = key.slice(0, -first!.length - 1);
    if (/^[a-z0-9]+(?:_[a-z0-9]+)*$/.test(vendor) && [first, ...rest].every((s) => filled(params[`${vendor}_${s}`])))
      return vendor;
  }
  return undefined;
}

const filled = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** The required parameters of a kind that are missing or blank (names as the API writes them). */
function missing(kind: FakeIntegrationKind, params: Record<string, unknown>): string[] {
  const named = (names: string[]) => names.filter((n) => !filled(params[n]));
  const vendor = (suffixes: string[]) => (vendorOf(params, suffixes) ? [] : suffixes.map((s) => `<vendor>_${s}`));
  switch (kind) {
    case 'mobile_store_connector':
      return vendor(['issuer_id', 'key_id', 'private_key_file_name', 'private_key']);
    case 'task_tracker':
    case 'monitoring':
      return named(['api_key']);
    case 'token_subdomain':
      return named(['token']);
    case 'build_server': {
      const known = new Set(['build_key', 'username', 'password', 'enable_ssl_verification', ...FLAGS]);
      const root = Object.entries(params).some(([k, v]) => !known.has(k) && filled(v));
      return [...(root ? [] : ['the server root URL']), ...named(['build_key', 'username', 'password'])];
    }
    case 'issue_tracker':
      return named(['new_issue_url', 'issues_url', 'project_url']);
    case 'short_issue_tracker':
      return named(['issues_url', 'project_url']);
    case 'pipeline_notifier':
      return named(['token', 'project_url']);
    case 'wiki_workspace':
      return named(['confluence_url']);
    case 'test_generation':
      return vendor(['license_key', 'access_token_name', 'access_token_secret']);
    case 'chat_notifications':
      return named(['webhook']);
  }
}

const titleOf = (slug: string) => slug.charAt(0).toUpperCase() + slug.slice(1).replace(/-/g, ' ');

const integrations = (store: Store) => (store.data.integrations ??= []);
const kinds = (store: Store) => (store.data.integration_kinds ??= keyed());
const kindOf = (store: Store, slug: string) =>
  kinds(store)[slug] ??
  (slug === CUSTOM_ISSUE_TRACKER ? { title: 'Custom issue tracker', kind: 'issue_tracker' as const } : undefined);
const find = (store: Store, project: Project, slug: string) =>
  integrations(store).find((i) => i.project_id === project.id && i.slug === slug);

const maintained = (store: Store, id: string | number, principal: Principal) => {
  const project = readableProject(store, id, principal);
  if (!project) return { answer: PROJECT_NOT_FOUND };
  return store.hasAccess(project, principal.user, 40) ? { project } : { answer: FORBIDDEN };
};

const flags = (properties: Record<string, unknown>) =>
  Object.fromEntries(FLAGS.map((f) => [f, properties[f] === true])) as Record<(typeof FLAGS)[number], boolean>;
const summary = (i: FakeIntegration) => ({
  id: i.id,
  title: i.title,
  slug: i.slug,
  created_at: i.created_at,
  updated_at: i.updated_at,
  active: i.active,
  ...flags(i.properties),
});
const settings = (i: FakeIntegration) => {
  const shown = Object.fromEntries(
    Object.entries(i.properties).filter(([k]) => !SECRET.test(k) && !(FLAGS as readonly string[]).includes(k)),
  );
  return { ...summary(i), properties: shown };
};

const read = (store: Store, id: string | number, slug: string, principal: Principal) => {
  const { project, answer } = maintained(store, id, principal);
  if (answer) return answer;
  // An integration that was never set up has no record to answer (the Service's 404 "Integration Not Found").
  const found = find(store, project!, slug);
  return found ? { status: 200 as const, body: settings(found) } : INTEGRATION_NOT_FOUND;
};

const setUp = (
  store: Store,
  id: string | number,
  slug: string,
  body: Record<string, unknown>,
  principal: Principal,
) => {
  const { project, answer } = maintained(store, id, principal);
  if (answer) return answer;
  const kind = kindOf(store, slug);
  const absent = kind ? missing(kind.kind, body) : [];
  if (absent.length > 0)
    return {
      status: 400 as const,
      body: errorBody(
        400,
        undefined,
        absent.map((name) => ({ in: 'body', field: name, problem: `${name} is missing` })),
      ),
    };
  const now = store.now(true);
  let integration = find(store, project!, slug);
  if (!integration) {
    integration = {
      id: store.nextId('integrations', integrations(store)),
      project_id: project!.id,
      slug,
      title: kind?.title ?? titleOf(slug),
      active: true,
      properties: {},
      created_at: now,
      updated_at: now,
    };
    integrations(store).push(integration);
  }
  const properties = { ...integration.properties, ...body };
  // The same settings again change nothing, not even updated_at.
  if (!integration.active || JSON.stringify(properties) !== JSON.stringify(integration.properties)) {
    integration.active = true;
    integration.properties = properties;
    integration.updated_at = now;
  }
  return { status: 200 as const, body: settings(integration) };
};

const disable = (store: Store, id: string | number, slug: string, principal: Principal) => {
  const { project, answer } = maintained(store, id, principal);
  if (answer) return answer;
  const integration = find(store, project!, slug);
  if (!integration) return kindOf(store, slug) ? { status: 204 as const } : INTEGRATION_NOT_FOUND;
  if (!integration.active) return { status: 204 as const }; // disabled already: nothing changes
  integration.active = false;
  integration.properties = {};
  integration.updated_at = store.now(true);
  return { status: 204 as const };
};

const listIntegrations =
  (store: Store): Handler<'integrations/list-integrations', Principal> =>
  ({ params, query }, { principal, request }) => {
    const { project, answer } = maintained(store, params.id, principal);
    if (answer) return answer;
    const active = integrations(store)
      .filter((i) => i.project_id === project!.id && i.active)
      .sort((a, b) => a.id - b.id);
    const page = paginate(active, query, request);
    return { status: 200, body: page.items.map(summary), headers: page.headers };
  };

const getIntegration =
  (store: Store): Handler<'integrations/get-integration', Principal> =>
  ({ params }, { principal }) =>
    read(store, params.id, params.slug, principal);

const setUpIntegration =
  (store: Store): Handler<'integrations/set-up-integration', Principal> =>
  ({ params, body }, { principal }) =>
    setUp(store, params.id, params.slug, body as Record<string, unknown>, principal);

const disableIntegration =
  (store: Store): Handler<'integrations/disable-integration', Principal> =>
  ({ params }, { principal }) =>
    disable(store, params.id, params.slug, principal);

const getCustomIssueTracker =
  (store: Store): Handler<'integrations/get-custom-issue-tracker', Principal> =>
  ({ params }, { principal }) =>
    read(store, params.id, CUSTOM_ISSUE_TRACKER, principal);

const setUpCustomIssueTracker =
  (store: Store): Handler<'integrations/set-up-custom-issue-tracker', Principal> =>
  ({ params, body }, { principal }) =>
    setUp(store, params.id, CUSTOM_ISSUE_TRACKER, body as Record<string, unknown>, principal);

const disableCustomIssueTracker =
  (store: Store): Handler<'integrations/disable-custom-issue-tracker', Principal> =>
  ({ params }, { principal }) =>
    disable(store, params.id, CUSTOM_ISSUE_TRACKER, principal);

export function integrationHandlers(store: Store): Handlers<Principal> {
  return {
    'integrations/list-integrations': listIntegrations(store),
    'integrations/get-integration': getIntegration(store),
    'integrations/set-up-integration': setUpIntegration(store),
    'integrations/disable-integration': disableIntegration(store),
    'integrations/get-custom-issue-tracker': getCustomIssueTracker(store),
    'integrations/set-up-custom-issue-tracker': setUpCustomIssueTracker(store),
    'integrations/disable-custom-issue-tracker': disableCustomIssueTracker(store),
  };
}
