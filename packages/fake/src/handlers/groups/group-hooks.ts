/**
 * Group hooks (update, delete) and the group push rule (get, create, update), for the group's owners and
 * administrators. The hook's secret `token` is never returned and is cleared when `url` changes without a new one.
 */
import type { GroupHook, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import type { FakeGroupHook, FakeGroupPushRule } from '../../data.ts';
import { message } from '../../common.ts';
import type { Store } from '../../store.ts';
import { ownedGroup } from '../group-access.ts';

const HOOK_NOT_FOUND = { status: 404 as const, body: message('404 Hook Not Found') };
const PUSH_RULE_NOT_FOUND = { status: 404 as const, body: message('404 Push Rule Not Found') };
const PUSH_RULE_EXISTS = {
  status: 409 as const,
  body: message('409 Conflict - the group already has a push rule: update it'),
};

type RuleFields = Omit<FakeGroupPushRule, 'id' | 'group_id' | 'created_at'>;
const BOOLEAN_RULES = [
  'deny_delete_tag',
  'member_check',
  'prevent_secrets',
  'commit_committer_name_check',
  'commit_committer_check',
  'reject_unsigned_commits',
] as const;
const REGEX_RULES = [
  'commit_message_regex',
  'commit_message_negative_regex',
  'branch_name_regex',
  'author_email_regex',
  'file_name_regex',
] as const;
const NEW_RULE: RuleFields = {
  commit_committer_check: false,
  commit_committer_name_check: false,
  reject_unsigned_commits: false,
  commit_message_regex: null,
  commit_message_negative_regex: null,
  branch_name_regex: null,
  deny_delete_tag: false,
  member_check: false,
  prevent_secrets: false,
  author_email_regex: null,
  file_name_regex: null,
  max_file_size: 0,
};
const FLAGS: Record<string, boolean> = { true: true, false: false, True: true, False: false, '1': true, '0': false };

/**
 * The push rule attributes of a body, checked: the update's body is open past `member_check` (its further attributes
 * arrive as sent), so types are checked here. Returns the problems instead when any is malformed.
 */
function ruleChanges(body: Record<string, unknown>): { changes: Partial<RuleFields>; problems: string[] } {
  const changes: Partial<RuleFields> = {};
  const problems: string[] = [];
  for (const key of BOOLEAN_RULES) {
    const value = body[key];
    if (value === undefined) continue;
    const flag =
      typeof value === 'boolean'
        ? value
        : typeof value === 'string' && Object.hasOwn(FLAGS, value)
          ? FLAGS[value]
          : undefined;
    if (flag === undefined) problems.push(`${key} is invalid`);
    else changes[key] = flag;
  }
  for (const key of REGEX_RULES) {
    const value = body[key];
    if (value === undefined) continue;
    if (value !== null && typeof value !== 'string') problems.push(`${key} is invalid`);
    else changes[key] = value === '' ? null : value;
  }
  const size = body.max_file_size;
  if (size !== undefined) {
    const number =
      typeof size === 'number' ? size : typeof size === 'string' && /^\d{1,9}$/.test(size) ? Number(size) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < 0) problems.push('max_file_size is invalid');
    else changes.max_file_size = number;
  }
  return { changes, problems };
}

export function groupHookHandlers(store: Store): Handlers<Principal> {
  const hooks = () => (store.data.group_hooks ??= []);
  const rules = () => (store.data.group_push_rules ??= []);

  /**
   * The hook record: every attribute as last set, never the secret token. The attributes come from the update's body,
   * whose fields have the record's types; the store keeps them under an index signature, hence the annotation.
   */
  const hookRecord = (hook: FakeGroupHook): GroupHook => {
    const { token: _secret, ...shown } = hook;
    return shown as GroupHook;
  };
  const ruleRecord = ({ group_id: _group, ...rule }: FakeGroupPushRule) => rule;

  return {
    'groups/update-hook': ({ params, body }, { principal }) => {
      const { group, refused } = ownedGroup(store, params.id, principal);
      if (refused) return refused;
      const hook = hooks().find((h) => h.group_id === group.id && h.id === params.hook_id);
      if (!hook) return HOOK_NOT_FOUND;
      const { token, url, ...attributes } = body;
      if (url !== hook.url) hook.token = null;
      if (token !== undefined) hook.token = token;
      Object.assign(hook, attributes, { url });
      store.now(true);
      return { status: 200, body: hookRecord(hook) };
    },
    'groups/delete-hook': ({ params }, { principal }) => {
      const { group, refused } = ownedGroup(store, params.id, principal);
      if (refused) return refused;
      const at = hooks().findIndex((h) => h.group_id === group.id && h.id === params.hook_id);
      if (at < 0) return HOOK_NOT_FOUND;
      hooks().splice(at, 1);
      store.now(true);
      return { status: 204 };
    },
    'groups/get-push-rule': ({ params }, { principal }) => {
      const { group, refused } = ownedGroup(store, params.id, principal);
      if (refused) return refused;
      const rule = rules().find((r) => r.group_id === group.id);
      return rule ? { status: 200, body: ruleRecord(rule) } : PUSH_RULE_NOT_FOUND;
    },
    'groups/create-push-rule': ({ params, body }, { principal }) => {
      const { group, refused } = ownedGroup(store, params.id, principal);
      if (refused) return refused;
      if (rules().some((r) => r.group_id === group.id)) return PUSH_RULE_EXISTS;
      const { changes, problems } = ruleChanges(body ?? {});
      if (problems.length > 0) return { status: 400, body: message(`400 Bad request - ${problems.join(', ')}`) };
      const rule: FakeGroupPushRule = {
        id: store.nextId('group_push_rules', rules()),
        group_id: group.id,
        created_at: store.now(true),
        ...NEW_RULE,
        ...changes,
      };
      rules().push(rule);
      return { status: 201, body: ruleRecord(rule) };
    },
    'groups/update-push-rule': ({ params, body }, { principal }) => {
      const { group, refused } = ownedGroup(store, params.id, principal);
      if (refused) return refused;
      const rule = rules().find((r) => r.group_id === group.id);
      if (!rule) return PUSH_RULE_NOT_FOUND;
      const { changes, problems } = ruleChanges((body ?? {}) as Record<string, unknown>);
      if (problems.length > 0) return { status: 400, body: message(`400 Bad request - ${problems.join(', ')}`) };
      Object.assign(rule, changes);
      store.now(true);
      return { status: 200, body: ruleRecord(rule) };
    },
  };
}
