/**
 * The fake's repository history, through the generated client with responses validated: blame (GET and HEAD),
 * compare, merge base, contributors and changelog over the real commits of the default data set (README.md of My
 * Project written by Administrator, then Mia with `Changelog: added` and tag v1.0.0, Dev with `Changelog: fixed` and
 * tag v1.1.0-rc.1, Olivia without a trailer) and over commits the test writes.
 */
import { describe, expect, it } from 'vitest';
import { defaultData } from '../src/index.ts';
import { failure, useFake, withFake } from '../../../test/support/fake.ts';

const { as } = useFake();
const PROJECT = 'my-group/my-project';
const README = { id: PROJECT, file_path: 'README.md' };

/** The `notes` of a changelog response (its schema is open: the body is not documented). */
function notesOf(body: unknown): string {
  const notes = (body as { notes?: unknown } | null)?.notes;
  if (typeof notes !== 'string') throw new Error(`no notes in ${JSON.stringify(body)}`);
  return notes;
}

/** The ids of the four commits of README.md on main, oldest first, read from the blame. */
async function history(): Promise<string[]> {
  const ranges = await as().repository.getFileBlame({ path: README, query: { ref: 'main' } });
  return ranges.map((r) => r.commit.id);
}

describe('blame', () => {
  it('attributes each line to the commit that last changed it, with the authors of the history', async () => {
    const ranges = await as().repository.getFileBlame({ path: README, query: { ref: 'main' } });
    expect(ranges.map((r) => [r.commit.author_name, r.commit.message.split('\n')[0], r.lines])).toEqual([
      ['Administrator', 'Initial commit', ['# My Project', '', 'A public project.']],
      ['Mia Maintainer', 'Document usage', ['', '## Usage', '']],
      ['Dev Developer', 'Fix the usage command', ['Run `sh scripts/run.sh`.']],
      ['Olivia Owner', 'State the license', ['', '## License', '', 'MIT']],
    ]);
    const [initial, usage, fix, license] = ranges.map((r) => r.commit);
    expect(initial!.parent_ids).toEqual([]);
    expect(usage!.parent_ids).toEqual([initial!.id]);
    expect(fix!.parent_ids).toEqual([usage!.id]);
    expect(license).toMatchObject({
      parent_ids: [fix!.id],
      author_email: 'olivia@example.com',
      committer_name: 'Olivia Owner',
      committer_email: 'olivia@example.com',
    });
    expect(license!.committed_date).toBe(license!.authored_date);
    // At the tag, the file is older: two commits.
    const tagged = await as().repository.getFileBlame({ path: README, query: { ref: 'v1.0.0' } });
    expect(tagged.map((r) => [r.commit.id, r.lines.length])).toEqual([
      [initial!.id, 3],
      [usage!.id, 4],
    ]);
  });

  it('follows a new commit, agrees with GET and HEAD of the file, and HEAD on blame answers the same headers', async () => {
    const dev = as('developer-token');
    const before = await dev.repository.getFile({ path: README, query: { ref: 'main' } });
    const text = Buffer.from(before.content, 'base64')
      .toString()
      .replace('A public project.', 'A public project, documented.');
    await dev.repository.updateFile({
      path: README,
      body: {
        branch: 'main',
        commit_message: 'Describe the project',
        content: text,
        last_commit_id: before.last_commit_id,
      },
    });
    const file = await dev.repository.getFile({ path: README, query: { ref: 'main' } });
    const ranges = await dev.repository.getFileBlame({ path: README, query: { ref: 'main' } });
    expect(ranges.map((r) => r.lines.length)).toEqual([2, 1, 3, 1, 4]);
    expect(ranges[1]).toMatchObject({
      commit: { id: file.last_commit_id, author_name: 'Dev Developer', message: 'Describe the project' },
      lines: ['A public project, documented.'],
    });
    expect(`${ranges.flatMap((r) => r.lines).join('\n')}\n`).toBe(Buffer.from(file.content, 'base64').toString());
    const fileHead = await dev.repository.getFileMetadata.withResponse({ path: README, query: { ref: 'main' } });
    const blameHead = await dev.repository.getFileBlameMetadata.withResponse({ path: README, query: { ref: 'main' } });
    expect(blameHead.headers).toEqual(fileHead.headers);
    expect(blameHead.headers).toMatchObject({
      'X-Service-Blob-Id': file.blob_id,
      'X-Service-Last-Commit-Id': file.last_commit_id,
      'X-Service-Commit-Id': file.commit_id,
      'X-Service-Size': file.size,
    });
  });

  it('range[start] and range[end] limit the lines; pages of ranges; 400 and 404 as stated', async () => {
    const api = as('reporter-token');
    const middle = await api.repository.getFileBlame({
      path: README,
      query: { ref: 'main', 'range[start]': 5, 'range[end]': 8 },
    });
    expect(middle.map((r) => [r.commit.author_name, r.lines])).toEqual([
      ['Mia Maintainer', ['## Usage', '']],
      ['Dev Developer', ['Run `sh scripts/run.sh`.']],
      ['Olivia Owner', ['']],
    ]);
    const page = await api.repository.getFileBlame.withResponse({ path: README, query: { ref: 'main', per_page: 3 } });
    expect(page.data).toHaveLength(3);
    expect(page.pagination).toMatchObject({ page: 1, nextPage: 2, total: 4 });
    for (const query of [
      { 'range[start]': 2 },
      { 'range[end]': 2 },
      { 'range[start]': 0, 'range[end]': 2 },
      { 'range[start]': 4, 'range[end]': 3 },
    ]) {
      expect(
        (await failure(api.repository.getFileBlame({ path: README, query: { ref: 'main', ...query } }))).status,
        JSON.stringify(query),
      ).toBe(400);
    }
    expect(
      await failure(
        api.repository.getFileBlame({ path: { id: PROJECT, file_path: 'nope.md' }, query: { ref: 'main' } }),
      ),
    ).toEqual({ status: 404, body: { message: '404 File Not Found' } });
    expect((await failure(api.repository.getFileBlame({ path: README, query: { ref: 'no-such-ref' } }))).status).toBe(
      404,
    );
    expect(
      (
        await failure(
          as().repository.getFileBlame({
            path: { id: 'my-group/secret', file_path: 'README.md' },
            query: { ref: 'main' },
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await failure(
          as('guest-token').repository.getFileBlame({
            path: { id: 'my-group/secret', file_path: 'README.md' },
            query: { ref: 'main' },
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await as('developer-token').repository.getFileBlame({
          path: { id: 'my-group/secret', file_path: 'README.md' },
          query: { ref: 'main' },
        })
      )[0]!.lines,
    ).toEqual(['# Secret']);
  });
});

describe('compare and merge base', () => {
  it('compares a tag with main: the commits after it, oldest first, and the diff of README.md', async () => {
    const [, usage, fix, license] = await history();
    const result = await as().repository.compare({ path: { id: PROJECT }, query: { from: 'v1.0.0', to: 'main' } });
    expect(result.commits.map((c) => [c.id, c.title, c.author_name])).toEqual([
      [fix, 'Fix the usage command', 'Dev Developer'],
      [license, 'State the license', 'Olivia Owner'],
    ]);
    expect(result.commit?.id).toBe(license);
    expect(result.commits[0]!.short_id).toBe(fix!.slice(0, 8));
    expect(result.diffs).toEqual([
      {
        old_path: 'README.md',
        new_path: 'README.md',
        a_mode: '100644',
        b_mode: '100644',
        new_file: false,
        renamed_file: false,
        deleted_file: false,
        diff: '@@ -4,4 +4,8 @@\n \n ## Usage\n \n-Run scripts/run.sh.\n+Run `sh scripts/run.sh`.\n+\n+## License\n+\n+MIT\n',
      },
    ]);
    expect(result).toMatchObject({
      compare_timeout: false,
      compare_same_ref: false,
      web_url: 'https://service.example/my-group/my-project/-/compare/v1.0.0...main',
    });
    expect(usage).toBeDefined();
  });

  it('same ref: no commits, no diffs; straight compares the trees themselves; merge base over real ancestry', async () => {
    const dev = as('developer-token');
    const same = await dev.repository.compare({ path: { id: PROJECT }, query: { from: 'main', to: 'main' } });
    expect(same).toMatchObject({ commits: [], diffs: [], compare_same_ref: true });
    const head = await dev.repository.getFile({
      path: { id: PROJECT, file_path: 'README.md' },
      query: { ref: 'main' },
    });
    expect(same.commit.id).toBe(head.commit_id);
    const [, usage, , license] = await history();
    // main moves on after feature/login was branched from it.
    await dev.repository.createFile({
      path: { id: PROJECT, file_path: 'docs/guide.md' },
      body: { branch: 'main', commit_message: 'Add a guide', content: 'Guide\n' },
    });
    expect(
      (await dev.repository.getMergeBase({ path: { id: PROJECT }, query: { 'refs[]': ['main', 'feature/login'] } })).id,
    ).toBe(license);
    expect(
      await dev.repository.getMergeBase({
        path: { id: PROJECT },
        query: { 'refs[]': ['feature/login', 'main', 'v1.0.0'] },
      }),
    ).toMatchObject({
      id: usage,
      title: 'Document usage',
      author_name: 'Mia Maintainer',
      parent_ids: [expect.any(String)],
    });
    // From the merge base: only main's new commit and file.
    const sinceBranch = await dev.repository.compare({
      path: { id: PROJECT },
      query: { from: 'feature/login', to: 'main' },
    });
    expect(sinceBranch.commits.map((c) => c.title)).toEqual(['Add a guide']);
    expect(sinceBranch.diffs.map((d) => [d.new_path, d.new_file, d.deleted_file, d.a_mode, d.b_mode, d.diff])).toEqual([
      ['docs/guide.md', true, false, '0', '100644', '@@ -0,0 +1 @@\n+Guide\n'],
    ]);
    // Straight: the branch's own file is gone in main's tree.
    const straight = await dev.repository.compare({
      path: { id: PROJECT },
      query: { from: 'feature/login', to: 'main', straight: true },
    });
    expect(straight.diffs.map((d) => [d.new_path, d.new_file, d.deleted_file])).toEqual([
      ['changes/feature-login.md', false, true],
      ['docs/guide.md', true, false],
    ]);
    expect(straight.web_url).toBe('https://service.example/my-group/my-project/-/compare/feature%2Flogin..main');
  });

  it('compares from another project (from_project_id) and refuses what the caller cannot read', async () => {
    const dev = as('developer-token');
    const across = await dev.repository.compare({
      path: { id: PROJECT },
      query: { from: 'main', to: 'main', from_project_id: 3 },
    });
    expect(across.commits.map((c) => c.title)).toEqual([
      'Initial commit',
      'Document usage',
      'Fix the usage command',
      'State the license',
    ]);
    // Unrelated histories have no merge base: every file is new; straight diffs against the other project's tree.
    expect(across.diffs.map((d) => [d.new_path, d.new_file, d.deleted_file])).toEqual([
      ['README.md', true, false],
      ['scripts/run.sh', true, false],
      ['src/index.js', true, false],
    ]);
    expect(across.compare_same_ref).toBe(false);
    const straight = await dev.repository.compare({
      path: { id: PROJECT },
      query: { from: 'main', to: 'main', from_project_id: 3, straight: true },
    });
    expect(straight.diffs.map((d) => [d.new_path, d.new_file, d.deleted_file, d.diff])).toContainEqual([
      'tool.txt',
      false,
      true,
      '@@ -1 +0,0 @@\n-a tool\n',
    ]);
    expect(
      (
        await failure(
          as().repository.compare({ path: { id: PROJECT }, query: { from: 'main', to: 'main', from_project_id: 3 } }),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await failure(
          as('outsider-token').repository.compare({
            path: { id: PROJECT },
            query: { from: 'main', to: 'main', from_project_id: 2 },
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      await failure(dev.repository.compare({ path: { id: PROJECT }, query: { from: 'main', to: 'nope' } })),
    ).toEqual({ status: 404, body: { message: '404 Ref Not Found' } });
    expect(
      (await failure(as().repository.compare({ path: { id: 'my-group/secret' }, query: { from: 'main', to: 'main' } })))
        .status,
    ).toBe(404);
  });

  it('merge base: 400 for fewer than two refs and for unknown refs, 404 for unrelated histories', async () => {
    const api = as('developer-token');
    const one = await failure(api.repository.getMergeBase({ path: { id: PROJECT }, query: { 'refs[]': ['main'] } }));
    expect(one.status).toBe(400);
    expect(
      await failure(
        api.repository.getMergeBase({ path: { id: PROJECT }, query: { 'refs[]': ['main', 'nope', 'gone'] } }),
      ),
    ).toEqual({ status: 400, body: { message: '400 Bad request - Could not find refs: nope, gone' } });
    expect(
      (
        await failure(
          as().repository.getMergeBase({ path: { id: 'my-group/secret' }, query: { 'refs[]': ['main', 'main'] } }),
        )
      ).status,
    ).toBe(404);
    const tool = await api.repository.getFile({
      path: { id: 'my-group/sub/tools', file_path: 'tool.txt' },
      query: { ref: 'main' },
    });
    expect(
      (
        await api.repository.getMergeBase({
          path: { id: 'my-group/sub/tools' },
          query: { 'refs[]': ['main', tool.commit_id] },
        })
      ).id,
    ).toBe(tool.commit_id);
  });
});

describe('contributors', () => {
  it('counts the commits, additions and deletions of each author on the default branch, ordered as asked', async () => {
    const dev = as('developer-token');
    const byCommits = await dev.repository.listContributors({ path: { id: PROJECT } });
    expect(byCommits).toEqual([
      { name: 'Dev Developer', email: 'dev@example.com', commits: 1, additions: 1, deletions: 1 },
      { name: 'Mia Maintainer', email: 'mia@example.com', commits: 1, additions: 4, deletions: 0 },
      { name: 'Olivia Owner', email: 'olivia@example.com', commits: 1, additions: 4, deletions: 0 },
      { name: 'Administrator', email: 'root@example.com', commits: 1, additions: 6, deletions: 0 },
    ]);
    await dev.repository.createFile({
      path: { id: PROJECT, file_path: 'docs/a.md' },
      body: { branch: 'main', commit_message: 'A', content: 'a\nb\n' },
    });
    await dev.repository.deleteFile({
      path: { id: PROJECT, file_path: 'docs/a.md' },
      body: { branch: 'main', commit_message: 'Not A' },
    });
    const desc = await dev.repository.listContributors({
      path: { id: PROJECT },
      query: { order_by: 'commits', sort: 'desc' },
    });
    expect(desc[0]).toEqual({
      name: 'Dev Developer',
      email: 'dev@example.com',
      commits: 3,
      additions: 3,
      deletions: 3,
    });
    expect(
      (await dev.repository.listContributors({ path: { id: PROJECT }, query: { order_by: 'name' } })).map(
        (c) => c.name,
      ),
    ).toEqual(['Administrator', 'Dev Developer', 'Mia Maintainer', 'Olivia Owner']);
    expect(
      (
        await dev.repository.listContributors({ path: { id: PROJECT }, query: { order_by: 'email', sort: 'desc' } })
      ).map((c) => c.email),
    ).toEqual(['root@example.com', 'olivia@example.com', 'mia@example.com', 'dev@example.com']);
    const page = await dev.repository.listContributors.withResponse({
      path: { id: PROJECT },
      query: { per_page: 3, page: 2 },
    });
    expect(page.data).toHaveLength(1);
    expect(page.pagination).toMatchObject({ page: 2, total: 4, totalPages: 2 });
    expect((await failure(as().repository.listContributors({ path: { id: 'my-group/secret' } }))).status).toBe(404);
  });
});

describe('changelog', () => {
  it('GET generates the section from the trailers since the last stable tag, and commits nothing', async () => {
    const dev = as('developer-token');
    const [initial, usage, fix] = await history();
    const notes = `## 1.1.0 (2025-03-11)\n\n### Fixed (1 change)\n\n- [Fix the usage command](my-group/my-project@${fix})\n`;
    expect(await dev.repository.getChangelog({ path: { id: PROJECT }, query: { version: '1.1.0' } })).toEqual({
      notes,
    });
    expect(
      await dev.repository.getChangelog({
        path: { id: PROJECT },
        query: { version: 'v1.0.0', from: initial, date: '2024-12-31T23:00:00Z' },
      }),
    ).toEqual({
      notes: `## 1.0.0 (2024-12-31)\n\n### Added (1 change)\n\n- [Document usage](my-group/my-project@${usage})\n\n### Fixed (1 change)\n\n- [Fix the usage command](my-group/my-project@${fix})\n`,
    });
    // Any ISO 8601 date-time the document admits: the basic form and a time without a zone (read as UTC here).
    for (const date of ['20241231T230000Z', '2024-12-31T23:00', '2024-12-31T23:00:00,5+00']) {
      expect(
        notesOf(
          await dev.repository.getChangelog({
            path: { id: PROJECT },
            query: { version: '1.0.0', from: initial, date },
          }),
        ),
      ).toMatch(/^## 1\.0\.0 \(2024-12-31\)/);
    }
    // v1.0.0 is the last stable tag before 1.0.1 too; the release candidate is no stable version.
    expect(await dev.repository.getChangelog({ path: { id: PROJECT }, query: { version: '1.0.1' } })).toEqual({
      notes: notes.replace('1.1.0', '1.0.1'),
    });
    expect(
      await dev.repository.getChangelog({ path: { id: PROJECT }, query: { version: '1.1.0', from: fix } }),
    ).toEqual({ notes: '## 1.1.0 (2025-03-11)\n\nNo changes.\n' });
    expect(await failure(dev.repository.getChangelog({ path: { id: PROJECT }, query: { version: '1.0.0' } }))).toEqual({
      status: 400,
      body: {
        message:
          '400 Bad request - The commit start range is unspecified, and no previous tag could be found to use instead',
      },
    });
    expect(
      (await failure(dev.repository.getChangelog({ path: { id: PROJECT }, query: { version: 'banana' } }))).status,
    ).toBe(400);
    expect(
      (
        await failure(
          dev.repository.getFile({ path: { id: PROJECT, file_path: 'CHANGELOG.md' }, query: { ref: 'main' } }),
        )
      ).status,
    ).toBe(404);
  });

  it('POST commits the section to the file on the branch, older versions below newer ones, each version once', async () => {
    const dev = as('developer-token');
    const [initial] = await history();
    expect(await dev.repository.createChangelog({ path: { id: PROJECT }, body: { version: '1.1.0' } })).toEqual({});
    const first = await dev.repository.getFile({
      path: { id: PROJECT, file_path: 'CHANGELOG.md' },
      query: { ref: 'main' },
    });
    const newer = notesOf(await dev.repository.getChangelog({ path: { id: PROJECT }, query: { version: '1.1.0' } }));
    expect(Buffer.from(first.content, 'base64').toString()).toBe(newer);
    const [commit] = (
      await dev.repository.getFileBlame({ path: { id: PROJECT, file_path: 'CHANGELOG.md' }, query: { ref: 'main' } })
    ).map((r) => r.commit);
    expect(commit).toMatchObject({
      id: first.last_commit_id,
      message: 'Add changelog for version 1.1.0',
      author_name: 'Dev Developer',
    });

    await dev.repository.createChangelog({
      path: { id: PROJECT },
      body: { version: '1.0.0', from: initial, message: 'Changelog 1.0.0', trailer: 'Changelog' },
    });
    const older = notesOf(
      await dev.repository.getChangelog({ path: { id: PROJECT }, query: { version: '1.0.0', from: initial } }),
    );
    const both = await dev.repository.getFile({
      path: { id: PROJECT, file_path: 'CHANGELOG.md' },
      query: { ref: 'main' },
    });
    expect(Buffer.from(both.content, 'base64').toString()).toBe(`${newer}\n${older}`);
    // The version is there: 200, nothing committed.
    expect(
      await dev.repository.createChangelog.withResponse({ path: { id: PROJECT }, body: { version: 'v1.1.0' } }),
    ).toMatchObject({ status: 200, data: {} });
    expect(
      (await dev.repository.getFile({ path: { id: PROJECT, file_path: 'CHANGELOG.md' }, query: { ref: 'main' } }))
        .commit_id,
    ).toBe(both.commit_id);

    // Another file, on another branch, with a trailer of its own: nothing matches `Release-note`.
    await dev.repository.createChangelog({
      path: { id: PROJECT },
      body: { version: '2.0.0', branch: 'feature/login', file: 'docs/CHANGES.md', trailer: 'changelog' },
    });
    const other = await dev.repository.getFile({
      path: { id: PROJECT, file_path: 'docs/CHANGES.md' },
      query: { ref: 'feature/login' },
    });
    expect(Buffer.from(other.content, 'base64').toString()).toMatch(/^## 2\.0\.0 \(2025-03-11\)\n\nNo changes\.\n$/);
  });

  it('refuses reporters (403), strangers and anonymous callers', async () => {
    expect(
      (
        await failure(
          as('reporter-token').repository.createChangelog({ path: { id: PROJECT }, body: { version: '1.1.0' } }),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await failure(
          as('outsider-token').repository.createChangelog({
            path: { id: 'my-group/secret' },
            body: { version: '1.1.0' },
          }),
        )
      ).status,
    ).toBe(404);
    expect(
      (await failure(as().repository.getChangelog({ path: { id: PROJECT }, query: { version: '1.1.0' } }))).status,
    ).toBe(401);
    expect(
      (
        await failure(
          as('developer-token').repository.createChangelog({
            path: { id: PROJECT },
            body: { version: '1.1.0', branch: 'nope' },
          }),
        )
      ).status,
    ).toBe(400);
  });
});

describe('hostile refs', () => {
  it('prototype names and traversal are no refs or paths: 400 or 404, never a 500', async () => {
    const dev = as('developer-token');
    for (const ref of ['__proto__', 'constructor', 'toString']) {
      expect(
        (await failure(dev.repository.compare({ path: { id: PROJECT }, query: { from: ref, to: 'main' } }))).status,
        ref,
      ).toBe(404);
      expect(
        (await failure(dev.repository.getMergeBase({ path: { id: PROJECT }, query: { 'refs[]': [ref, 'main'] } })))
          .status,
        ref,
      ).toBe(400);
      expect((await failure(dev.repository.getFileBlame({ path: README, query: { ref } }))).status, ref).toBe(404);
      expect(
        (await failure(dev.repository.getChangelog({ path: { id: PROJECT }, query: { version: '1.1.0', from: ref } })))
          .status,
        ref,
      ).toBe(400);
      expect(
        (
          await failure(
            dev.repository.createChangelog({ path: { id: PROJECT }, body: { version: '1.1.0', branch: ref } }),
          )
        ).status,
        ref,
      ).toBe(400);
    }
    expect(
      (
        await failure(
          dev.repository.createChangelog({ path: { id: PROJECT }, body: { version: '1.1.0', file: '../outside.md' } }),
        )
      ).status,
    ).toBe(400);
    // Prototype names are file names like any other: absent (404), then written and read back by every read.
    for (const name of ['__proto__', 'constructor', 'toString']) {
      const path = { id: PROJECT, file_path: name };
      expect((await failure(dev.repository.getFile({ path, query: { ref: 'main' } }))).status, name).toBe(404);
      expect((await failure(dev.repository.getRawFile({ path, query: { ref: 'main' } }))).status, name).toBe(404);
      expect((await failure(dev.repository.getFileBlame({ path, query: { ref: 'main' } }))).status, name).toBe(404);
      await dev.repository.createFile({
        path,
        body: { branch: 'main', commit_message: `Add ${name}`, content: `${name}\n` },
      });
      const file = await dev.repository.getFile({ path, query: { ref: 'main' } });
      expect(Buffer.from(file.content, 'base64').toString()).toBe(`${name}\n`);
      expect(await dev.repository.getFileBlame({ path, query: { ref: 'main' } })).toMatchObject([
        { commit: { id: file.last_commit_id, message: `Add ${name}` }, lines: [name] },
      ]);
      expect(
        (await dev.repository.getFileBlameMetadata.withResponse({ path, query: { ref: 'main' } })).headers[
          'X-Service-Blob-Id'
        ],
      ).toBe(file.blob_id);
    }
    const tree = await dev.repository.listTree({ path: { id: PROJECT }, query: { per_page: 100 } });
    expect(tree.map((e) => e.path)).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'toString']));
    const compared = await dev.repository.compare({ path: { id: PROJECT }, query: { from: 'v1.0.0', to: 'main' } });
    expect(compared.diffs.filter((d) => d.new_file).map((d) => d.new_path)).toEqual([
      '__proto__',
      'constructor',
      'toString',
    ]);
    expect(
      await dev.repository.getFileBlame({
        path: README,
        query: { ref: 'main', 'range[start]': 2 ** 40, 'range[end]': 2 ** 41 },
      }),
    ).toEqual([]);
  });
});

describe('a long history', () => {
  it('blames, compares, counts and finds merge bases over 2000 commits of one file without recursion', {
    timeout: 60_000,
  }, async () => {
    const data = defaultData();
    const lines: string[] = [];
    data.repository_history = [
      {
        project_id: 3,
        commits: Array.from({ length: 2000 }, (_, i) => {
          lines.push(`line ${i}`);
          return {
            author_id: 3 + (i % 2),
            message: `Line ${i}\n\nChangelog: added`,
            files: { 'tool.txt': `${lines.join('\n')}\n` },
            ...(i === 0 ? { tag: '0.1.0' } : {}),
          };
        }),
      },
    ];
    await withFake(data, async (big) => {
      const api = big('maintainer-token');
      const tools = 'my-group/sub/tools';
      const ranges = await api.repository.getFileBlame.all({
        path: { id: tools, file_path: 'tool.txt' },
        query: { ref: 'main', per_page: 100 },
      });
      expect(ranges).toHaveLength(2000);
      expect(ranges.every((r, i) => r.lines.length === 1 && r.commit.message.startsWith(`Line ${i}\n`))).toBe(true);
      const contributors = await api.repository.listContributors({ path: { id: tools } });
      expect(contributors.map((c) => [c.name, c.commits, c.additions])).toEqual([
        ['Administrator', 1, 1],
        ['Dev Developer', 1000, 1000],
        ['Mia Maintainer', 1000, 1000],
      ]);
      const compared = await api.repository.compare({ path: { id: tools }, query: { from: '0.1.0', to: 'main' } });
      expect(compared.commits).toHaveLength(1999);
      expect(
        (await api.repository.getMergeBase({ path: { id: tools }, query: { 'refs[]': ['main', '0.1.0'] } })).title,
      ).toBe('Line 0');
      const changelog = notesOf(
        await api.repository.getChangelog({ path: { id: tools }, query: { version: '1.0.0' } }),
      );
      expect(changelog).toContain('### Added (1999 changes)');
    });
  });
});
