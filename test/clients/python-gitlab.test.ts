/**
 * The Python SDK of this API family (Debian's python3-gitlab) against the mock, a server built on
 * @service-api/server and the stateful fake: `python-gitlab/scenario.py` makes one call per operation of the contract
 * (its object API where it has one, its generic `http_*` methods elsewhere), in one Python process per target. Every
 * call must pass and reach the operation it is listed for (by the requests the client sent and, where the target logs
 * them, by the requests it answered).
 * A missing python-gitlab fails on CI (`.ci/run` installs it) and is reported as skipped elsewhere.
 */
import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultData } from '../../packages/fake/src/index.ts';
import { listOperations } from '../../generators/lib/document.ts';
import { publishedDocument } from '../support/documents.ts';
import { startExampleServer, type ExampleServer } from '../support/example-server.ts';
import { useMock } from '../support/mock.ts';
import { mockIds, type CallIds } from './gitbeaker-calls.ts';
import { fakeIds, fakeToken, reached, startLoggedFake, type LoggedFake } from './targets.ts';

const scenario = fileURLToPath(new URL('./python-gitlab/scenario.py', import.meta.url));

/**
 * The Python that imports python-gitlab and the operations the scenario calls: `$PYTHON` if set, else the first of
 * `python3` and `/usr/bin/python3` (Debian's package lives in the system Python's dist-packages).
 */
function findPython(): { command: string; operationIds: string[] } | { missing: string } {
  const tried: string[] = [];
  for (const command of process.env.PYTHON ? [process.env.PYTHON] : ['python3', '/usr/bin/python3']) {
    try {
      return {
        command,
        operationIds: JSON.parse(
          execFileSync(command, [scenario, '--list'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
        ) as string[],
      };
    } catch (error) {
      tried.push(
        `${command}: ${String((error as { stderr?: string }).stderr ?? error)
          .trim()
          .split('\n')
          .at(-1)}`,
      );
    }
  }
  return { missing: `no Python imports gitlab (${tried.join('; ')}); install Debian's python3-gitlab` };
}

const python = findPython();
const missing = 'missing' in python ? python.missing : undefined;
const onCi = Boolean(process.env.CI);
if (missing && !onCi) console.warn(`python-gitlab test skipped: ${missing}`);

it.skipIf(missing !== undefined && !onCi)(
  `python-gitlab is importable${missing ? ` (${onCi ? 'missing' : 'skipped'}: ${missing})` : ''}`,
  () => {
    expect(missing, 'CI must run the Python SDK against every target: .ci/run installs python3-gitlab').toBeUndefined();
  },
);

/** The records the scenario names beyond the TypeScript SDK's. */
interface PythonIds extends CallIds {
  /** An LDAP group link deleted by its cn alone. */
  ldapCn: string;
  /** A branch the file calls create from the default branch, then the source of the new merge request. */
  newBranch: string;
  /** The system id of a manager of `runner`. */
  runnerManager: string;
}

/** What the scenario printed for one call. */
interface Outcome {
  operationId: string;
  method: string;
  ok: boolean;
  error?: string;
  message?: string;
  requests: string[];
}

const mockPythonIds: PythonIds = {
  ...mockIds,
  ldapCn: 'developers',
  newBranch: 'feature',
  runnerManager: 's_0a1b2c3d4e5f',
};

interface Target {
  name: string;
  settings: () => { url: string; token: string; tokens?: Record<string, string>; jobToken: string; ids: PythonIds };
  /** Request lines the target answered (optional). */
  lines?: string[];
}

const mockTarget = (): Target => {
  const lines: string[] = [];
  const api = useMock({ log: (line) => lines.push(line) });
  return {
    name: 'mock',
    lines,
    settings: () => ({
      url: api().replace(/\/api\/v4$/, ''),
      token: 'glpat-test',
      jobToken: 'job-token',
      ids: mockPythonIds,
    }),
  };
};

const serverTarget = (): Target => {
  let server: ExampleServer | undefined;
  beforeAll(async () => {
    server = await startExampleServer();
  });
  afterAll(() => server?.close());
  return {
    name: 'server package',
    settings: () => ({ url: server!.origin, token: 'glpat-test', jobToken: 'job-token', ids: mockPythonIds }),
  };
};

/**
 * The fake on its default data set plus an LDAP group link for the deletion by cn, as its administrator (`fakeToken`
 * names the exceptions) or the token of its running job; a new fake for the run.
 */
const fakeTarget = (operationIds: string[]): Target => {
  const lines: string[] = [];
  let fake: LoggedFake | undefined;
  beforeAll(async () => {
    const data = defaultData();
    data.ldap_group_links = [
      ...(data.ldap_group_links ?? []),
      { group_id: 1, cn: 'qa', group_access: 20, provider: 'ldapmain' },
    ];
    fake = await startLoggedFake({ data }, lines);
  });
  afterAll(() => fake?.close());
  return {
    name: 'fake',
    lines,
    settings: () => ({
      url: fake!.origin,
      token: 'admin-token',
      jobToken: 'job-token',
      tokens: Object.fromEntries(operationIds.map((id) => [id, fakeToken(id)])),
      ids: { ...fakeIds(fake!.readmeBlob), ldapCn: 'qa', newBranch: 'feature/python', runnerManager: 's_3d4e5f607182' },
    }),
  };
};

const run = promisify(execFile);

describe.skipIf(missing !== undefined)(
  `python-gitlab${missing ? ' (skipped: python-gitlab is not importable)' : ''}`,
  () => {
    const { command, operationIds } = 'command' in python ? python : { command: '', operationIds: [] };
    it('calls every operation of the contract, each once', () => {
      expect([...operationIds].sort()).toEqual(
        listOperations(publishedDocument())
          .map((entry) => entry.operationId)
          .sort(),
      );
    });
    describe.each([mockTarget(), serverTarget(), fakeTarget(operationIds)])(
      'against the $name',
      ({ name, settings, lines }) => {
        const outcomes = new Map<string, Outcome>();
        /** The operations the target logged answering. */
        let answered: string[] = [];
        beforeAll(async () => {
          const { stdout } = await run(command, [scenario, JSON.stringify(settings())], {
            maxBuffer: 16 * 1024 * 1024,
          });
          for (const line of stdout.trim().split('\n')) {
            const outcome = JSON.parse(line) as Outcome;
            outcomes.set(outcome.operationId, outcome);
          }
          answered = lines ? await reached(lines) : [];
        }, 60_000);
        afterAll(() => {
          console.log(
            `python-gitlab against the ${name}: ${[...outcomes.values()].filter((o) => o.ok).length} of ${outcomes.size} calls pass`,
          );
        });

        it.for(operationIds)('%s', async (operationId) => {
          const outcome = outcomes.get(operationId);
          expect(outcome, 'the scenario reported the call').toBeDefined();
          expect(await reached(outcome!.requests), outcome!.requests.join('\n')).toContain(operationId);
          if (lines) expect(answered, 'the target answered it').toContain(operationId);
          expect(
            outcome,
            `${outcome!.method}: ${outcome!.error}: ${outcome!.message}\n${outcome!.requests.join('\n')}`,
          ).toMatchObject({ ok: true });
        });
      },
    );
  },
);
