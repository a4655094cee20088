/**
 * A widely used third-party TypeScript client of this API family (@gitbeaker/rest) against the mock and a server built
 * on @service-api/server: one call per
 * operation it supports, in default mode (every call passes) and strict mode (the calls in the exact form pass;
 * the others are refused with 400 naming the field). Each call must reach the operation it is listed for.
 */
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations } from '../../generators/lib/document.ts';
import { Router } from '../../scripts/mock/router.ts';
import { publishedDocument } from '../support/documents.ts';
import { startExampleServer, type ExampleServer } from '../support/example-server.ts';
import { useMock } from '../support/mock.ts';
import { gitbeakerCalls } from './gitbeaker-calls.ts';

const router = new Router<string>();
for (const entry of listOperations(publishedDocument())) router.add(entry.method, entry.path, entry.operationId);

/** The operations that a logged request line reached. */
function reached(lines: string[]): string[] {
  return lines.flatMap((line) => {
    const match = /^([A-Z]+) \/api\/v4(\S*) → /.exec(line);
    const route = match ? router.match(match[1]!, match[2]!) : undefined;
    return route?.kind === 'found' ? [route.value] : [];
  });
}

interface Target {
  name: string;
  strict: boolean;
  /** The API root, `http://host:port/api/v4`. */
  api: () => string;
  /** Access-log lines of the target, to check which operation each call reached (optional). */
  lines?: string[];
}

function mockTarget(strict: boolean): Target {
  const lines: string[] = [];
  return { name: `mock, ${strict ? 'strict' : 'default'} mode`, strict, api: useMock({ strict, log: (line) => lines.push(line) }), lines };
}

/** A server built on @service-api/server whose handlers answer each operation's first documented example. */
function serverTarget(strict: boolean): Target {
  let server: ExampleServer | undefined;
  beforeAll(async () => {
    server = await startExampleServer({ strict });
  });
  afterAll(() => server?.close());
  return { name: `server package, ${strict ? 'strict' : 'default'} mode`, strict, api: () => `${server!.origin}/api/v4` };
}

const targets: Target[] = [mockTarget(false), mockTarget(true), serverTarget(false), serverTarget(true)];

describe.each(targets)('@gitbeaker/rest against the $name', ({ strict, api, lines }) => {
  const client = () => new Gitlab({ host: api().replace(/\/api\/v4$/, ''), token: 'glpat-test' });
  const results: boolean[] = [];
  afterAll(() => {
    console.log(`@gitbeaker/rest ${strict ? 'strict' : 'default'}: ${results.filter(Boolean).length} of ${results.length} calls pass`);
  });

  const calls = strict ? gitbeakerCalls.map((c) => ({ ...c, expectPass: !c.tolerated })) : gitbeakerCalls.map((c) => ({ ...c, expectPass: true }));
  it.each(calls.map((c) => [c.operationId, c] as const))('%s', async (operationId, { call, expectPass, tolerated }) => {
    if (lines) lines.length = 0;
    const outcome = await Promise.resolve()
      .then(() => call(client()))
      .then(
      () => ({ ok: true, status: 0 }),
      (error: { cause?: { response?: { status?: number } }; message?: string }) => ({ ok: false, status: error.cause?.response?.status ?? 0, message: error.message }),
    );
    results.push(outcome.ok);
    if (lines) expect(reached(lines), lines.join('\n')).toContain(operationId);
    if (expectPass) expect(outcome, lines?.join('\n')).toMatchObject({ ok: true });
    else expect(outcome, `strict mode refuses: ${tolerated}`).toMatchObject({ ok: false, status: 400 });
  });
});
