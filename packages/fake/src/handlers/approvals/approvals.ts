/**
 * Project approval settings and rules. Settings: read by members (and readers of public projects), changed by
 * Maintainers; `selective_code_owner_removals` only while `reset_approvals_on_push` is off (400 otherwise, checked on
 * the resulting settings). Rules: listed, read, created (Maintainer) with their users and groups.
 */
import type { Handler, Handlers } from '@service-api/server';
import type { Principal } from '../../auth.ts';
import { FORBIDDEN, message, paginate, PROJECT_NOT_FOUND, readableProject, userBasic } from '../../common.ts';
import type { Store } from '../../store.ts';

const booleanDefaults = {
  reset_approvals_on_push: true,
  selective_code_owner_removals: false,
  disable_overriding_approvers_per_merge_request: false,
  merge_requests_author_approval: false,
  merge_requests_disable_committers_approval: false,
  require_password_to_approve: false,
};
const defaults = { approvals_before_merge: 0, ...booleanDefaults };

const settingsOf = (store: Store, projectId: number) =>
  ((store.data.approval_settings ??= {})[projectId] ??= { ...defaults });
const rules = (store: Store) => (store.data.approval_rules ??= []);
const record = (store: Store, rule: NonNullable<typeof store.data.approval_rules>[number]) => {
  const users = rule.user_ids.map((id) => userBasic(store, store.user(id))).filter((u) => u !== null);
  const groups = rule.group_ids
    .map((id) => store.group(id))
    .filter((g) => g !== undefined)
    .map((g) => ({ id: g.id, name: g.name, path: g.path, full_path: store.groupPath(g) }));
  const eligible = new Map(users.map((u) => [u.id, u]));
  for (const id of rule.group_ids)
    for (const m of store.group(id)?.members ?? []) {
      const u = userBasic(store, store.user(m.user_id));
      if (u) eligible.set(u.id, u);
    }
  return {
    id: rule.id,
    name: rule.name,
    rule_type: rule.rule_type as 'regular',
    eligible_approvers: [...eligible.values()],
    approvals_required: rule.approvals_required,
    users,
    groups,
    contains_hidden_groups: false,
    applies_to_all_protected_branches: rule.applies_to_all_protected_branches,
    protected_branches: [],
    usernames: users.map((u) => u.username),
  };
};

const getProjectApprovalSettings =
  (store: Store): Handler<'approvals/get-project-approval-settings', Principal> =>
  ({ params }, { principal }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    return { status: 200, body: { approvers: [], approver_groups: [], ...settingsOf(store, project.id) } };
  };

const updateProjectApprovalSettings =
  (store: Store): Handler<'approvals/update-project-approval-settings', Principal> =>
  ({ params, body }, { principal }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    if (!store.hasAccess(project, principal.user, 40)) return FORBIDDEN;
    const next = { ...settingsOf(store, project.id) };
    for (const key of Object.keys(booleanDefaults) as (keyof typeof booleanDefaults)[])
      if (typeof body?.[key] === 'boolean') next[key] = body[key];
    if (typeof body?.approvals_before_merge === 'number') next.approvals_before_merge = body.approvals_before_merge;
    if (next.selective_code_owner_removals && next.reset_approvals_on_push) {
      return {
        status: 400,
        body: {
          message:
            '400 Bad request - selective_code_owner_removals can only be enabled when reset_approvals_on_push is disabled',
          errors: [
            {
              in: 'body',
              field: 'selective_code_owner_removals',
              problem: 'requires reset_approvals_on_push to be disabled',
            },
          ],
        },
      };
    }
    (store.data.approval_settings ??= {})[project.id] = next;
    store.now(true);
    return { status: 201, body: { ...next } };
  };

const listProjectApprovalRules =
  (store: Store): Handler<'approvals/list-project-approval-rules', Principal> =>
  ({ params, query }, { principal, request }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const page = paginate(
      rules(store).filter((r) => r.project_id === project.id),
      query,
      request,
    );
    return { status: 200, body: page.items.map((item) => record(store, item)), headers: page.headers };
  };

const getProjectApprovalRule =
  (store: Store): Handler<'approvals/get-project-approval-rule', Principal> =>
  ({ params }, { principal }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const rule = rules(store).find((r) => r.project_id === project.id && r.id === params.approval_rule_id);
    return rule ? { status: 200, body: record(store, rule) } : { status: 404, body: message('404 Not found') };
  };

const createProjectApprovalRule =
  (store: Store): Handler<'approvals/create-project-approval-rule', Principal> =>
  ({ params, body }, { principal }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    if (!store.hasAccess(project, principal.user, 40)) return FORBIDDEN;
    const byName = (body.usernames ?? [])
      .map((n) => store.findUser(n)?.id)
      .filter((id): id is number => id !== undefined);
    const rule = {
      id: store.nextId('approval_rules', rules(store)),
      project_id: project.id,
      name: body.name,
      rule_type: body.rule_type ?? 'regular',
      approvals_required: body.approvals_required,
      user_ids: [...new Set([...(body.user_ids ?? []), ...byName])].filter((id) => store.user(id)),
      group_ids: (body.group_ids ?? []).filter((id) => store.group(id)),
      applies_to_all_protected_branches: body.applies_to_all_protected_branches === true,
    };
    rules(store).push(rule);
    store.now(true);
    return { status: 201, body: record(store, rule) };
  };

export function approvalHandlers(store: Store): Handlers<Principal> {
  return {
    'approvals/get-project-approval-settings': getProjectApprovalSettings(store),
    'approvals/update-project-approval-settings': updateProjectApprovalSettings(store),
    'approvals/list-project-approval-rules': listProjectApprovalRules(store),
    'approvals/get-project-approval-rule': getProjectApprovalRule(store),
    'approvals/create-project-approval-rule': createProjectApprovalRule(store),
  };
}
