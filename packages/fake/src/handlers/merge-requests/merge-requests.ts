/** Merge requests: list (filters, view=simple, pagination), create, update with the state table, merge, delete. */
import type { HandlerInput, Handler, Handlers } from '@service-api/server';
import { perStore } from '../../common.ts';
import type { Principal } from '../../auth.ts';
import type { FakeMergeRequest, FakeUser } from '../../data.ts';
import {
  FORBIDDEN,
  message,
  paginate,
  perRevision,
  PROJECT_NOT_FOUND,
  readableProject,
  userBasic,
  webBase,
} from '../../common.ts';
import { keyed, type Project, type Store } from '../../store.ts';
import { entryOf, treeEntries } from '../../tree.ts';
import { parameterTables, twinQuery } from '../parameters.ts';

type Filters = Record<string, unknown>;
/** Whether a merge request passes one group of a list's filters. */
type MergeRequestTest = (mr: FakeMergeRequest) => boolean;
type UpdateBody = NonNullable<HandlerInput<'merge-requests/update-merge-request'>['body']>;

const mrNotFound = { status: 404 as const, body: message('404 Not found') };
/** Another open merge request has the same source and target branch. */
const CONFLICT = { status: 409 as const, body: message('409 Conflict - a conflicting resource exists') };

const sourceHead = (store: Store, mr: FakeMergeRequest): string | null => {
  const project = store.project(mr.project_id);
  return project?.repository.branches[mr.source_branch] ?? mr.sha ?? null;
};

// A record is derived from the state: built once per revision and reused by every read until the next write.
const recordOf = perStore((store: Store) =>
  perRevision(store, (mr: FakeMergeRequest) => {
    const project = store.project(mr.project_id)!;
    const path = store.projectPath(project);
    const user = (id: number | null | undefined) => (id == null ? null : userBasic(store, store.user(id)));
    const users = (ids: number[] | undefined) =>
      (ids ?? []).map((id) => userBasic(store, store.user(id))).filter((u) => u !== null);
    const sha = sourceHead(store, mr);
    const targetHead = project.repository.branches[mr.target_branch] ?? null;
    const draft = mr.draft === true;
    // A data set may give a closed or merged merge request without the effects of closing or merging: the record
    // still carries them (the state table's rules), dated by the last update and merged by the author.
    const settledAt = mr.updated_at ?? mr.created_at ?? store.now();
    const mergeUserId = mr.merge_user_id ?? (mr.state === 'merged' ? mr.author_id : null);
    return {
      id: mr.id,
      iid: mr.iid,
      project_id: mr.project_id,
      title: mr.title,
      description: mr.description ?? null,
      state: mr.state,
      imported: false,
      imported_from: 'none',
      created_at: mr.created_at ?? null,
      updated_at: mr.updated_at ?? null,
      merged_by: user(mergeUserId),
      merge_user: user(mergeUserId),
      merged_at: mr.merged_at ?? (mr.state === 'merged' ? settledAt : null),
      prepared_at: mr.created_at ?? null,
      closed_by: user(mr.closed_by_id),
      closed_at: mr.closed_at ?? (mr.state === 'closed' ? settledAt : null),
      target_branch: mr.target_branch,
      source_branch: mr.source_branch,
      source_project_id: mr.project_id,
      target_project_id: mr.project_id,
      author: userBasic(store, store.user(mr.author_id))!,
      assignee: users(mr.assignee_ids)[0] ?? null,
      assignees: users(mr.assignee_ids),
      reviewers: users(mr.reviewer_ids),
      upvotes: 0,
      downvotes: 0,
      user_notes_count: 0,
      labels: [...(mr.labels ?? [])],
      draft,
      work_in_progress: draft,
      milestone: milestoneRecord(store, mr.milestone_id),
      merge_when_pipeline_succeeds: mr.merge_when_pipeline_succeeds === true,
      merge_status: mr.state !== 'opened' ? 'unchecked' : mr.has_conflicts ? 'cannot_be_merged' : 'can_be_merged',
      detailed_merge_status:
        mr.state !== 'opened' ? 'not_open' : mr.has_conflicts ? 'conflict' : draft ? 'draft_status' : 'mergeable',
      merge_error: null,
      sha,
      merge_commit_sha: mr.merge_commit_sha ?? null,
      squash_commit_sha: mr.squash_commit_sha ?? null,
      discussion_locked: mr.discussion_locked ?? null,
      should_remove_source_branch: mr.should_remove_source_branch === true,
      force_remove_source_branch: mr.should_remove_source_branch === true,
      allow_collaboration: mr.allow_collaboration === true,
      allow_maintainer_to_push: mr.allow_collaboration === true,
      web_url: `${webBase(store)}/${path}/-/merge_requests/${mr.iid}`,
      references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${path}!${mr.iid}` },
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      squash: mr.squash === true,
      subscribed: false,
      changes_count: '1',
      latest_build_started_at: null,
      latest_build_finished_at: null,
      first_deployed_to_production_at: null,
      pipeline: null,
      diff_refs: { base_sha: targetHead, head_sha: sha, start_sha: targetHead },
      diverged_commits_count: 0,
      task_completion_status: { count: 0, completed_count: 0 },
    };
  }),
);

const milestoneOf = (store: Store, id: number | null | undefined) =>
  id == null ? undefined : (store.data.milestones ?? []).find((m) => m.id === id);
function milestoneRecord(store: Store, id: number | null | undefined) {
  const milestone = milestoneOf(store, id);
  if (!milestone) return null;
  const project = store.project(milestone.project_id);
  return {
    id: milestone.id,
    iid: milestone.iid,
    project_id: milestone.project_id,
    title: milestone.title,
    description: milestone.description ?? null,
    state: milestone.state,
    created_at: milestone.created_at,
    updated_at: milestone.created_at,
    due_date: milestone.due_date ?? null,
    start_date: milestone.start_date ?? null,
    web_url: `${webBase(store)}/${project ? store.projectPath(project) : ''}/-/milestones/${milestone.iid}`,
  };
}
/** `milestone_id` of a write: 0 or empty clears it; an id of another project's or no milestone changes nothing. */
const milestoneIdOf = (store: Store, project: Project, value: unknown, current: number | null | undefined) => {
  if (value === undefined) return current;
  if (value === 0 || value === '' || value === null) return null;
  const milestone = milestoneOf(store, Number(value));
  return milestone && milestone.project_id === project.id ? milestone.id : current;
};

/** The Service's colour for a label created on the fly (by a merge request naming it). */
const DEFAULT_LABEL_COLOR = '#6699cc';
/** A record with its labels as label objects (`with_labels_details=true`). */
const withLabelDetails = (store: Store, mr: FakeMergeRequest, full: ReturnType<ReturnType<typeof recordOf>>) => ({
  ...full,
  labels: full.labels.map((name) => {
    const label = (store.data.labels ?? []).find((l) => l.project_id === mr.project_id && l.name === name);
    const color = label?.color ?? DEFAULT_LABEL_COLOR;
    const description = label?.description ?? null;
    return {
      name,
      color,
      description,
      description_html: description === null ? null : `<p dir="auto">${escapeHtml(description)}</p>`,
      text_color: textColor(color),
    };
  }),
});

const simple = (store: Store, mr: FakeMergeRequest) => {
  const full = recordOf(store)(mr);
  return {
    id: full.id,
    iid: full.iid,
    project_id: full.project_id,
    title: full.title,
    description: full.description,
    state: full.state,
    created_at: full.created_at,
    updated_at: full.updated_at,
    web_url: full.web_url,
  };
};

const userMatch = (value: unknown, ids: number[]): boolean => {
  if (value === undefined) return true;
  const text = String(value);
  if (text.toLowerCase() === 'none') return ids.length === 0;
  if (text.toLowerCase() === 'any') return ids.length > 0;
  return ids.includes(Number(text));
};
const byName = (store: Store, name: unknown): number | undefined =>
  name === undefined ? undefined : (store.findUser(String(name))?.id ?? -1);
/** `None`, `Any`, or ids that must all be among `ids` (`every`) or one of them. */
const idsMatch = (value: unknown, ids: number[], every: boolean): boolean => {
  if (value === undefined) return true;
  const given = (Array.isArray(value) ? value : [value]).map(String);
  if (given.length === 1 && given[0]!.toLowerCase() === 'none') return ids.length === 0;
  if (given.length === 1 && given[0]!.toLowerCase() === 'any') return ids.length > 0;
  const wanted = given.flatMap((v) => v.split(',')).map(Number);
  return every ? wanted.every((id) => ids.includes(id)) : wanted.some((id) => ids.includes(id));
};
/** A milestone title: `None` (no milestone), `Any` (some milestone) or the title. */
const titleMatch = (value: string, title: string | undefined): boolean =>
  value.toLowerCase() === 'none'
    ? title === undefined
    : value.toLowerCase() === 'any'
      ? title !== undefined
      : title === value;
/** The caller's reactions: `None`, `Any` or one emoji name. */
const emojiMatch = (value: unknown, mine: string[]): boolean => {
  if (value === undefined) return true;
  const text = String(value);
  if (text.toLowerCase() === 'none') return mine.length === 0;
  if (text.toLowerCase() === 'any') return mine.length > 0;
  return mine.includes(text);
};
/** Eligible approvers: the merge request's own and those of its project's approval rules. */
const approvers = (store: Store, mr: FakeMergeRequest): number[] => [
  ...(mr.approver_ids ?? []),
  ...(store.data.approval_rules ?? []).filter((r) => r.project_id === mr.project_id).flatMap((r) => r.user_ids),
];

/** A 400 that names the body field at fault. */
const refusal = (message: string, field: string, problem: string) => ({
  status: 400 as const,
  body: { message: `400 Bad request - ${message}`, errors: [{ in: 'body' as const, field, problem }] },
});

/** `state_event`: close an open or locked merge request, reopen a closed one; the same state again changes nothing. */
const changeState = (store: Store, mr: FakeMergeRequest, event: UpdateBody['state_event'], userId: number) => {
  if (event === 'close' && mr.state !== 'closed') {
    if (mr.state !== 'opened' && mr.state !== 'locked')
      return refusal(`Cannot close a ${mr.state} merge request`, 'state_event', `the merge request is ${mr.state}`);
    mr.state = 'closed';
    mr.closed_by_id = userId;
    mr.closed_at = store.now(true);
  } else if (event === 'reopen' && mr.state !== 'opened') {
    if (mr.state !== 'closed')
      return refusal(`Cannot reopen a ${mr.state} merge request`, 'state_event', `the merge request is ${mr.state}`);
    mr.state = 'opened';
  }
  return undefined;
};

/** The title (a draft by its prefix), description, milestone and target branch (one that exists). */
const editTitleAndTarget = (store: Store, project: Project, mr: FakeMergeRequest, body: UpdateBody) => {
  if (body.title !== undefined) {
    mr.title = body.title;
    mr.draft = /^(draft:|\[draft\]|\(draft\))/i.test(body.title);
  }
  if (body.description !== undefined) mr.description = body.description;
  mr.milestone_id = milestoneIdOf(store, project, body.milestone_id, mr.milestone_id);
  if (body.target_branch === undefined) return undefined;
  if (!project.repository.branches[body.target_branch])
    return refusal(`Target branch '${body.target_branch}' does not exist`, 'target_branch', 'does not exist');
  mr.target_branch = body.target_branch;
  return undefined;
};

/** Labels (`labels`, `add_labels`, `remove_labels`: comma-separated), assignees and reviewers (known users only). */
const editLabelsAndPeople = (store: Store, mr: FakeMergeRequest, body: UpdateBody) => {
  const split = (text: string) =>
    text
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean);
  if (body.labels !== undefined) mr.labels = split(body.labels);
  if (body.add_labels !== undefined) mr.labels = [...new Set([...(mr.labels ?? []), ...split(body.add_labels)])];
  if (body.remove_labels !== undefined) {
    const removed = split(body.remove_labels).map((l) => l.toLowerCase());
    mr.labels = (mr.labels ?? []).filter((l) => !removed.includes(l.toLowerCase()));
  }
  const known = (ids: unknown) =>
    (Array.isArray(ids) ? (ids as number[]) : []).filter((id) => id !== 0 && store.user(id));
  if (body.assignee_ids !== undefined) mr.assignee_ids = known(body.assignee_ids);
  else if (body.assignee_id !== undefined) mr.assignee_ids = body.assignee_id === 0 ? [] : [body.assignee_id];
  if (body.reviewer_ids !== undefined) mr.reviewer_ids = known(body.reviewer_ids);
};

/** The merge options: squash, remove the source branch, lock the discussion, allow collaboration (or its old name). */
const editFlags = (mr: FakeMergeRequest, body: UpdateBody) => {
  if (body.squash !== undefined) mr.squash = body.squash;
  if (body.remove_source_branch !== undefined) mr.should_remove_source_branch = body.remove_source_branch;
  if (body.discussion_locked !== undefined) mr.discussion_locked = body.discussion_locked;
  if (body.allow_collaboration !== undefined) mr.allow_collaboration = body.allow_collaboration;
  if (body.allow_maintainer_to_push !== undefined) mr.allow_collaboration = body.allow_maintainer_to_push;
};

/** `state`, and `labels` (`None`, `Any` or every one of a list) with `not[labels]`. */
const stateAndLabels = (f: Filters): MergeRequestTest => {
  const labels = typeof f.labels === 'string' ? f.labels : undefined;
  const names = (list: string) => list.split(',').map((l) => l.trim().toLowerCase());
  const wanted = labels === undefined ? [] : names(labels).filter(Boolean);
  const notLabels = typeof f['not[labels]'] === 'string' ? names(f['not[labels]']) : [];
  const byLabels = labels !== undefined || notLabels.length > 0;
  return (mr) => {
    if (f.state !== undefined && f.state !== 'all' && mr.state !== f.state) return false;
    const mrLabels = byLabels ? (mr.labels ?? []).map((l) => l.toLowerCase()) : [];
    if (labels !== undefined) {
      const kind = labels.toLowerCase();
      const passes =
        kind === 'none'
          ? mrLabels.length === 0
          : kind === 'any'
            ? mrLabels.length > 0
            : wanted.every((l) => mrLabels.includes(l));
      if (!passes) return false;
    }
    return !notLabels.some((l) => mrLabels.includes(l));
  };
};

/** The author, assignees, reviewers and merge user, by id or username, and their `not[…]`. */
const people = (store: Store, f: Filters): MergeRequestTest => {
  const authorId = f.author_id !== undefined ? Number(f.author_id) : byName(store, f.author_username);
  const notAuthor =
    f['not[author_id]'] !== undefined ? Number(f['not[author_id]']) : byName(store, f['not[author_username]']);
  const mergeUserId = f.merge_user_id !== undefined ? Number(f.merge_user_id) : byName(store, f.merge_user_username);
  const notAssignee = byName(store, f['not[assignee_username]']);
  const notReviewer = byName(store, f['not[reviewer_username]']);
  return (mr) => {
    const assignees = mr.assignee_ids ?? [];
    const reviewers = mr.reviewer_ids ?? [];
    if (authorId !== undefined && mr.author_id !== authorId) return false;
    if (notAuthor !== undefined && mr.author_id === notAuthor) return false;
    if (!userMatch(f.assignee_id, assignees)) return false;
    if (f['not[assignee_id]'] !== undefined && assignees.includes(Number(f['not[assignee_id]']))) return false;
    if (notAssignee !== undefined && assignees.includes(notAssignee)) return false;
    if (!userMatch(f.reviewer_id, reviewers)) return false;
    if (f.reviewer_username !== undefined && !reviewers.includes(byName(store, f.reviewer_username)!)) return false;
    if (f['not[reviewer_id]'] !== undefined && reviewers.includes(Number(f['not[reviewer_id]']))) return false;
    if (notReviewer !== undefined && reviewers.includes(notReviewer)) return false;
    const mergeUser = mr.merge_user_id ?? (mr.state === 'merged' ? mr.author_id : null);
    return mergeUserId === undefined || mergeUser === mergeUserId;
  };
};

/** The branches, draft (`wip`), `iids[]`, and `search` `in` the title or description. */
const content = (f: Filters): MergeRequestTest => {
  const iids = Array.isArray(f['iids[]']) ? (f['iids[]'] as unknown[]).map(Number) : undefined;
  const search = typeof f.search === 'string' ? f.search.toLowerCase() : undefined;
  const within = typeof f.in === 'string' ? f.in.split(',') : ['title', 'description'];
  const text = (mr: FakeMergeRequest, field: string) =>
    field === 'title' ? mr.title : field === 'description' ? (mr.description ?? '') : '';
  return (mr) => {
    if (f.source_branch !== undefined && mr.source_branch !== f.source_branch) return false;
    if (f.target_branch !== undefined && mr.target_branch !== f.target_branch) return false;
    if (f.wip === 'yes' && mr.draft !== true) return false;
    if (f.wip === 'no' && mr.draft === true) return false;
    if (iids && !iids.includes(mr.iid)) return false;
    return !search || within.some((field) => text(mr, field).toLowerCase().includes(search));
  };
};

/** `created_after`/`_before`, `updated_after`/`_before`, and deployments (`environment`, `deployed_after`/`_before`). */
const dates = (f: Filters): MergeRequestTest => {
  const time = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : undefined);
  const [createdAfter, createdBefore] = [time(f.created_after), time(f.created_before)];
  const [updatedAfter, updatedBefore] = [time(f.updated_after), time(f.updated_before)];
  const [deployedAfter, deployedBefore] = [time(f.deployed_after), time(f.deployed_before)];
  const byDeployment = f.environment !== undefined || deployedAfter !== undefined || deployedBefore !== undefined;
  // Bounds included; a record without the date passes only when no bound is set.
  const between = (t: number, after?: number, before?: number) =>
    (after === undefined || t >= after) && (before === undefined || t <= before);
  const deployedWithin = (d: { environment: string; deployed_at: string }) =>
    (f.environment === undefined || d.environment === f.environment) &&
    (deployedAfter === undefined || Date.parse(d.deployed_at) > deployedAfter) &&
    (deployedBefore === undefined || Date.parse(d.deployed_at) < deployedBefore);
  return (mr) =>
    between(Date.parse(mr.created_at ?? ''), createdAfter, createdBefore) &&
    between(Date.parse(mr.updated_at ?? ''), updatedAfter, updatedBefore) &&
    (!byDeployment || (mr.deployments ?? []).some(deployedWithin));
};

/** The milestone and its `not[milestone]`, and approvals (`approved_by_ids`, `approver_ids`, `approved`). */
const milestoneAndApprovals =
  (store: Store, f: Filters): MergeRequestTest =>
  (mr) => {
    const milestone = milestoneOf(store, mr.milestone_id)?.title;
    if (typeof f.milestone === 'string' && !titleMatch(f.milestone, milestone)) return false;
    if (typeof f['not[milestone]'] === 'string' && titleMatch(f['not[milestone]'], milestone)) return false;
    const approvedBy = mr.approved_by_ids ?? [];
    if (!idsMatch(f['approved_by_ids[]'] ?? f.approved_by_ids, approvedBy, true)) return false;
    if (!idsMatch(f['approver_ids[]'] ?? f.approver_ids, approvers(store, mr), true)) return false;
    return f.approved === 'yes' ? approvedBy.length > 0 : f.approved === 'no' ? approvedBy.length === 0 : true;
  };

/** The caller's reactions (`my_reaction_emoji` and its `not[…]`) and `scope` (created by or assigned to the caller). */
const callerRelated =
  (f: Filters, caller: FakeUser | undefined): MergeRequestTest =>
  (mr) => {
    const mine = (mr.award_emoji ?? []).filter((a) => a.user_id === caller?.id).map((a) => a.name);
    if (!emojiMatch(f.my_reaction_emoji, mine)) return false;
    if (typeof f['not[my_reaction_emoji]'] === 'string' && emojiMatch(f['not[my_reaction_emoji]'], mine)) return false;
    if (f.scope === undefined || !caller) return true;
    if (f.scope === 'created_by_me') return mr.author_id === caller.id;
    if (f.scope === 'assigned_to_me') return (mr.assignee_ids ?? []).includes(caller.id);
    return true;
  };

/** The list filters of the seed (those that the fake's data can answer): a merge request is listed if it passes all. */
const filter = (
  store: Store,
  items: FakeMergeRequest[],
  f: Filters,
  caller: FakeUser | undefined,
): FakeMergeRequest[] => {
  const tests = [
    stateAndLabels(f),
    people(store, f),
    content(f),
    dates(f),
    milestoneAndApprovals(store, f),
    callerRelated(f, caller),
  ];
  return items.filter((mr) => tests.every((test) => test(mr)));
};

const sort = (items: FakeMergeRequest[], f: Filters): FakeMergeRequest[] => {
  const key = f.order_by === 'title' ? 'title' : f.order_by === 'updated_at' ? 'updated_at' : 'created_at';
  const direction = f.sort === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => {
    const x = String(a[key] ?? '');
    const y = String(b[key] ?? '');
    return (x < y ? -1 : x > y ? 1 : a.id - b.id) * direction;
  });
};

// Lists filtered and sorted since the last write, by caller and filters (every page of one list reuses them): a list
// that POSTs have grown is filtered and sorted once per write, not once per read. Bounded in number.
const listsOf = perStore(() => ({ at: -1, byKey: new Map<string, FakeMergeRequest[]>() }));
const MAX_LISTS = 64;
const listed = (
  store: Store,
  list: 'all' | number,
  caller: FakeUser | undefined,
  f: Filters,
  compute: () => FakeMergeRequest[],
): FakeMergeRequest[] => {
  const lists = listsOf(store);
  if (lists.at !== store.revision) {
    lists.byKey.clear();
    lists.at = store.revision;
  }
  const { page: _page, per_page: _perPage, ...rest } = f;
  const given = Object.entries(rest).filter(([, value]) => value !== undefined);
  const key = JSON.stringify([list, caller?.id ?? null, given.sort(([a], [b]) => (a < b ? -1 : 1))]);
  let items = lists.byKey.get(key);
  if (!items) {
    if (lists.byKey.size >= MAX_LISTS) lists.byKey.clear();
    items = compute();
    lists.byKey.set(key, items);
  }
  return items;
};

/** A page of a list: simple records, records, or records with label details. */
const body = (store: Store, items: FakeMergeRequest[], f: Filters) =>
  f.view === 'simple'
    ? items.map((item) => simple(store, item))
    : f.with_labels_details === true
      ? items.map((mr) => withLabelDetails(store, mr, recordOf(store)(mr)))
      : items.map(recordOf(store));

const findMr = (store: Store, project: Project, iid: number) =>
  store.data.merge_requests.find((m) => m.project_id === project.id && m.iid === iid);
const touch = (store: Store, mr: FakeMergeRequest) => {
  mr.updated_at = store.now(true);
};

const listMergeRequests =
  (store: Store): Handler<'merge-requests/list-merge-requests', Principal> =>
  ({ query }, { principal, request }) => {
    const filters: Filters = { scope: 'created_by_me', ...query };
    const items = listed(store, 'all', principal.user, filters, () => {
      const visible = store.data.merge_requests.filter((mr) => {
        const project = store.project(mr.project_id);
        return project !== undefined && store.canRead(project, principal.user);
      });
      return sort(filter(store, visible, filters, principal.user), filters);
    });
    const page = paginate(items, query, request);
    return {
      status: 200,
      body: body(store, page.items, filters),
      headers: page.headers,
    };
  };

const listProjectMergeRequests =
  (store: Store): Handler<'merge-requests/list-project-merge-requests', Principal> =>
  ({ params, query }, { principal, request }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    // The project list documents its parameters up to order_by, and view; the Service also reads state, sort and the
    // rest: they are applied as the global list validates them (its 400 for a bad value), never unchecked.
    const { twin, names } = parameterTables['merge-requests/list-project-merge-requests']!.undocumented!;
    const extra = twinQuery(request, twin, names);
    if (!('values' in extra)) return extra;
    const filters: Filters = { ...extra.values, ...query };
    const items = listed(store, project.id, principal.user, filters, () =>
      sort(
        filter(
          store,
          store.data.merge_requests.filter((m) => m.project_id === project.id),
          filters,
          principal.user,
        ),
        filters,
      ),
    );
    const page = paginate(items, query, request);
    return {
      status: 200,
      body: body(store, page.items, filters),
      headers: page.headers,
    };
  };

const createMergeRequest =
  (store: Store): Handler<'merge-requests/create-merge-request', Principal> =>
  ({ params, body }, { principal }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    if (!store.hasAccess(project, principal.user, 30)) return FORBIDDEN;
    const branches = project.repository.branches;
    if (!branches[body.source_branch])
      return {
        status: 400,
        body: {
          message: `400 Bad request - Source branch '${body.source_branch}' does not exist`,
          errors: [{ in: 'body', field: 'source_branch', problem: 'does not exist' }],
        },
      };
    if (!branches[body.target_branch])
      return {
        status: 400,
        body: {
          message: `400 Bad request - Target branch '${body.target_branch}' does not exist`,
          errors: [{ in: 'body', field: 'target_branch', problem: 'does not exist' }],
        },
      };
    if (body.source_branch === body.target_branch)
      return {
        status: 400,
        body: {
          message: "400 Bad request - You can't use same project/branch for source and target",
          errors: [{ in: 'body', field: 'target_branch', problem: 'equals source_branch' }],
        },
      };
    if (
      store
        .mergeRequestsFrom(project.id, body.source_branch)
        .some((m) => m.target_branch === body.target_branch && (m.state === 'opened' || m.state === 'locked'))
    )
      return CONFLICT;
    const ids = (value: number[] | number | undefined) =>
      (Array.isArray(value) ? value : []).filter((id) => id !== 0 && store.user(id));
    const now = store.now(true);
    const mr: FakeMergeRequest = {
      // Never the id or iid of a deleted one: the Service does not reuse them.
      id: store.nextId('merge_requests', store.data.merge_requests, 1001),
      iid: store.nextId(`merge_requests.iid.${project.id}`, () =>
        store.data.merge_requests.filter((m) => m.project_id === project.id).map((m) => ({ id: m.iid })),
      ),
      project_id: project.id,
      title: body.title,
      description: body.description ?? null,
      state: 'opened',
      author_id: principal.user.id,
      source_branch: body.source_branch,
      target_branch: body.target_branch,
      labels: body.labels
        ? body.labels
            .split(',')
            .map((l) => l.trim())
            .filter(Boolean)
        : [],
      draft: /^(draft:|\[draft\]|\(draft\))/i.test(body.title),
      assignee_ids: body.assignee_ids ? ids(body.assignee_ids) : body.assignee_id ? ids([body.assignee_id]) : [],
      reviewer_ids: ids(body.reviewer_ids),
      squash: body.squash === true,
      should_remove_source_branch: body.remove_source_branch === true,
      allow_collaboration: body.allow_collaboration === true || body.allow_maintainer_to_push === true,
      milestone_id: milestoneIdOf(store, project, body.milestone_id, null),
      created_at: now,
      updated_at: now,
    };
    store.data.merge_requests.push(mr);
    return { status: 201, body: recordOf(store)(mr) };
  };

const updateMergeRequest =
  (store: Store): Handler<'merge-requests/update-merge-request', Principal> =>
  ({ params, body }, { principal }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const mr = findMr(store, project, params.merge_request_iid);
    if (!mr) return mrNotFound;
    const given = Object.keys(body ?? {}).filter((k) => (body as Record<string, unknown>)[k] !== undefined);
    if (given.length === 0)
      return {
        status: 400,
        body: {
          message: '400 Bad request - at least one of the optional attributes must be given',
          errors: [{ in: 'body', field: '', problem: 'at least one attribute is required' }],
        },
      };
    if (!(mr.author_id === principal.user.id || store.hasAccess(project, principal.user, 30))) return FORBIDDEN;
    const before = JSON.stringify(mr);
    // Edits made before a refusal stay, as on the Service; only a change marks the merge request updated.
    const refused =
      changeState(store, mr, body.state_event, principal.user.id) ?? editTitleAndTarget(store, project, mr, body);
    if (refused) return refused;
    editLabelsAndPeople(store, mr, body);
    editFlags(mr, body);
    if (JSON.stringify(mr) !== before) touch(store, mr);
    return { status: 200, body: recordOf(store)(mr) };
  };

const deleteMergeRequest =
  (store: Store): Handler<'merge-requests/delete-merge-request', Principal> =>
  ({ params }, { principal }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const mr = findMr(store, project, params.merge_request_iid);
    if (!mr) return mrNotFound;
    if (!store.hasAccess(project, principal.user, 50)) return FORBIDDEN; // administrators and owners only
    store.keepIds('merge_requests', store.data.merge_requests, 1001);
    store.keepIds(`merge_requests.iid.${project.id}`, () =>
      store.data.merge_requests.filter((m) => m.project_id === project.id).map((m) => ({ id: m.iid })),
    );
    store.data.merge_requests.splice(store.data.merge_requests.indexOf(mr), 1);
    return { status: 204 };
  };

const merge =
  (store: Store): Handler<'merge-requests/merge', Principal> =>
  ({ params, body }, { principal }) => {
    const project = readableProject(store, params.id, principal);
    if (!project) return PROJECT_NOT_FOUND;
    const mr = findMr(store, project, params.merge_request_iid);
    if (!mr) return mrNotFound;
    if (!store.hasAccess(project, principal.user, 30)) return { status: 401, body: message('401 Unauthorized') };
    if (mr.state !== 'opened' || mr.draft === true || mr.has_conflicts === true)
      return { status: 405, body: message('405 Method Not Allowed') };
    const head = sourceHead(store, mr);
    if (body?.sha !== undefined && body.sha !== head)
      return { status: 409, body: { message: 'SHA does not match HEAD of source branch' } };
    if (body?.squash !== undefined) mr.squash = body.squash;
    if (body?.should_remove_source_branch !== undefined)
      mr.should_remove_source_branch = body.should_remove_source_branch;
    if (body?.merge_when_pipeline_succeeds === true) {
      // Stays opened until the pipeline succeeds; the fake runs no pipelines, so it stays opened.
      mr.merge_when_pipeline_succeeds = true;
      touch(store, mr);
      return { status: 200, body: { ...recordOf(store)(mr), state: 'opened' as const } };
    }
    const branches = project.repository.branches;
    const target = branches[mr.target_branch];
    const source = branches[mr.source_branch];
    if (!target) return { status: 422, body: { message: 'Branch cannot be merged' } };
    if (source) {
      const sourceCommit = store.findCommit(project, source)!;
      const targetCommit = store.findCommit(project, target)!;
      const changes = keyed<{ content: string; execute_filemode: boolean }>();
      for (const [path, entry] of treeEntries(sourceCommit.tree)) {
        if (entryOf(targetCommit.tree, path)?.blob_id !== entry.blob_id)
          changes[path] = {
            content: project.repository.blobs[entry.blob_id]!,
            execute_filemode: entry.execute_filemode,
          };
      }
      const author = principal.user;
      let parent = target;
      if (mr.squash) {
        const squashed = store.commit(project, {
          parent,
          message: body?.squash_commit_message ?? mr.title,
          author,
          changes,
        });
        mr.squash_commit_sha = squashed.id;
        parent = squashed.id;
      }
      const merged = store.commit(project, {
        parent,
        message: body?.merge_commit_message ?? `Merge branch '${mr.source_branch}' into '${mr.target_branch}'`,
        author,
        changes: mr.squash ? {} : changes,
        extraParents: mr.squash ? [] : [source],
      });
      branches[mr.target_branch] = merged.id;
      mr.merge_commit_sha = merged.id;
      mr.sha = source;
      if (mr.should_remove_source_branch) delete branches[mr.source_branch];
    } else {
      mr.merge_commit_sha = store.commit(project, {
        parent: target,
        message: `Merge branch '${mr.source_branch}' into '${mr.target_branch}'`,
        author: principal.user,
        changes: {},
      }).id;
      branches[mr.target_branch] = mr.merge_commit_sha;
    }
    mr.state = 'merged';
    mr.merge_user_id = principal.user.id;
    mr.merged_at = store.now(true);
    mr.updated_at = mr.merged_at;
    return { status: 200, body: { ...recordOf(store)(mr), state: 'merged' as const } };
  };

export function mergeRequestHandlers(store: Store): Handlers<Principal> {
  return {
    'merge-requests/list-merge-requests': listMergeRequests(store),
    'merge-requests/list-project-merge-requests': listProjectMergeRequests(store),
    'merge-requests/create-merge-request': createMergeRequest(store),
    'merge-requests/update-merge-request': updateMergeRequest(store),
    'merge-requests/delete-merge-request': deleteMergeRequest(store),
    'merge-requests/merge': merge(store),
  };
}

/** Dark text on a light colour, white on a dark one (as the Service picks a label's text colour). */
function textColor(color: string): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return '#FFFFFF';
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return r! * 0.299 + g! * 0.587 + b! * 0.114 > 186 ? '#333333' : '#FFFFFF';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
