// Regenerates the fake's section of the root README from the code (run from the repository root: node --import tsx fake/scripts/readme.mts).
import fs from 'node:fs';
const m = await import('../src/index.ts');
const { routes } = await import('@service-api/server');
const list = m.implementedOperations.map((x: string) => '- `' + x + '`').join('\n');
const section = `### The fake: mock or fake?

**The mock** (\`npm run mock\`, Prism) serves the contract: each operation answers with its documented examples, any
credential of a documented scheme passes, and \`Prefer: code=404, example=…\` picks another documented response. Use it to
see what the API returns and to test a client against every documented shape. It keeps no state: a created merge request
is not in the next list.

**The fake** (\`@service-api/fake\`, in \`fake/\`) behaves: it keeps users, groups, projects, repositories, pipelines, jobs
and merge requests in memory, applies the state tables, access levels and sudo, and paginates the real collections. Use
it for integration tests that chain calls. It is built on \`@service-api/server\` (so it has the server's input limits,
tolerance and \`strict\` mode) and answers only what it implements: every other operation answers 501 after
authentication, never invented data.

\`\`\`ts
import { startFake } from '@service-api/fake';
import { createServiceApi } from '@service-api/client';
const fake = await startFake({ validateResponses: true });               // default data set, free port
const api = createServiceApi({ host: fake.url, auth: { privateToken: 'developer-token' } });
await api.mergeRequests.createMergeRequest({ path: { id: 'my-group/my-project' }, body: { source_branch: 'feature/login', target_branch: 'main', title: 'Add login page' } });
fake.reset(); await fake.close();
\`\`\`

- Command: \`npm run fake -- --port 4010 --host 127.0.0.1 --data file.json --any-token\` (\`service-api-fake\` once the
  package is packed: \`npm pack ./fake\` compiles \`fake/dist\` with \`tsc\`). \`--data\` replaces the default data set
  (its JSON shape is \`FakeData\` in \`fake/src/data.ts\`); \`--any-token\` makes every token the data set's
  administrator. \`POST /__fake/reset\` restores the data set and \`GET /__fake/state\` dumps the state (both outside
  \`/api/v4\` and unauthenticated: the fake is for tests).
- In a test: \`startFake({ data, port, host, anyToken, validateResponses, strict })\` gives \`{ url, reset(), state(),
  close() }\`; \`createFake(options)\` gives the Fastify app without listening. Ids and timestamps are deterministic (a
  clock that moves one second per write); blob ids are git's; commit ids are derived from their content.
- Default data set (\`fake/src/default-data.ts\`): tokens \`admin-sudo-token\` (administrator, scopes \`api sudo\`),
  \`admin-token\` (administrator without \`sudo\`), \`owner-token\` (owner of \`my-group\`), \`maintainer-token\`,
  \`developer-token\`, \`reporter-token\`, \`guest-token\` (members of \`my-group/my-project\` at each level),
  \`outsider-token\` (no membership), \`oauth-token\` (OAuth, the developer), \`impersonation-token\`, the session cookie
  \`_service_session=session-cookie\`, and \`job-token\` (bound to running job 103). Projects \`my-group/my-project\`
  (public, id 1), \`my-group/secret\` (private, id 2), \`my-group/sub/tools\` (internal, id 3); jobs in every status;
  merge requests \`!1\` to \`!6\` of project 1 in every state (\`!5\` a draft, \`!6\` with conflicts).
- Authentication: the seven ways (\`PRIVATE-TOKEN\`, \`private_token\`, Bearer, \`access_token\`, \`JOB-TOKEN\`,
  \`job_token\`, the session cookie), each token only where its kind is accepted (a job token only on job-token
  operations, and only while its job runs); sudo by header or query answers 403 (not an administrator), 403
  \`insufficient_scope\` (no \`sudo\` scope) or 404 (unknown user) with the API's bodies, else runs as that user.
- Behaviour: merge requests follow the state table (close sets \`closed_by\`/\`closed_at\`, reopen only from closed,
  merge only when opened, not a draft and without conflicts: else 405; a \`sha\` other than the source head: 409
  \`SHA does not match HEAD of source branch\`; \`merge_when_pipeline_succeeds\` stays opened; merge writes a real merge
  commit on the target branch, squashes and removes the source branch when asked, and sets \`merged_at\`, \`merge_user\`,
  \`merge_commit_sha\`); update without an attribute is 400; delete is for owners and administrators (403). Lists
  filter (state, labels with None/Any, \`not[...]\`, author, assignee, reviewer, branches, search, dates, \`iids[]\`,
  scope, \`view=simple\`) and paginate the real collection (\`Link\` first/prev/next/last, \`x-page\`,
  \`x-next-page\`, \`x-total\` …). Repository files are commits: GET, HEAD, raw and blobs read the same bytes, blob
  and commit ids; \`/../\` paths, unchanged content and a stale \`last_commit_id\` are 400; the tree pages by keyset.
  Project exports go \`none → queued → started → finished\`, one step per status read (the fake has no background
  worker), then download a real gzip tarball. A project with \`previous_paths\` answers 301 to its numeric-id URL
  when called by an old path.
- Groups: hooks, push rules, LDAP/SAML links, LDAP sync and shares are for the group's owners and administrators (403
  below Owner, 404 for a group the caller cannot see); \`my-group\` has hook 1, the LDAP link \`developers\` and the
  SAML link \`Engineering\`, and no push rule (GET 404 until created; a second create, a duplicate link or share is
  409). A share gives the other group's members at most \`group_access\` in the group (its projects, \`members/all\`)
  until \`expires_at\`. The hook's \`token\` is never returned and is cleared when \`url\` changes; deleting a hook
  again answers 404 and changes nothing. Personal projects: \`user_namespaces\` in the data
  set (none by default) give users namespaces for \`GET /users/:id/projects\`; \`private_profile\` empties that list.
- Not modelled: pipelines running (jobs keep their status), milestones (\`milestone_id\` is accepted and ignored),
  group approval rules, runners, badges, integrations, settings, imports and migrations: their operations
  answer 501.

<!-- fake-operations:start -->
Operations with a real handler (${m.implementedOperations.length} of the ${routes.length} operations; \`test/fake-cli.test.ts\` checks this list against the code):

${list}
<!-- fake-operations:end -->

`;
let r = fs.readFileSync('README.md', 'utf8');
const start = r.indexOf('### The fake: mock or fake?');
if (start >= 0) r = r.slice(0, start) + r.slice(r.indexOf('### Generated output'));
r = r.replace('### Generated output\n', section + '### Generated output\n');
const row = "| `npm run fake` | The stateful fake on `http://127.0.0.1:4010/api/v4` (`-- --port N --host H --data file.json --any-token`); see [the fake](#the-fake-mock-or-fake). |";
if (!r.includes(row)) r = r.replace(/(\| `npm run mock` \|[^\n]*\n)/, `$1${row}\n`);
fs.writeFileSync('README.md', r);
