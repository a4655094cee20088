/**
 * What a long test suite does to the fake, and whether the fake still agrees with itself afterwards: merge requests
 * created (each from a branch a file write starts), updated and merged, plain file writes, then every record read back
 * and every list paged through. Used by the bench (`fake-suite`, at the scale) and by a test at a smaller one.
 * No timing here: the bench times it, the test only checks the answers.
 */

export interface LongSuiteOptions {
  /** The API root, `http://127.0.0.1:port/api/v4`. */
  api: string;
  token: string;
  /** A project the token may write to, by id. */
  project: number;
  mergeRequests: number;
  /** File writes in all, the writes that start the merge requests' branches included. */
  fileWrites: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Called after each phase with its name. */
  progress?: (phase: string) => void;
}

export interface LongSuiteResult {
  /** Each disagreement between what was written and what was read, at most 20 (and `disagreementCount`). */
  disagreements: string[];
  disagreementCount: number;
  /** Records read back, and lists paged through. */
  recordsRead: number;
  listsPaged: number;
}

/** Runs `count` tasks, `concurrency` at a time, in order of their index. */
async function pool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await task(i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

export async function runLongSuite(options: LongSuiteOptions): Promise<LongSuiteResult> {
  const { api, token, project, mergeRequests, fileWrites, concurrency = 4 } = options;
  const headers = { 'PRIVATE-TOKEN': token, 'content-type': 'application/json' };
  const disagreements: string[] = [];
  let disagreementCount = 0;
  const disagree = (text: string) => {
    disagreementCount++;
    if (disagreements.length < 20) disagreements.push(text);
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${api}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: text ? (JSON.parse(text) as unknown) : null };
  };
  const expectStatus = (what: string, status: number, expected: number) => {
    if (status !== expected) disagree(`${what}: ${status}, expected ${expected}`);
  };
  const files = `/projects/${project}/repository/files`;
  const filePath = (i: number) => `suite/part-${i % 50}/file-${i}.txt`;
  const branchFile = (i: number) => `suite/branches/mr-${i}.txt`;

  // Merge requests: a branch started by a file write, the merge request, a new title, the merge.
  const iids: number[] = new Array(mergeRequests);
  await pool(mergeRequests, concurrency, async (i) => {
    const branch = `suite-mr-${i}`;
    const write = await call('POST', `${files}/${encodeURIComponent(branchFile(i))}`, {
      branch,
      start_branch: 'main',
      commit_message: `Start ${branch}`,
      content: `merge request ${i}\n`,
    });
    expectStatus(`branch ${branch}`, write.status, 201);
    const created = await call('POST', `/projects/${project}/merge_requests`, {
      source_branch: branch,
      target_branch: 'main',
      title: `Suite ${i}`,
    });
    expectStatus(`merge request ${i} created`, created.status, 201);
    const iid = (created.json as { iid?: number } | null)?.iid;
    if (typeof iid !== 'number') return;
    iids[i] = iid;
    const updated = await call('PUT', `/projects/${project}/merge_requests/${iid}`, { title: `Suite ${i} (updated)` });
    expectStatus(`merge request ${iid} updated`, updated.status, 200);
    const merged = await call('PUT', `/projects/${project}/merge_requests/${iid}/merge`, {});
    expectStatus(`merge request ${iid} merged`, merged.status, 200);
  });
  options.progress?.(`${mergeRequests} merge requests created, updated and merged`);

  // The other file writes, on the default branch.
  const plain = Math.max(0, fileWrites - mergeRequests);
  await pool(plain, concurrency, async (i) => {
    const written = await call('POST', `${files}/${encodeURIComponent(filePath(i))}`, {
      branch: 'main',
      commit_message: `Add file ${i}`,
      content: `file ${i}\n`,
    });
    expectStatus(`file ${filePath(i)} written`, written.status, 201);
  });
  options.progress?.(`${fileWrites} file writes`);

  // Every record read back: each file on the default branch (the merged ones too).
  let recordsRead = 0;
  const readFile = async (path: string, content: string) => {
    const read = await call('GET', `${files}/${encodeURIComponent(path)}?ref=main`);
    recordsRead++;
    expectStatus(`file ${path} read`, read.status, 200);
    const base64 = (read.json as { content?: string } | null)?.content;
    if (read.status === 200 && Buffer.from(base64 ?? '', 'base64').toString('utf8') !== content)
      disagree(`file ${path}: content differs from what was written`);
  };
  await pool(plain, concurrency, (i) => readFile(filePath(i), `file ${i}\n`));
  await pool(mergeRequests, concurrency, (i) => readFile(branchFile(i), `merge request ${i}\n`));

  // Every list paged through: x-total is what the pages hold, and every merge request is there as last written.
  let listsPaged = 0;
  const pageThrough = async (path: string) => {
    const items: Record<string, unknown>[] = [];
    let total: string | null = null;
    for (let page = 1; ; page++) {
      const answer = await call('GET', `${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`);
      expectStatus(`${path} page ${page}`, answer.status, 200);
      if (answer.status !== 200 || !Array.isArray(answer.json)) break;
      total ??= answer.headers.get('x-total');
      items.push(...(answer.json as Record<string, unknown>[]));
      if (!answer.headers.get('x-next-page')) break;
    }
    listsPaged++;
    if (total !== null && Number(total) !== items.length)
      disagree(`${path}: x-total ${total}, ${items.length} paged through`);
    return items;
  };
  const suiteOnly = (items: Record<string, unknown>[]) =>
    items.filter((mr) => mr.project_id === project && String(mr.title).startsWith('Suite '));
  const lists = {
    project: suiteOnly(await pageThrough(`/projects/${project}/merge_requests`)),
    merged: suiteOnly(await pageThrough(`/projects/${project}/merge_requests?state=merged`)),
    global: suiteOnly(await pageThrough('/merge_requests?scope=all')),
  };
  for (const [name, items] of Object.entries(lists)) {
    const byIid = new Map(items.map((mr) => [mr.iid, mr]));
    if (byIid.size !== items.length) disagree(`${name} list: a merge request listed twice`);
    iids.forEach((iid, i) => {
      const mr = byIid.get(iid);
      recordsRead++;
      if (!mr) disagree(`${name} list: merge request ${iid} missing`);
      else if (mr.title !== `Suite ${i} (updated)` || mr.state !== 'merged')
        disagree(`${name} list: merge request ${iid} is ${String(mr.state)} "${String(mr.title)}"`);
    });
  }
  options.progress?.(`${recordsRead} records read, ${listsPaged} lists paged through`);
  return { disagreements, disagreementCount, recordsRead, listsPaged };
}
