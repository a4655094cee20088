/**
 * Group approval rules: listed, created and changed by the group's administrators (Owner or instance administrator;
 * 403 for other readers of the group, 404 for those who cannot see it). Users and groups that do not exist are left
 * out of a rule; eligible approvers are its users plus the members of its groups.
 */
import type { Handler, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import { FORBIDDEN, message, paginate, userBasic } from '../../common.ts';
import type { Store } from '../../store.ts';
import { GROUP_NOT_FOUND, groupLevel, readableGroup } from '../group-access.ts';

type Rule = NonNullable<Store['data']['group_approval_rules']>[number];

const rules = (store: Store) => (store.data.group_approval_rules ??= []);
const existingUsers = (store: Store, ids: number[]) => [...new Set(ids)].filter((id) => store.user(id));
const existingGroups = (store: Store, ids: number[]) => [...new Set(ids)].filter((id) => store.group(id));

const record = (store: Store, rule: Rule) => {
  const users = rule.user_ids.map((id) => userBasic(store, store.user(id))).filter((u) => u !== null);
  const groups = rule.group_ids
    .map((id) => store.group(id))
    .filter((g) => g !== undefined)
    .map((g) => ({ id: g.id, name: g.name, path: g.path, full_path: store.groupPath(g) }));
  const eligible = new Map(users.map((u) => [u.id, u]));
  for (const id of rule.group_ids) {
    for (const m of store.group(id)?.members ?? []) {
      const u = userBasic(store, store.user(m.user_id));
      if (u) eligible.set(u.id, u);
    }
  }
  return {
    id: rule.id,
    name: rule.name,
    rule_type: rule.rule_type,
    eligible_approvers: [...eligible.values()],
    approvals_required: rule.approvals_required,
    users,
    groups,
    contains_hidden_groups: false,
    applies_to_all_protected_branches: true,
    protected_branches: [],
  };
};

/** The group when the caller administers it, else the refusal. */
const administered = (store: Store, id: string | number, principal: Principal | undefined) => {
  const group = readableGroup(store, id, principal);
  if (!group) return GROUP_NOT_FOUND;
  return groupLevel(store, group, principal) >= 50 ? group : FORBIDDEN;
};

const listGroupApprovalRules =
  (store: Store): Handler<'approvals/list-group-approval-rules', Principal> =>
  ({ params, query }, { principal, request }) => {
    const group = administered(store, params.id, principal);
    if ('status' in group) return group;
    const page = paginate(
      rules(store).filter((r) => r.group_id === group.id),
      query,
      request,
    );
    return { status: 200, body: page.items.map((item) => record(store, item)), headers: page.headers };
  };

const createGroupApprovalRule =
  (store: Store): Handler<'approvals/create-group-approval-rule', Principal> =>
  ({ params, body }, { principal }) => {
    const group = administered(store, params.id, principal);
    if ('status' in group) return group;
    const rule: Rule = {
      id: store.nextId('group_approval_rules', rules(store)),
      group_id: group.id,
      name: body.name,
      rule_type: body.rule_type ?? 'regular',
      approvals_required: body.approvals_required,
      user_ids: existingUsers(store, body.user_ids ?? []),
      group_ids: existingGroups(store, body.group_ids ?? []),
    };
    rules(store).push(rule);
    store.now(true);
    return { status: 201, body: record(store, rule) };
  };

const updateGroupApprovalRule =
  (store: Store): Handler<'approvals/update-group-approval-rule', Principal> =>
  ({ params, body }, { principal }) => {
    const group = administered(store, params.id, principal);
    if ('status' in group) return group;
    const rule = rules(store).find((r) => r.group_id === group.id && r.id === params.approval_rule_id);
    if (!rule) return { status: 404, body: message('404 Not found') };
    if (body?.name !== undefined) rule.name = body.name;
    if (body?.rule_type !== undefined) rule.rule_type = body.rule_type;
    if (body?.approvals_required !== undefined) rule.approvals_required = body.approvals_required;
    if (body?.user_ids !== undefined) rule.user_ids = existingUsers(store, body.user_ids);
    if (body?.group_ids !== undefined) rule.group_ids = existingGroups(store, body.group_ids);
    store.now(true);
    return { status: 200, body: record(store, rule) };
  };

export function groupApprovalHandlers(store: Store): Handlers<Principal> {
  return {
    'approvals/list-group-approval-rules': listGroupApprovalRules(store),
    'approvals/create-group-approval-rule': createGroupApprovalRule(store),
    'approvals/update-group-approval-rule': updateGroupApprovalRule(store),
  };
}
