/**
 * A project or group reference that no Service path can be (what openapi-generator's Java and Go clients sent for an
 * `anyOf` id: a class's text, a struct's `{<nil> 0xc000…}`) gets the Service's 404, so a client's own tests against the
 * mock catch it; an ID or a path of letters, digits, `_`, `-` and `.` gets the documented answer as before.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNamespaceReference } from '@service-api/server/internal';
import { createMock } from '../src/index.ts';

const JAVA = 'class%20class%20ProjectOrGroupRef%20%7B%0A%20%20%20%20actualInstance%3A%2042%0A%7D';
const GO = '%7B%3Cnil%3E%200xc000123456%7D';
const token = { 'private-token': 'any' };

let app: FastifyInstance;
beforeAll(async () => {
  app = await createMock();
});
afterAll(() => app?.close());

describe('project and group references in the mock', () => {
  const cases: [string, string, number, string | undefined][] = [
    ['a numeric ID', '/api/v4/projects/42/jobs', 200, undefined],
    ['an encoded full path', '/api/v4/projects/my-group%2Fmy-project/jobs', 200, undefined],
    ['a path with dots, dashes and underscores', '/api/v4/groups/my_group.v2%2Fsub-group/projects', 200, undefined],
    ["Java's class text", `/api/v4/projects/${JAVA}/jobs`, 404, '404 Project Not Found'],
    ["Go's struct text", `/api/v4/projects/${GO}/jobs`, 404, '404 Project Not Found'],
    ['a group reference with a space', '/api/v4/groups/my%20group/projects', 404, '404 Group Not Found'],
    ['a segment that starts with a dash', '/api/v4/projects/my-group%2F-x/jobs', 404, '404 Project Not Found'],
  ];
  it.each(cases)('%s', async (_title, url, status, message) => {
    const response = await app.inject({ method: 'GET', url, headers: token });
    expect(response.statusCode, response.body).toBe(status);
    if (message) expect(response.json()).toEqual({ message });
  });
});

describe('isNamespaceReference', () => {
  const cases: [string, boolean][] = [
    ['42', true],
    ['my-group/my-project', true],
    ['a/b/c.d_e-f', true],
    ['.hidden', true],
    ['', false],
    ['-leading', false],
    ['a//b', false],
    ['a/', false],
    ['class ProjectOrGroupRef', false],
    ['{<nil> 0xc000123456}', false],
    ['é', false],
  ];
  it.each(cases)('%j → %s', (reference, valid) => {
    expect(isNamespaceReference(reference)).toBe(valid);
  });
});
