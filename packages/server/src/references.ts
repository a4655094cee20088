/**
 * Whether a project or group reference (the `id` of `/projects/{id}`, `/groups/{id}`) could name anything on the
 * Service: a numeric ID, or a full path whose segments are namespace paths. A segment holds letters, digits, `_`, `-`
 * and `.` and does not start with `-`: the Service's `PATH_REGEX_STR` (`[a-zA-Z0-9_\.][a-zA-Z0-9_\-\.]*`, in
 * lib/gitlab/path_regex.rb, which `FULL_NAMESPACE_FORMAT_REGEX` joins with `/`). Anything else (a class name
 * with spaces, `{<nil> 0xc000…}`) names nothing, and the Service answers 404.
 */
const NUMERIC_ID = /^\d+$/;
const FULL_PATH = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_.][A-Za-z0-9_.-]*)*$/;

export function isNamespaceReference(reference: string): boolean {
  return NUMERIC_ID.test(reference) || FULL_PATH.test(reference);
}

/** The record a route's leading reference names (`/projects/{id}/…` → `Project`), if it has one. */
export function referencedRecord(routePath: string): 'Project' | 'Group' | undefined {
  if (/^\/projects\/\{id\}(?:\/|$)/.test(routePath)) return 'Project';
  if (/^\/groups\/\{id\}(?:\/|$)/.test(routePath)) return 'Group';
  return undefined;
}
