/** Merge requests: list (filters, view=simple, pagination), create, update with the state table, merge, delete. */
import type { Handlers } from '@service-api/server';
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

export function mergeRequestHandlers(store: Store): Handlers<Principal> {
  const mrNotFound = { status: 404 as const, body: message('404 Not found') };
  /** Another open merge request has the same source and target branch. */
  const CONFLICT = { status: 409 as const, body: message('409 Conflict - a conflicting resource exists') };

  const sourceHead = (mr: FakeMergeRequest): string | null => {
    const project = store.project(mr.project_id);
    return project?.repository.branches[mr.source_branch] ?? mr.sha ?? null;
  };

  // A record is derived from the state: built once per revision and reused by every read until the next write.
  const record = perRevision(store, (mr: FakeMergeRequest) => {
    const project = store.project(mr.project_id)!;
    const path = store.projectPath(project);
    const user = (id: number | null | undefined) => (id == null ? null : userBasic(store, store.user(id)));
    const users = (ids: number[] | undefined) =>
      (ids ?? []).map((id) => userBasic(store, store.user(id))).filter((u) => u !== null);
    const sha = sourceHead(mr);
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
      milestone: milestoneRecord(mr.milestone_id),
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
  });

  const milestoneOf = (id: number | null | undefined) =>
    id == null ? undefined : (store.data.milestones ?? []).find((m) => m.id === id);
  function milestoneRecord(id: number | null | undefined) {
    const milestone = milestoneOf(id);
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
  const milestoneIdOf = (project: Project, value: unknown, current: number | null | undefined) => {
    if (value === undefined) return current;
    if (value === 0 || value === '' || value === null) return null;
    const milestone = milestoneOf(Number(value));
    return milestone && milestone.project_id === project.id ? milestone.id : current;
  };

  /** The Service's colour for a label created on the fly (by a merge request naming it). */
  const DEFAULT_LABEL_COLOR = '#6699cc';
  /** A record with its labels as label objects (`with_labels_details=true`). */
  const withLabelDetails = (mr: FakeMergeRequest, full: ReturnType<typeof record>) => ({
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

  const simple = (mr: FakeMergeRequest) => {
    const full = record(mr);
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
  const byName = (name: unknown): number | undefined =>
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
  const approvers = (mr: FakeMergeRequest): number[] => [
    ...(mr.approver_ids ?? []),
    ...(store.data.approval_rules ?? []).filter((r) => r.project_id === mr.project_id).flatMap((r) => r.user_ids),
  ];

  /** The list filters of the seed (those that the fake's data can answer). */
  const filter = (items: FakeMergeRequest[], f: Filters, caller: FakeUser | undefined): FakeMergeRequest[] => {
    const labels = typeof f.labels === 'string' ? f.labels : undefined;
    const wanted =
      labels
        ?.split(',')
        .map((l) => l.trim().toLowerCase())
        .filter(Boolean) ?? [];
    const notLabels =
      typeof f['not[labels]'] === 'string'
        ? (f['not[labels]'] as string).split(',').map((l) => l.trim().toLowerCase())
        : [];
    const search = typeof f.search === 'string' ? f.search.toLowerCase() : undefined;
    const within = typeof f.in === 'string' ? f.in.split(',') : ['title', 'description'];
    const authorId = f.author_id !== undefined ? Number(f.author_id) : byName(f.author_username);
    const notAuthor =
      f['not[author_id]'] !== undefined ? Number(f['not[author_id]']) : byName(f['not[author_username]']);
    const iids = Array.isArray(f['iids[]']) ? (f['iids[]'] as unknown[]).map(Number) : undefined;
    const time = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : undefined);
    const [ca, cb, ua, ub] = [
      time(f.created_after),
      time(f.created_before),
      time(f.updated_after),
      time(f.updated_before),
    ];
    const mergeUserId = f.merge_user_id !== undefined ? Number(f.merge_user_id) : byName(f.merge_user_username);
    const notAssignee = byName(f['not[assignee_username]']);
    const notReviewer = byName(f['not[reviewer_username]']);
    const deployedAfter = time(f.deployed_after);
    const deployedBefore = time(f.deployed_before);
    const byDeployment = f.environment !== undefined || deployedAfter !== undefined || deployedBefore !== undefined;
    const byLabels = labels !== undefined || notLabels.length > 0;
    const byTime = ca !== undefined || cb !== undefined || ua !== undefined || ub !== undefined;
    return items.filter((mr) => {
      const mrLabels = byLabels ? (mr.labels ?? []).map((l) => l.toLowerCase()) : [];
      if (f.state !== undefined && f.state !== 'all' && mr.state !== f.state) return false;
      if (labels !== undefined) {
        if (
          labels.toLowerCase() === 'none'
            ? mrLabels.length > 0
            : labels.toLowerCase() === 'any'
              ? mrLabels.length === 0
              : !wanted.every((l) => mrLabels.includes(l))
        )
          return false;
      }
      if (notLabels.some((l) => mrLabels.includes(l))) return false;
      if (authorId !== undefined && mr.author_id !== authorId) return false;
      if (notAuthor !== undefined && mr.author_id === notAuthor) return false;
      if (!userMatch(f.assignee_id, mr.assignee_ids ?? [])) return false;
      if (f['not[assignee_id]'] !== undefined && (mr.assignee_ids ?? []).includes(Number(f['not[assignee_id]'])))
        return false;
      if (!userMatch(f.reviewer_id, mr.reviewer_ids ?? [])) return false;
      if (f.reviewer_username !== undefined && !(mr.reviewer_ids ?? []).includes(byName(f.reviewer_username)!))
        return false;
      if (f.source_branch !== undefined && mr.source_branch !== f.source_branch) return false;
      if (f.target_branch !== undefined && mr.target_branch !== f.target_branch) return false;
      if (f.wip === 'yes' && mr.draft !== true) return false;
      if (f.wip === 'no' && mr.draft === true) return false;
      if (iids && !iids.includes(mr.iid)) return false;
      if (
        search &&
        !within.some((field) =>
          (field === 'title' ? mr.title : field === 'description' ? (mr.description ?? '') : '')
            .toLowerCase()
            .includes(search),
        )
      )
        return false;
      if (byTime) {
        const created = Date.parse(mr.created_at ?? '');
        const updated = Date.parse(mr.updated_at ?? '');
        if ((ca !== undefined && !(created >= ca)) || (cb !== undefined && !(created <= cb))) return false;
        if ((ua !== undefined && !(updated >= ua)) || (ub !== undefined && !(updated <= ub))) return false;
      }
      const milestone = milestoneOf(mr.milestone_id)?.title;
      if (typeof f.milestone === 'string' && !titleMatch(f.milestone, milestone)) return false;
      if (typeof f['not[milestone]'] === 'string' && titleMatch(f['not[milestone]'], milestone)) return false;
      if (!idsMatch(f['approved_by_ids[]'] ?? f.approved_by_ids, mr.approved_by_ids ?? [], true)) return false;
      if (!idsMatch(f['approver_ids[]'] ?? f.approver_ids, approvers(mr), true)) return false;
      if (f.approved === 'yes' && (mr.approved_by_ids ?? []).length === 0) return false;
      if (f.approved === 'no' && (mr.approved_by_ids ?? []).length > 0) return false;
      const mergeUser = mr.merge_user_id ?? (mr.state === 'merged' ? mr.author_id : null);
      if (mergeUserId !== undefined && mergeUser !== mergeUserId) return false;
      if (notAssignee !== undefined && (mr.assignee_ids ?? []).includes(notAssignee)) return false;
      if (f['not[reviewer_id]'] !== undefined && (mr.reviewer_ids ?? []).includes(Number(f['not[reviewer_id]'])))
        return false;
      if (notReviewer !== undefined && (mr.reviewer_ids ?? []).includes(notReviewer)) return false;
      const mine = (mr.award_emoji ?? []).filter((a) => a.user_id === caller?.id).map((a) => a.name);
      if (!emojiMatch(f.my_reaction_emoji, mine)) return false;
      if (typeof f['not[my_reaction_emoji]'] === 'string' && emojiMatch(f['not[my_reaction_emoji]'], mine))
        return false;
      if (byDeployment) {
        const deployed = (mr.deployments ?? []).filter(
          (d) =>
            (f.environment === undefined || d.environment === f.environment) &&
            (deployedAfter === undefined || Date.parse(d.deployed_at) > deployedAfter) &&
            (deployedBefore === undefined || Date.parse(d.deployed_at) < deployedBefore),
        );
        if (deployed.length === 0) return false;
      }
      if (f.scope !== undefined && caller) {
        if (f.scope === 'created_by_me' && mr.author_id !== caller.id) return false;
        if (f.scope === 'assigned_to_me' && !(mr.assignee_ids ?? []).includes(caller.id)) return false;
      }
      return true;
    });
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
  const lists = new Map<string, FakeMergeRequest[]>();
  let listsAt = -1;
  const MAX_LISTS = 64;
  const listed = (
    list: 'all' | number,
    caller: FakeUser | undefined,
    f: Filters,
    compute: () => FakeMergeRequest[],
  ): FakeMergeRequest[] => {
    if (listsAt !== store.revision) {
      lists.clear();
      listsAt = store.revision;
    }
    const { page: _page, per_page: _perPage, ...rest } = f;
    const given = Object.entries(rest).filter(([, value]) => value !== undefined);
    const key = JSON.stringify([list, caller?.id ?? null, given.sort(([a], [b]) => (a < b ? -1 : 1))]);
    let items = lists.get(key);
    if (!items) {
      if (lists.size >= MAX_LISTS) lists.clear();
      items = compute();
      lists.set(key, items);
    }
    return items;
  };

  /** A page of a list: simple records, records, or records with label details. */
  const body = (items: FakeMergeRequest[], f: Filters) =>
    f.view === 'simple'
      ? items.map(simple)
      : f.with_labels_details === true
        ? items.map((mr) => withLabelDetails(mr, record(mr)))
        : items.map(record);

  const findMr = (project: Project, iid: number) =>
    store.data.merge_requests.find((m) => m.project_id === project.id && m.iid === iid);
  const touch = (mr: FakeMergeRequest) => {
    mr.updated_at = store.now(true);
  };

  return {
    'merge-requests/list-merge-requests': ({ query }, { principal, request }) => {
      const filters: Filters = { scope: 'created_by_me', ...query };
      const items = listed('all', principal.user, filters, () => {
        const visible = store.data.merge_requests.filter((mr) => {
          const project = store.project(mr.project_id);
          return project !== undefined && store.canRead(project, principal.user);
        });
        return sort(filter(visible, filters, principal.user), filters);
      });
      const page = paginate(items, query, request);
      return {
        status: 200,
        body: body(page.items, filters),
        headers: page.headers,
      };
    },

    'merge-requests/list-project-merge-requests': ({ params, query }, { principal, request }) => {
      const project = readableProject(store, params.id, principal);
      if (!project) return PROJECT_NOT_FOUND;
      // The project list documents its parameters up to order_by, and view; the Service also reads state, sort and the
      // rest: they are applied as the global list validates them (its 400 for a bad value), never unchecked.
      const { twin, names } = parameterTables['merge-requests/list-project-merge-requests']!.undocumented!;
      const extra = twinQuery(request, twin, names);
      if (!('values' in extra)) return extra;
      const filters: Filters = { ...extra.values, ...query };
      const items = listed(project.id, principal.user, filters, () =>
        sort(
          filter(
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
        body: body(page.items, filters),
        headers: page.headers,
      };
    },

    'merge-requests/create-merge-request': ({ params, body }, { principal }) => {
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
        milestone_id: milestoneIdOf(project, body.milestone_id, null),
        created_at: now,
        updated_at: now,
      };
      store.data.merge_requests.push(mr);
      return { status: 201, body: record(mr) };
    },

    'merge-requests/update-merge-request': ({ params, body }, { principal }) => {
      const project = readableProject(store, params.id, principal);
      if (!project) return PROJECT_NOT_FOUND;
      const mr = findMr(project, params.merge_request_iid);
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
      // Closing a closed merge request or reopening an open one changes nothing (200).
      if (body.state_event === 'close' && mr.state !== 'closed') {
        if (mr.state !== 'opened' && mr.state !== 'locked')
          return {
            status: 400,
            body: {
              message: `400 Bad request - Cannot close a ${mr.state} merge request`,
              errors: [{ in: 'body', field: 'state_event', problem: `the merge request is ${mr.state}` }],
            },
          };
        mr.state = 'closed';
        mr.closed_by_id = principal.user.id;
        mr.closed_at = store.now(true);
      } else if (body.state_event === 'reopen' && mr.state !== 'opened') {
        if (mr.state !== 'closed')
          return {
            status: 400,
            body: {
              message: `400 Bad request - Cannot reopen a ${mr.state} merge request`,
              errors: [{ in: 'body', field: 'state_event', problem: `the merge request is ${mr.state}` }],
            },
          };
        mr.state = 'opened';
      }
      if (body.title !== undefined) {
        mr.title = body.title;
        mr.draft = /^(draft:|\[draft\]|\(draft\))/i.test(body.title);
      }
      if (body.description !== undefined) mr.description = body.description;
      mr.milestone_id = milestoneIdOf(project, body.milestone_id, mr.milestone_id);
      if (body.target_branch !== undefined) {
        if (!project.repository.branches[body.target_branch])
          return {
            status: 400,
            body: {
              message: `400 Bad request - Target branch '${body.target_branch}' does not exist`,
              errors: [{ in: 'body', field: 'target_branch', problem: 'does not exist' }],
            },
          };
        mr.target_branch = body.target_branch;
      }
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
      if (body.assignee_ids !== undefined)
        mr.assignee_ids = (Array.isArray(body.assignee_ids) ? body.assignee_ids : []).filter(
          (id) => id !== 0 && store.user(id),
        );
      else if (body.assignee_id !== undefined) mr.assignee_ids = body.assignee_id === 0 ? [] : [body.assignee_id];
      if (body.reviewer_ids !== undefined)
        mr.reviewer_ids = (Array.isArray(body.reviewer_ids) ? body.reviewer_ids : []).filter(
          (id) => id !== 0 && store.user(id),
        );
      if (body.squash !== undefined) mr.squash = body.squash;
      if (body.remove_source_branch !== undefined) mr.should_remove_source_branch = body.remove_source_branch;
      if (body.discussion_locked !== undefined) mr.discussion_locked = body.discussion_locked;
      if (body.allow_collaboration !== undefined) mr.allow_collaboration = body.allow_collaboration;
      if (body.allow_maintainer_to_push !== undefined) mr.allow_collaboration = body.allow_maintainer_to_push;
      if (JSON.stringify(mr) !== before) touch(mr);
      return { status: 200, body: record(mr) };
    },

    'merge-requests/delete-merge-request': ({ params }, { principal }) => {
      const project = readableProject(store, params.id, principal);
      if (!project) return PROJECT_NOT_FOUND;
      const mr = findMr(project, params.merge_request_iid);
      if (!mr) return mrNotFound;
      if (!store.hasAccess(project, principal.user, 50)) return FORBIDDEN; // administrators and owners only
      store.keepIds('merge_requests', store.data.merge_requests, 1001);
      store.keepIds(`merge_requests.iid.${project.id}`, () =>
        store.data.merge_requests.filter((m) => m.project_id === project.id).map((m) => ({ id: m.iid })),
      );
      store.data.merge_requests.splice(store.data.merge_requests.indexOf(mr), 1);
      return { status: 204 };
    },

    'merge-requests/merge': ({ params, body }, { principal }) => {
      const project = readableProject(store, params.id, principal);
      if (!project) return PROJECT_NOT_FOUND;
      const mr = findMr(project, params.merge_request_iid);
      if (!mr) return mrNotFound;
      if (!store.hasAccess(project, principal.user, 30)) return { status: 401, body: message('401 Unauthorized') };
      if (mr.state !== 'opened' || mr.draft === true || mr.has_conflicts === true)
        return { status: 405, body: message('405 Method Not Allowed') };
      const head = sourceHead(mr);
      if (body?.sha !== undefined && body.sha !== head)
        return { status: 409, body: { message: 'SHA does not match HEAD of source branch' } };
      if (body?.squash !== undefined) mr.squash = body.squash;
      if (body?.should_remove_source_branch !== undefined)
        mr.should_remove_source_branch = body.should_remove_source_branch;
      if (body?.merge_when_pipeline_succeeds === true) {
        // Stays opened until the pipeline succeeds; the fake runs no pipelines, so it stays opened.
        mr.merge_when_pipeline_succeeds = true;
        touch(mr);
        return { status: 200, body: { ...record(mr), state: 'opened' as const } };
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
      return { status: 200, body: { ...record(mr), state: 'merged' as const } };
    },
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
