/**
 * The fake answers 404 for a project or group reference that is neither a number nor a path its data set holds,
 * as the Service does: what openapi-generator's Java and Go clients sent for an `anyOf` id (a class's text, a Go
 * struct's `{<nil> 0xc000…}`) is caught here, not by a team.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../src/index.ts';

const JAVA = 'class%20class%20ProjectOrGroupRef%20%7B%0A%20%20%20%20actualInstance%3A%2042%0A%7D';
const GO = '%7B%3Cnil%3E%200xc000123456%7D';
const headers = { 'PRIVATE-TOKEN': 'developer-token' };

let fake: Fake;
beforeAll(async () => {
  fake = await createFake();
});
afterAll(() => fake?.app.close());

describe('project and group references in the fake', () => {
  const cases: [string, string, number, string | undefined][] = [
    ['a project by ID', '/projects/1/jobs', 200, undefined],
    ['a project by its encoded path', '/projects/my-group%2Fmy-project/jobs', 200, undefined],
    ["Java's class text", `/projects/${JAVA}/jobs`, 404, '404 Project Not Found'],
    ["Go's struct text", `/projects/${GO}/jobs`, 404, '404 Project Not Found'],
    [
      'a well-formed path the data set does not hold',
      '/projects/no-such-group%2Fnothing/jobs',
      404,
      '404 Project Not Found',
    ],
    ['an ID the data set does not hold', '/projects/999999/jobs', 404, '404 Project Not Found'],
    ["a group by Java's class text", `/groups/${JAVA}/projects`, 404, '404 Group Not Found'],
    ["a group by Go's struct text", `/groups/${GO}/projects`, 404, '404 Group Not Found'],
  ];
  it.each(cases)('%s', async (_title, path, status, message) => {
    const response = await fake.fetch(`https://service.example/api/v4${path}`, { headers });
    const body: unknown = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(status);
    if (message) expect(body).toEqual({ message });
  });
});
