import { describe, expect, it } from 'vitest';
import operationIdGrammar from '../../scripts/spectral/operation-id-grammar.js';

const verbs = ['list', 'get', 'merge'];
const cases: [string, object, string[]][] = [
  ['accepts tag/verb-words', { operationId: 'jobs/list-project-jobs', tags: ['jobs'] }, []],
  ['accepts a bare verb', { operationId: 'merge-requests/merge', tags: ['merge-requests'] }, []],
  ['rejects a missing operationId', { tags: ['jobs'] }, ['Operation has no operationId']],
  [
    'rejects camelCase',
    { operationId: 'jobs/listJobs', tags: ['jobs'] },
    ['operationId "jobs/listJobs" must read <tag>/<verb>-<words> in lower-case kebab case'],
  ],
  [
    'rejects a missing tag prefix',
    { operationId: 'list-jobs', tags: ['jobs'] },
    ['operationId "list-jobs" must read <tag>/<verb>-<words> in lower-case kebab case'],
  ],
  [
    'rejects a prefix that is not the tag',
    { operationId: 'runners/list-jobs', tags: ['jobs'] },
    ['operationId "runners/list-jobs" must start with its tag "jobs/"'],
  ],
  [
    'rejects an unknown verb',
    { operationId: 'jobs/fetch-jobs', tags: ['jobs'] },
    ['operationId "jobs/fetch-jobs" starts with "fetch", which is not an allowed verb (list, get, merge)'],
  ],
];

describe('operation-id-grammar', () => {
  it.each(cases)('%s', (_title, given, want) => {
    expect(operationIdGrammar(given, { verbs }).map((p: { message: string }) => p.message)).toEqual(want);
  });
});
