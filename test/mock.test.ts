import { describe, expect, it } from 'vitest';
import { parsePrefer } from '../scripts/mock/prefer.ts';
import { parseQuery } from '../scripts/mock/query.ts';
import { describeViolations } from '../scripts/mock/violations.ts';
import { useMock } from './support/mock.ts';

describe('query parsing keeps bracketed names', () => {
  const cases: [string, Record<string, string | string[]>][] = [
    ['scope[]=failed', { 'scope[]': 'failed' }],
    ['scope[]=pending&scope[]=running', { 'scope[]': ['pending', 'running'] }],
    ['scope%5B%5D=failed', { 'scope[]': 'failed' }],
    ['range[start]=1&range[end]=5', { 'range[start]': '1', 'range[end]': '5' }],
    ['', {}],
  ];
  it.each(cases)('%s', (given, want) => {
    expect(parseQuery(given)).toEqual(want);
  });
});

describe('Prefer header', () => {
  const cases: [string | undefined, object][] = [
    [undefined, {}],
    ['code=404', { code: 404 }],
    ['code=404, example=SudoUserNotFoundError', { code: 404, exampleKey: 'SudoUserNotFoundError' }],
    ['dynamic=true', { dynamic: true }],
    ['code=abc, nonsense', {}],
  ];
  it.each(cases)('%s', (given, want) => {
    expect(parsePrefer(given)).toEqual(want);
  });
});

it('violations become a body naming each field', () => {
  expect(describeViolations(400, [{ path: ['query', 'per_page'], message: 'Request query parameter per_page must be <= 100' }])).toEqual({
    message: '400 Bad request - query parameter per_page must be <= 100',
    errors: [{ in: 'query', field: 'per_page', problem: 'query parameter per_page must be <= 100' }],
  });
});

describe('the mock answers as the API would', () => {
  const api = useMock();
  const auth = { 'PRIVATE-TOKEN': 'x' };
  const cases: [string, string, RequestInit, number, unknown][] = [
    ['routes a numeric id', '/projects/42/jobs', { headers: auth }, 200, expect.any(Array)],
    ['routes a URL-encoded full path', '/projects/my-group%2Fmy-project/jobs', { headers: auth }, 200, expect.any(Array)],
    ['takes the token as a query parameter', '/projects/42/jobs?private_token=x', {}, 200, expect.any(Array)],
    ['takes the session cookie', '/projects/42/jobs', { headers: { Cookie: '_service_session=abc' } }, 200, expect.any(Array)],
    ['validates bracketed scope[] values', '/projects/42/jobs?scope[]=bogus', { headers: auth }, 400, { message: expect.stringContaining('scope[]'), errors: expect.any(Array) }],
    ['enforces per_page ≤ 100', '/projects/42/jobs?per_page=101', { headers: auth }, 400, { message: expect.stringContaining('per_page'), errors: expect.any(Array) }],
    ['answers 401 without credentials', '/projects/42/jobs', {}, 401, { message: '401 Unauthorized' }],
    ['refuses a job token where the API does not accept one', '/projects/42/jobs', { headers: { 'JOB-TOKEN': 'x' } }, 401, { message: '401 Unauthorized' }],
    ['serves a documented error on request', '/projects/42/jobs/7', { headers: { ...auth, Prefer: 'code=404, example=SudoUserNotFoundError' } }, 404, { message: "404 User with ID or username 'jdoe' Not Found" }],
    ['answers 404 for an unknown path', '/nothing/here', { headers: auth }, 404, { message: expect.stringContaining('404') }],
    ['answers 405 for an undocumented method', '/projects/42/jobs', { method: 'DELETE', headers: auth }, 405, { message: expect.stringContaining('405') }],
  ];
  it.each(cases)('%s', async (_title, path, init, status, body) => {
    const response = await fetch(`${api()}${path}`, init);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual(body);
  });

  it('describes a list as one page at the URL the client used', async () => {
    const response = await fetch(`${api()}/projects/42/jobs?per_page=5&scope[]=failed`, { headers: auth });
    const self = `${api()}/projects/42/jobs?per_page=5&scope[]=failed&page=1`;
    expect(response.headers.get('link')).toBe(`<${self}>; rel="first", <${self}>; rel="last"`);
    expect(response.headers.get('x-page')).toBe('1');
    expect(response.headers.get('x-next-page')).toBe('');
  });

  it('serves the API only under /api/v4', async () => {
    const response = await fetch(`${api().replace(/\/api\/v4$/, '')}/projects/42/jobs`, { headers: auth });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: '404 Not Found: the API is served under /api/v4' });
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await fetch(`${api()}/projects/42/jobs`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{oops' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: '400 Bad request - the request body is not valid JSON' });
  });
});
