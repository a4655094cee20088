/**
 * The fake's state: the data set made whole (repositories as real commits with git blob ids), lookups, access levels,
 * and a clock that moves one second per write so timestamps are deterministic.
 */
import { createHash } from 'node:crypto';
import type { AccessLevel, FakeData, FakeGroup, FakeMergeRequest, FakeProject, FakeUser } from './data.ts';
import { EMPTY_TREE, recordOf, treeOf, withChanges, type Commit, type Repository, type TreeEntry } from './tree.ts';

export type Project = Omit<FakeProject, 'repository'> & { repository: Repository };
export type StoreData = Omit<FakeData, 'projects'> & { projects: Project[] };

/** A file as a commit changes it: base64 content and mode, or null to delete it. */
export type FileChange = { content: string; execute_filemode: boolean } | null;

/** The git object id of a blob with this content, as git computes it. */
export function blobId(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

/**
 * A record keyed by names from requests (branches, tags, blob ids, plan names, integration slugs): no prototype, so a
 * key such as `__proto__` or `constructor` is an ordinary missing key, never an inherited value or a write to
 * `Object.prototype`.
 */
export function keyed<T>(record: Record<string, T> | undefined = undefined): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, record);
}

/** The data set's records keyed by names from requests, each made prototype-free (`keyed`). */
function keyedRecords(data: StoreData): void {
  for (const project of data.projects) {
    const repository = project.repository;
    if (!repository) continue;
    repository.branches = keyed(repository.branches);
    repository.blobs = keyed(repository.blobs);
    if (repository.tags) repository.tags = keyed(repository.tags);
  }
  if (data.plan_limits) {
    const plans = keyed<Record<string, number>>();
    for (const [name, plan] of Object.entries(data.plan_limits)) plans[name] = keyed(plan);
    data.plan_limits = plans;
  }
  if (data.integration_kinds) data.integration_kinds = keyed(data.integration_kinds);
  if (data.project_imports) data.project_imports = keyed(data.project_imports);
  if (data.application_settings) data.application_settings = keyed(data.application_settings);
}

export class Store {
  data: StoreData;
  /** Moves on before every write operation (and in a read that writes): what is derived from the state is reused while it stays. */
  revision = 0;
  private tick = 0;
  private readonly start: number;

  constructor(data: FakeData) {
    const copy = structuredClone(data);
    this.data = {
      ...copy,
      projects: copy.projects.map(({ repository, ...project }) => ({
        ...project,
        repository: repository && {
          ...repository,
          commits: repository.commits.map((c) => ({ ...c, tree: treeOf(c.tree) })),
        },
      })),
    } as StoreData;
    this.start = Date.parse(this.data.now ?? '2025-01-01T00:00:00.000Z');
    for (const project of this.data.projects) this.expandRepository(project);
    keyedRecords(this.data);
    this.applyRepositoryHistory();
    for (const pipeline of this.data.pipelines) {
      if (!pipeline.sha)
        pipeline.sha = this.project(pipeline.project_id)?.repository.branches[pipeline.ref] ?? '0'.repeat(40);
    }
    for (const mr of this.data.merge_requests) {
      if (mr.state === 'opened' || mr.state === 'locked')
        this.ensureSourceBranch(mr.project_id, mr.source_branch, mr.target_branch, mr.title);
      mr.created_at ??= this.now();
      mr.updated_at ??= mr.created_at;
    }
    for (const job of this.data.jobs) job.created_at ??= this.now();
  }

  /** The state in the data set's form (trees as path → entry), a copy. */
  snapshot(): FakeData {
    const projects = this.data.projects.map((project) => ({
      ...project,
      repository: {
        ...project.repository,
        commits: project.repository.commits.map((c) => ({ ...c, tree: recordOf(c.tree) })),
      },
    }));
    return structuredClone({ ...this.data, projects });
  }

  /** Commits the data set's `repository_history` on each project's default branch, once (the field is then removed). */
  private applyRepositoryHistory(): void {
    for (const entry of this.data.repository_history ?? []) {
      const project = this.project(entry.project_id);
      if (!project) continue;
      for (const step of entry.commits) {
        const changes = keyed<FileChange>();
        for (const [path, file] of Object.entries(step.files)) {
          changes[path] =
            file === null
              ? null
              : typeof file === 'string'
                ? { content: Buffer.from(file).toString('base64'), execute_filemode: false }
                : { content: file.content, execute_filemode: file.execute_filemode === true };
        }
        const head = project.repository.branches[project.default_branch];
        const commit = this.commit(project, {
          parent: head,
          message: step.message,
          author: this.user(step.author_id),
          changes,
        });
        project.repository.branches[project.default_branch] = commit.id;
        if (step.tag !== undefined) (project.repository.tags ??= keyed())[step.tag] = commit.id;
      }
    }
    delete this.data.repository_history;
  }

  /** The current time of the fake's clock; `advance` moves it one second (every write does). */
  now(advance = false): string {
    if (advance) this.tick += 1;
    return new Date(this.start + this.tick * 1000).toISOString();
  }

  /** The last id given per kind of record (counted from the records on first use). */
  private readonly lastIds = new Map<string, number>();

  /**
   * A new id for a record of `kind` (at least `floor`): one more than every id of that kind so far, so an id a deleted
   * record had is never given again, as the Service never reuses one.
   */
  nextId(kind: string, records: readonly { id: number }[] | (() => readonly { id: number }[]), floor = 1): number {
    const id = this.peekId(kind, records, floor);
    this.lastIds.set(kind, id);
    return id;
  }

  /**
   * Counts the ids of `kind` now if no id was given yet: called before a record is deleted, so that a delete before
   * the first create cannot lower the count and let its id be given again.
   */
  keepIds(kind: string, records: readonly { id: number }[] | (() => readonly { id: number }[]), floor = 1): void {
    if (!this.lastIds.has(kind)) this.lastIds.set(kind, this.peekId(kind, records, floor) - 1);
  }

  /** The id `nextId` gives next, without taking it (a create that may still be refused). */
  peekId(kind: string, records: readonly { id: number }[] | (() => readonly { id: number }[]), floor = 1): number {
    const counted = () =>
      (typeof records === 'function' ? records() : records).reduce((max, r) => Math.max(max, r.id), floor - 1);
    return (this.lastIds.get(kind) ?? counted()) + 1;
  }

  /** A new group or personal namespace id: the two share one sequence. */
  nextNamespaceId(): number {
    return this.nextId('namespaces', [...this.data.groups, ...(this.data.user_namespaces ?? [])]);
  }

  // Users and access

  user(id: number): FakeUser | undefined {
    return this.data.users.find((u) => u.id === id);
  }

  /** A user by id or username (case-insensitive), as sudo and `:user_id` take them. */
  findUser(idOrName: string | number): FakeUser | undefined {
    const text = String(idOrName);
    if (/^\d+$/.test(text)) return this.user(Number(text));
    return this.data.users.find((u) => u.username.toLowerCase() === text.toLowerCase());
  }

  group(id: number): FakeGroup | undefined {
    return this.data.groups.find((g) => g.id === id);
  }

  groupPath(group: FakeGroup): string {
    const parent = group.parent_id === null ? undefined : this.group(group.parent_id);
    return parent ? `${this.groupPath(parent)}/${group.path}` : group.path;
  }

  groupName(group: FakeGroup): string {
    const parent = group.parent_id === null ? undefined : this.group(group.parent_id);
    return parent ? `${this.groupName(parent)} / ${group.name}` : group.name;
  }

  project(id: number): Project | undefined {
    return this.data.projects.find((p) => p.id === id);
  }

  projectPath(project: Project): string {
    const group = this.group(project.namespace_id);
    const owner = group ? undefined : this.namespaceOwner(project);
    return group
      ? `${this.groupPath(group)}/${project.path}`
      : owner
        ? `${owner.username}/${project.path}`
        : project.path;
  }

  /** The user whose personal namespace holds the project (`user_namespaces`), if any. */
  namespaceOwner(project: Project): FakeUser | undefined {
    const namespace = this.data.user_namespaces?.find((n) => n.id === project.namespace_id);
    return namespace ? this.user(namespace.user_id) : undefined;
  }

  /** The id of a user's personal namespace, created on first use (ids after every group and namespace id). */
  personalNamespaceId(user: FakeUser): number {
    const namespaces = (this.data.user_namespaces ??= []);
    const found = namespaces.find((n) => n.user_id === user.id);
    if (found) return found.id;
    const id = this.nextNamespaceId();
    namespaces.push({ id, user_id: user.id });
    return id;
  }

  /** The identifying fields every project record starts with (simple view, export status, export file). */
  projectIdentity(project: Project) {
    const group = this.group(project.namespace_id);
    const owner = group ? undefined : this.namespaceOwner(project);
    return {
      id: project.id,
      description: project.description ?? null,
      name: project.name,
      name_with_namespace: group
        ? `${this.groupName(group)} / ${project.name}`
        : owner
          ? `${owner.name} / ${project.name}`
          : project.name,
      path: project.path,
      path_with_namespace: this.projectPath(project),
      created_at: project.created_at ?? this.data.now ?? '2025-01-01T00:00:00.000Z',
    };
  }

  /** A project by numeric id or full path (`my-group/my-project`, case-insensitive). */
  /** A group by numeric id or full path (case-insensitive). */
  findGroup(id: string | number): FakeGroup | undefined {
    const text = String(id);
    if (/^\d+$/.test(text)) return this.group(Number(text));
    return this.data.groups.find((g) => this.groupPath(g).toLowerCase() === text.toLowerCase());
  }

  findProject(id: string | number): Project | undefined {
    const text = String(id);
    if (/^\d+$/.test(text)) return this.project(Number(text));
    return this.data.projects.find((p) => this.projectPath(p).toLowerCase() === text.toLowerCase());
  }

  /** The project that was at this path before a rename (`previous_paths`), when no project has the path now. */
  movedProject(path: string): Project | undefined {
    if (/^\d+$/.test(path) || this.findProject(path)) return undefined;
    return this.data.projects.find((p) =>
      (p.previous_paths ?? []).some((old) => old.toLowerCase() === path.toLowerCase()),
    );
  }

  /**
   * The highest access level of a user in a group, inherited from its ancestors, and through the groups they are shared
   * with (`group_shares`, until `expires_at`): there at most the share's `group_access`. Shares do not chain.
   */
  groupAccess(group: FakeGroup | undefined, userId: number, viaShares = true): number {
    let level = 0;
    for (let g = group; g; g = g.parent_id === null ? undefined : this.group(g.parent_id)) {
      level = Math.max(level, g.members.find((m) => m.user_id === userId)?.access_level ?? 0);
      if (!viaShares) continue;
      for (const share of this.activeShares(g)) {
        level = Math.max(
          level,
          Math.min(share.group_access, this.groupAccess(this.group(share.shared_with_group_id), userId, false)),
        );
      }
    }
    return level;
  }

  /** The shares of a group (with other groups) that have not expired: `expires_at` is the last day. */
  activeShares(group: FakeGroup) {
    const today = this.now().slice(0, 10);
    return (this.data.group_shares ?? []).filter(
      (s) => s.group_id === group.id && (s.expires_at === null || s.expires_at >= today),
    );
  }

  /** A user's access level in a project: its own membership or the highest inherited one; administrators have all. */
  projectAccess(project: Project, user: FakeUser | undefined): number {
    if (!user) return 0;
    if (user.is_admin) return 50;
    if (this.namespaceOwner(project)?.id === user.id) return 50;
    const own = project.members.find((m) => m.user_id === user.id)?.access_level ?? 0;
    return Math.max(own, this.groupAccess(this.group(project.namespace_id), user.id));
  }

  canRead(project: Project, user: FakeUser | undefined): boolean {
    if (project.visibility === 'public') return true;
    if (project.visibility === 'internal' && user) return true;
    return this.projectAccess(project, user) >= 10;
  }

  /** Repository reads: public and internal projects by what `canRead` allows, private ones from Reporter up. */
  canReadRepository(project: Project, user: FakeUser | undefined): boolean {
    if (project.visibility !== 'private') return this.canRead(project, user);
    return this.projectAccess(project, user) >= 20;
  }

  hasAccess(project: Project, user: FakeUser | undefined, level: AccessLevel): boolean {
    return this.projectAccess(project, user) >= level;
  }

  // Repositories

  private expandRepository(project: Project): void {
    if (project.repository) return;
    const blobs = keyed<string>();
    const files = keyed<FileChange>();
    for (const [path, file] of Object.entries(project.files ?? {})) {
      const content = typeof file === 'string' ? Buffer.from(file).toString('base64') : file.content;
      files[path] = { content, execute_filemode: typeof file === 'string' ? false : file.execute_filemode === true };
    }
    delete project.files;
    project.repository = { branches: keyed(), commits: [], blobs };
    const commit = this.commit(project, {
      parent: undefined,
      message: 'Initial commit',
      author: undefined,
      changes: files,
    });
    project.repository.branches[project.default_branch] = commit.id;
  }

  /** Creates a branch from `from` with one commit for a merge request whose source branch the data does not hold. */
  ensureSourceBranch(projectId: number, branch: string, from: string, title: string): void {
    const project = this.project(projectId);
    if (!project || project.repository.branches[branch]) return;
    const base = project.repository.branches[from] ?? project.repository.branches[project.default_branch];
    if (!base) return;
    const path = `changes/${branch.replace(/[^\w.-]+/g, '-')}.md`;
    const commit = this.commit(project, {
      parent: base,
      message: title,
      author: undefined,
      changes: { [path]: { content: Buffer.from(`${title}\n`).toString('base64'), execute_filemode: false } },
    });
    project.repository.branches[branch] = commit.id;
  }

  /** Commits by full id, per list of commits: kept up to date by `commit`, counted again when the list changed otherwise. */
  private readonly commitIndexes = new WeakMap<Commit[], Map<string, Commit>>();

  private commitIndex(commits: Commit[]): Map<string, Commit> {
    let index = this.commitIndexes.get(commits);
    if (index?.size !== commits.length) {
      index = new Map(commits.map((c) => [c.id, c]));
      this.commitIndexes.set(commits, index);
    }
    return index;
  }

  /**
   * Merge requests by project and source branch (which never changes), derived from `data.merge_requests`: the
   * records appended since the last lookup are added; a list replaced, shortened or no longer ending where it ended (a
   * delete, an import, a reset) is indexed again. The handlers only append, delete or replace the list. A create then looks at the few from its branch, not at every merge request.
   */
  private mergeRequestIndex?: {
    list: FakeMergeRequest[];
    length: number;
    last: FakeMergeRequest | undefined;
    byBranch: Map<string, FakeMergeRequest[]>;
  };

  mergeRequestsFrom(projectId: number, sourceBranch: string): readonly FakeMergeRequest[] {
    const list = this.data.merge_requests;
    let index = this.mergeRequestIndex;
    if (!index || index.list !== list || list.length < index.length || list[index.length - 1] !== index.last)
      index = { list, length: 0, last: undefined, byBranch: new Map() };
    const key = (projectId: number, branch: string) => `${projectId}\0${branch}`;
    for (const mr of list.slice(index.length)) {
      const at = key(mr.project_id, mr.source_branch);
      const same = index.byBranch.get(at);
      if (same) same.push(mr);
      else index.byBranch.set(at, [mr]);
    }
    index.length = list.length;
    index.last = list[list.length - 1];
    this.mergeRequestIndex = index;
    return index.byBranch.get(key(projectId, sourceBranch)) ?? [];
  }

  findCommit(project: Project, id: string): Commit | undefined {
    const commits = project.repository.commits;
    return this.commitIndex(commits).get(id) ?? (id.length >= 7 ? commits.find((c) => c.id.startsWith(id)) : undefined);
  }

  /** A branch name or a commit id (full or at least 7 characters); `undefined` ref means the default branch. */
  resolveRef(project: Project, ref: string | undefined): Commit | undefined {
    const name = ref === undefined || ref === '' || ref === 'HEAD' ? project.default_branch : ref;
    const id = project.repository.branches[name] ?? project.repository.tags?.[name];
    return id
      ? this.findCommit(project, id)
      : /^[0-9a-f]{7,40}$/.test(name)
        ? this.findCommit(project, name)
        : undefined;
  }

  /** Records a commit whose tree is the parent's with `changes` applied (`null` deletes a path): unchanged parts are shared. */
  commit(
    project: Project,
    options: {
      parent: string | undefined;
      message: string;
      author: FakeUser | undefined;
      changes: Record<string, FileChange>;
      extraParents?: string[];
    },
  ): Commit {
    const parent = options.parent ? this.findCommit(project, options.parent) : undefined;
    const created_at = this.now(true);
    const parents = [...(parent ? [parent.id] : []), ...(options.extraParents ?? [])];
    const commits = project.repository.commits;
    const id = createHash('sha1')
      .update(`${project.id}\n${parents.join(' ')}\n${options.message}\n${created_at}\n${commits.length}`)
      .digest('hex');
    const changes: [string, TreeEntry | null][] = Object.entries(options.changes).map(([path, change]) => {
      if (change === null) return [path, null];
      const blob = blobId(Buffer.from(change.content, 'base64'));
      project.repository.blobs[blob] = change.content;
      return [path, { blob_id: blob, execute_filemode: change.execute_filemode, last_commit_id: id }];
    });
    const tree = withChanges(parent?.tree ?? EMPTY_TREE, changes);
    const author = options.author ?? this.user(1);
    const commit: Commit = {
      id,
      parent_ids: parents,
      message: options.message,
      author_name: author?.name ?? 'Administrator',
      author_email: author?.email ?? 'admin@example.com',
      created_at,
      tree,
    };
    const index = this.commitIndex(commits);
    commits.push(commit);
    index.set(id, commit);
    return commit;
  }
}
