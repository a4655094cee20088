/**
 * Credentials inside request bodies (a bucket's `secret_access_key`, a migration's `configuration.access_token`, a
 * hook's `token`): never tool inputs, since what a model types ends up in its context and its logs. The server's
 * operator supplies them (`secrets` of the options; `--secret NAME=ENV_VAR` or `--secret-file NAME=FILE` of the
 * command), the server puts them in the body after the model's arguments, and every answer is redacted of them.
 */
import type { Issue, ToolEntry } from './tool-entry.ts';
import { toolTable } from './tools.ts';

/**
 * What the operator supplies: `path` (`secret_access_key`, `configuration.access_token`) for every tool whose body
 * has that credential, or `tool:path` (`groups_update_hook:token`) for one tool, which wins over `path`.
 */
export type OperatorSecrets = Readonly<Record<string, string>>;

/** Every credential path of the document's bodies, and the tools that have it. */
export function secretFields(): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (const tool of toolTable)
    for (const path of tool.secrets ?? []) fields.set(path, [...(fields.get(path) ?? []), tool.name]);
  return fields;
}

/** Refuses a name that is no tool's credential, and an empty value (the message never holds a value). */
export function checkSecrets(secrets: OperatorSecrets): void {
  const fields = secretFields();
  for (const [name, value] of Object.entries(secrets)) {
    const [tool, path] = name.includes(':') ? (name.split(':', 2) as [string, string]) : [undefined, name];
    const tools = fields.get(path);
    if (!tools || (tool !== undefined && !tools.includes(tool)))
      throw new Error(
        `--secret ${name}: not a credential of ${tool ?? 'any tool'}'s body; the credentials are ${[...fields.keys()].join(', ')}` +
          ' (a name alone, or tool:name for one tool)',
      );
    if (typeof value !== 'string' || value.length === 0) throw new Error(`--secret ${name}: the value is empty`);
  }
}

/** The operator's value for one credential of one tool. */
function supplied(entry: ToolEntry, path: string, secrets: OperatorSecrets): string | undefined {
  return Object.hasOwn(secrets, `${entry.name}:${path}`) ? secrets[`${entry.name}:${path}`] : secrets[path];
}

/** The value at a dotted path of the arguments, when there is one. */
function valueAt(args: Record<string, unknown>, segments: string[]): unknown {
  let current: unknown = args;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** Sets a dotted path, copying the objects on the way; false when a parent object is missing. */
function setAt(body: Record<string, unknown>, segments: string[], value: string): boolean {
  let parent = body;
  for (const segment of segments.slice(0, -1)) {
    const next = parent[segment];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) return false;
    parent[segment] = { ...(next as Record<string, unknown>) };
    parent = parent[segment] as Record<string, unknown>;
  }
  parent[segments.at(-1)!] = value;
  return true;
}

/**
 * Refuses a credential the model passed (naming it, never echoing it) and puts the operator's values in the body:
 * the objects on the way are copied, never the model's changed, and a missing parent object is left missing (its
 * own issue).
 */
export function applySecrets(
  entry: ToolEntry,
  args: Record<string, unknown>,
  body: Record<string, unknown>,
  secrets: OperatorSecrets,
  issues: Issue[],
): boolean {
  let added = false;
  for (const path of entry.secrets ?? []) {
    const segments = path.split('.');
    if (valueAt(args, segments) !== undefined)
      issues.push({
        path: segments,
        message: `${path} is a credential: never a tool argument; the server's operator supplies it (--secret)`,
      });
    const value = supplied(entry, path, secrets);
    if (value !== undefined && setAt(body, segments, value)) added = true;
  }
  return added;
}

/** A validator's issue about a credential the operator did not supply, said so (and how to supply it). */
export function secretIssue(entry: ToolEntry, issue: Issue, secrets: OperatorSecrets): Issue {
  const path = issue.path.join('.');
  if (!entry.secrets?.includes(path) || supplied(entry, path, secrets) !== undefined) return issue;
  return {
    path: issue.path,
    message: `${path} is a credential that the server's operator supplies, and none was configured: start the server with --secret ${path}=ENV_VAR (or --secret-file ${path}=FILE)`,
  };
}

/** The operator's values, for redaction. */
export function secretValues(secrets: OperatorSecrets): string[] {
  return Object.values(secrets).filter((value) => value.length > 0);
}
