/**
 * The team's merge-request flow (test/fixtures/consumers/team-mr-flow.ts, compiled and run by the pack-and-install
 * test) has no glue: no cast, no `any`, no adapter. The counter is checked on sources that have each kind.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Glue, glueIn, TEAM_FLOW } from './support/glue.ts';

describe('the glue counter', () => {
  it.each<[string, string, Partial<Record<keyof Glue, number>>]>([
    ['a cast', 'const mr = (await res.json()) as MergeRequest;', { casts: 1 }],
    ['an angle-bracket cast', 'const mr = <MergeRequest>body;', { casts: 1 }],
    ['a non-null assertion', 'const first = list[0]!;', { casts: 1 }],
    ['as const', "const key = ['a', 1] as const;", {}],
    ['any', 'let body: any; const list: Array<any> = [];', { any: 2 }],
    [
      'a named function',
      'function toIssues(errors: string[]) { return errors.map((message) => ({ message })); }',
      {
        adapters: 1,
      },
    ],
    [
      'an arrow in a variable',
      'const fetchList = async () => api.mergeRequests.listProjectMergeRequests(input);',
      {
        adapters: 1,
      },
    ],
    ['a hand-written queryFn', "observe({ queryKey: ['mrs'], queryFn: () => list() });", { adapters: 2 }],
    [
      'a hand-written Standard Schema',
      "const schema = { '~standard': { version: 1, vendor: 'x', validate } };",
      {
        adapters: 1,
      },
    ],
    ['a key taken from the helpers', 'client.invalidateQueries({ queryKey: helpers.operationKey });', {}],
    [
      'an inline callback',
      'observer.subscribe(() => undefined); new MutationObserver(c, { onSuccess: () => refresh() });',
      {},
    ],
  ])('counts %s', (_, source, expected) => {
    const glue = glueIn(source);
    expect({ casts: glue.casts.length, any: glue.any.length, adapters: glue.adapters.length }).toEqual({
      casts: 0,
      any: 0,
      adapters: 0,
      ...expected,
    });
  });
});

describe('the team’s merge-request flow', () => {
  const source = readFileSync(TEAM_FLOW, 'utf8');

  it('has no cast, no any and no adapter', () => {
    expect(glueIn(source, TEAM_FLOW)).toEqual({ casts: [], any: [], adapters: [] });
  });

  it('uses TanStack Query, MSW with the fake’s handlers and a Standard Schema form library', () => {
    for (const module of [
      '@tanstack/query-core',
      '@tanstack/form-core',
      'msw/node',
      '@service-api/client/query',
      '@service-api/fake/msw',
      '@service-api/validators/standard',
    ])
      expect(source).toContain(`from '${module}'`);
  });
});
