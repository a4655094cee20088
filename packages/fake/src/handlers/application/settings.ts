/**
 * Application settings, administrators only (403 for everyone else). GET answers the instance defaults overlaid with
 * the data set's `application_settings` and every change since; PUT changes the documented settings and the fields the
 * settings object already has (other names are ignored, as the Service ignores unknown parameters) and refuses, with
 * 400, a result where an enabled setting lacks a setting it requires.
 */
import { routes, type ApplicationSettings, type Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import { FORBIDDEN, message } from '../../common.ts';
import type { Store } from '../../store.ts';

type Settings = ApplicationSettings & Record<string, unknown>;

/** "Requires" rules: when the setting is enabled, the listed settings must be set. */
export const REQUIRES: Record<string, string[]> = {
  email_restrictions_enabled: ['email_restrictions'],
  throttle_unauthenticated_api_enabled: [
    'throttle_unauthenticated_api_period_in_seconds',
    'throttle_unauthenticated_api_requests_per_period',
  ],
  throttle_unauthenticated_packages_api_enabled: [
    'throttle_unauthenticated_packages_api_period_in_seconds',
    'throttle_unauthenticated_packages_api_requests_per_period',
  ],
  throttle_unauthenticated_web_enabled: [
    'throttle_unauthenticated_web_period_in_seconds',
    'throttle_unauthenticated_web_requests_per_period',
  ],
  unique_ips_limit_enabled: ['unique_ips_limit_per_user', 'unique_ips_limit_time_window'],
  require_two_factor_authentication: ['two_factor_grace_period'],
};

/** A new instance's settings: the defaults the API states, and plain empty values for the rest. */
function defaults(now: string): Settings {
  return {
    id: 1,
    created_at: now,
    updated_at: now,
    signup_enabled: true,
    default_projects_limit: 100000,
    default_branch_protection: 2,
    default_branch_protection_defaults: {
      allowed_to_push: [{ access_level: 40 }],
      allow_force_push: false,
      allowed_to_merge: [{ access_level: 40 }],
      developer_can_initial_push: false,
    },
    default_preferred_language: 'en',
    failed_login_attempts_unlock_period_in_minutes: 10,
    restricted_visibility_levels: [],
    password_authentication_enabled_for_web: true,
    after_sign_out_path: null,
    max_attachment_size: 100,
    max_decompressed_archive_size: 25600,
    max_export_size: 0,
    max_import_size: 0,
    max_import_remote_file_size: 10240,
    max_login_attempts: 10,
    user_oauth_applications: true,
    session_expire_delay: 10080,
    home_page_url: null,
    default_snippet_visibility: 'private',
    default_project_visibility: 'private',
    default_group_visibility: 'private',
    outbound_local_requests_whitelist: [],
    domain_allowlist: [],
    domain_denylist_enabled: false,
    domain_denylist: [],
    default_ci_config_path: null,
    gravatar_enabled: true,
    container_expiration_policies_enable_historic_entries: false,
    container_registry_cleanup_tags_service_max_list_size: 200,
    container_registry_delete_tags_service_timeout: 250,
    container_registry_expiration_policies_caching: true,
    container_registry_expiration_policies_worker_capacity: 4,
    container_registry_token_expire_delay: 5,
    decompress_archive_file_timeout: 210,
    package_registry_cleanup_policies_worker_capacity: 2,
    repository_storages_weighted: { default: 100 },
    terminal_max_session_time: 0,
    polling_interval_multiplier: '1.0',
    rsa_key_restriction: 0,
    dsa_key_restriction: 0,
    ecdsa_key_restriction: 0,
    ed25519_key_restriction: 0,
    ecdsa_sk_key_restriction: 0,
    ed25519_sk_key_restriction: 0,
    first_day_of_week: 0,
    enforce_terms: false,
    terms: null,
    performance_bar_allowed_group_id: null,
    user_show_add_ssh_key_message: true,
    updating_name_disabled_for_users: false,
    local_markdown_version: 0,
    allow_local_requests_from_hooks_and_services: false,
    allow_local_requests_from_web_hooks_and_services: false,
    allow_local_requests_from_system_hooks: true,
    asset_proxy_enabled: false,
    asset_proxy_url: null,
    asset_proxy_whitelist: [],
    asset_proxy_allowlist: [],
    maven_package_requests_forwarding: false,
    npm_package_requests_forwarding: false,
    pypi_package_requests_forwarding: false,
    snippet_size_limit: 52428800,
    issues_create_limit: 0,
    raw_blob_request_limit: 300,
    wiki_page_max_content_bytes: 52428800,
    require_admin_approval_after_user_signup: false,
    require_personal_access_token_expiry: false,
    personal_access_token_prefix: '',
    rate_limiting_response_text: null,
    keep_latest_artifact: true,
    admin_mode: false,
    external_pipeline_validation_service_timeout: null,
    external_pipeline_validation_service_token: null,
    external_pipeline_validation_service_url: null,
    silent_mode_enabled: false,
    package_registry_allow_anyone_to_pull_option: true,
    bulk_import_max_download_file_size: 5120,
    project_jobs_api_rate_limit: 600,
    projects_api_rate_limit_unauthenticated: 400,
    security_txt_content: null,
    bulk_import_concurrent_pipeline_batch_limit: 25,
    downstream_pipeline_trigger_limit_per_project_user_sha: 0,
    concurrent_github_import_jobs_limit: 1000,
    concurrent_bitbucket_import_jobs_limit: 100,
    concurrent_bitbucket_server_import_jobs_limit: 100,
    silent_admin_exports_enabled: false,
    user_defaults_to_private_profile: false,
    can_create_group: true,
    external_authorization_service_enabled: false,
    external_authorization_service_url: null,
    external_authorization_service_default_label: null,
    external_authorization_service_timeout: 0.5,
    globally_allowed_ips: '',
    // Defaults stated for settings outside the required fields.
    allow_runner_registration_token: true,
    time_tracking_limit_to_hours: false,
    asciidoc_max_includes: 32,
    delete_inactive_projects: false,
    inactive_projects_delete_after_months: 2,
    inactive_projects_min_size_mb: 0,
    inactive_projects_send_warning_email_after_months: 1,
  };
}

/** The settings of the moment: defaults, then the data set's, then every change (kept in the data set). */
export function currentSettings(store: Store): Settings {
  const settings = {
    ...defaults(store.data.now ?? '2025-01-01T00:00:00.000Z'),
    ...(store.data.application_settings ?? {}),
  } as Settings;
  return { ...settings, ...asSent(settings) };
}

/** An access level as the Service sends it in the branch protection defaults: `{access_level}`, whichever form was set. */
const accessLevel = (entry: unknown) => (typeof entry === 'number' ? { access_level: entry } : entry);

/** A number as the decimal string the Service sends for a numeric column: `1.0`, `0.00003`, never in exponent form. */
function decimalString(n: number): string {
  const [mantissa = '', exponent] = String(n).split('e');
  if (exponent === undefined) return Number.isInteger(n) ? n.toFixed(1) : mantissa;
  const sign = mantissa.startsWith('-') ? '-' : '';
  const [whole = '', fraction = ''] = mantissa.replace('-', '').split('.');
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** The two settings the Service sends in another form than a request sets them: a decimal string, access-level objects. */
function asSent(settings: Settings): Partial<Settings> {
  const multiplier = settings.polling_interval_multiplier as unknown;
  const defaults = settings.default_branch_protection_defaults as Record<string, unknown> | undefined;
  const levels = (key: string) =>
    Array.isArray(defaults?.[key]) ? { [key]: (defaults[key] as unknown[]).map(accessLevel) } : {};
  return {
    ...(typeof multiplier === 'number' ? { polling_interval_multiplier: decimalString(multiplier) } : {}),
    ...(defaults
      ? {
          default_branch_protection_defaults: {
            ...defaults,
            ...levels('allowed_to_push'),
            ...levels('allowed_to_merge'),
          },
        }
      : {}),
  } as Partial<Settings>;
}

const writable = (() => {
  const input = routes.find((r) => r.id === 'application/update-settings')?.input as
    | { b?: { o?: Record<string, unknown>; k?: Record<string, unknown> } }
    | undefined;
  return {
    names: new Set(Object.keys(input?.b?.o ?? {})),
    patterns: Object.keys(input?.b?.k ?? {}).map((p) => new RegExp(p)),
  };
})();

/** A value for a setting the body does not type, in the type of its current value; undefined when it does not fit. */
function fitted(current: unknown, value: unknown): unknown {
  if (current === null || current === undefined) return value;
  if (typeof current === 'boolean')
    return typeof value === 'boolean' ? value : value === 'true' ? true : value === 'false' ? false : undefined;
  if (typeof current === 'number') {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return typeof n === 'number' && Number.isFinite(n) && (!Number.isInteger(current) || Number.isInteger(n))
      ? n
      : undefined;
  }
  if (Array.isArray(current)) return Array.isArray(value) ? value : undefined;
  if (typeof current === 'object')
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  return typeof value === typeof current ? value : undefined;
}

export function settingsHandlers(store: Store): Handlers<Principal> {
  return {
    'application/get-settings': (_input, { principal }) => {
      if (!principal.user.is_admin) return FORBIDDEN;
      return { status: 200, body: currentSettings(store) };
    },
    'application/update-settings': ({ body }, { principal }) => {
      if (!principal.user.is_admin) return FORBIDDEN;
      const current = currentSettings(store);
      const next: Record<string, unknown> = { ...current };
      const invalid: string[] = [];
      for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
        if (name === 'id' || name === 'created_at' || name === 'updated_at') continue;
        if (writable.names.has(name) || writable.patterns.some((p) => p.test(name))) next[name] = value;
        else if (Object.hasOwn(current, name)) {
          const typed = fitted(current[name], value);
          if (typed === undefined) invalid.push(name);
          else next[name] = typed;
        }
      }
      if (invalid.length > 0)
        return {
          status: 400,
          body: message(`400 Bad request - ${invalid.join(', ')} ${invalid.length === 1 ? 'is' : 'are'} invalid`),
        };
      for (const [flag, needed] of Object.entries(REQUIRES)) {
        if (next[flag] !== true) continue;
        const missing = needed.filter((n) => next[n] === undefined || next[n] === null || next[n] === '');
        if (missing.length > 0)
          return { status: 400, body: message(`400 Bad request - ${flag} requires ${missing.join(' and ')}`) };
      }
      // The same settings again change nothing, not even updated_at: compared in the form the Service sends them.
      if (JSON.stringify({ ...next, ...asSent(next as Settings) }) !== JSON.stringify(current))
        store.data.application_settings = { ...next, updated_at: store.now(true) };
      return { status: 200, body: currentSettings(store) };
    },
  };
}
